// Group commit on a real SQLite file and on PostgreSQL: writes that wait while one runs share its transaction and
// its commit, and a failing one takes only itself back (the group is rolled back and the writes before it run
// again). The statement shapes are in test/unit/group-commit.test.ts.
import { expect } from 'chai';
import { newId } from '../../src/application/ids';
import { postgres, postgresAvailable, POSTGRES_ADMIN_URL, POSTGRES_REQUIRED, sqlite } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

for (const backend of [sqlite, postgres])
  describe(`group commit on ${backend.name}`, function () {
    let server: TestServer;
    before(async function () {
      if (backend === postgres && !(await postgresAvailable())) {
        if (POSTGRES_REQUIRED) throw new Error(`PostgreSQL is required but does not answer at ${POSTGRES_ADMIN_URL}`);
        this.skip();
      }
      server = await startServer(backend);
      const r = registryOf(server);
      await r.type('vcs');
      await r.resource('x/repo', 'vcs');
    });
    after(() => server?.close());

    const projectNames = async () =>
      (await server.data(`{ projects(first: 100) { edges { node { name } } } }`)).projects.edges.map(
        (e: any) => e.node.name,
      );

    it('commits the writes queued together once, each at a version of its own, and takes back only the one that fails', async () => {
      const { versioning, db } = server.app;
      const before = db.groupCommits();
      const write = (name: string, fails = false) =>
        versioning.write(async ({ writer }) => {
          const made = await writer.insertProject({ id: newId(), name, description: null });
          if (fails) throw new Error(`${name} refused`);
          return made!.name;
        });
      const settled = await Promise.allSettled([write('g-1'), write('g-2'), write('g-3', true), write('g-4')]);
      expect(settled.map((s) => s.status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      const versions = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value.state.version] : []));
      expect(versions[1]).to.equal(versions[0] + 1);
      expect(versions[2]).to.equal(versions[1] + 1);
      const after = db.groupCommits();
      expect(after.commits - before.commits).to.equal(1);
      expect(after.writes - before.writes).to.equal(3);
      // g-3 failed after g-1 and g-2 in a transaction with no savepoints: they ran again, and are stored once.
      expect(after.rerun - before.rerun).to.equal(2);
      const names = await projectNames();
      expect(names).to.include.members(['g-1', 'g-2', 'g-4']);
      expect(names).to.not.include('g-3');
      expect((await versioning.current()).version).to.equal(versions[2]);
    });

    it('sends no statement of its own for a write that joins a group: one BEGIN and one COMMIT for all', async () => {
      const { versioning } = server.app;
      const write = (name: string) =>
        versioning.write(({ writer }) => writer.insertProject({ id: newId(), name, description: null }));
      // The writes' statements: on PostgreSQL this instance's listener may read the change log meanwhile (a SELECT).
      const { counter } = server.app.db;
      const written = async (work: () => Promise<unknown>) => {
        counter.startRecording();
        await work();
        return counter.stopRecording().filter((sql) => !/^\s*SELECT\b/i.test(sql));
      };
      const lone = await written(() => write('lone-project')); // BEGIN, the version, the insert, COMMIT
      expect(lone[0]).to.match(/^BEGIN/);
      expect(lone.at(-1)).to.equal('COMMIT');
      const joined = await written(() =>
        Promise.all(Array.from({ length: 10 }, (_, i) => write(`joined-project-${i}`))),
      );
      expect(joined.filter((sql) => /^(BEGIN|COMMIT|SAVEPOINT|RELEASE|ROLLBACK)/.test(sql))).to.deep.equal([
        lone[0],
        'COMMIT',
      ]);
      expect(joined).to.have.length(2 + 10 * (lone.length - 2));
    });

    it('lets a write see a type that one before it in the same transaction added', async () => {
      const { versioning } = server.app;
      const typeId = newId();
      const [, seen] = await Promise.all([
        versioning.write(({ writer }) =>
          writer.insertType({ id: typeId, name: 'grouped-type', description: null, parentIds: [] }),
        ),
        versioning.write(async ({ writer, hierarchy }) => {
          await writer.insertProject({ id: newId(), name: 'g-after-type', description: null });
          return (await hierarchy()).byId(typeId)?.name ?? null;
        }),
      ]);
      expect(seen.result).to.equal('grouped-type');
      // And a read after both sees the type too.
      expect((await server.data(`{ resourceType(ref: "grouped-type") { name } }`)).resourceType.name).to.equal(
        'grouped-type',
      );
    });

    it('answers concurrent mutations each as if it ran alone: one refused, the others stored and logged', async () => {
      const mutation = `mutation($name: String!) {
      registerTool(input: { name: $name, resourceSlots: [{ name: "repo", resourceType: "vcs" }] }) { tool { name } }
    }`;
      const names = Array.from({ length: 12 }, (_, i) => `grouped/tool-${i}`);
      names[7] = names[3]; // a duplicate: exactly one of the two is registered
      const answers = await Promise.all(names.map((name) => server.gql(mutation, { name })));
      const refused = answers.filter((a) => a.body.errors);
      expect(refused).to.have.length(1);
      expect(refused[0].body.errors![0].extensions?.code).to.equal('CONFLICT');
      const stored = (await server.data(`{ tools(first: 100) { edges { node { name } } } }`)).tools.edges.map(
        (e: any) => e.node.name,
      );
      expect(stored.filter((n: string) => n.startsWith('grouped/'))).to.have.members([...new Set(names)]);
      const log = await server.data(`{ changes(first: 100) { edges { node { operation entityName } } } }`);
      const logged = log.changes.edges
        .filter((e: any) => e.node.operation === 'registerTool')
        .map((e: any) => e.node.entityName);
      expect(logged).to.have.members([...new Set(names)]);
    });
  });
