// What a resolve keeps in the record cache: the links that fit its contextual slots' types, not the project's
// every link. Projects of 30 links each, one of which fits: their every link is far past a 64 KiB cache (an
// explanation, which reads them all, evicts), and what resolves read of them fits, so resolving every pair again
// reads nothing. A write to any linked resource (one that did not fit, retyped to fit) is seen at once, and a
// failure's words still name the links that do not fit. Past the response cache throughout.
import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { RESOLVE } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

const PAST_CACHE = { 'cache-control': 'no-cache' };
const BUDGET = 65_536;
const PROJECTS = 10;
const LINKS = 30;
const DESCRIPTION = 'a scratch disk kept beside the project, described at length so that its record weighs a little';

const BATCH = `mutation($entries: [BatchEntryInput!]!) { registerBatch(input: { entries: $entries }) { registryVersion } }`;
const EXPLAIN = `query($tool: String!, $project: String!) { explainBindings(tool: $tool, project: $project) {
  ok slots { slotName status candidates { ref accepted rejection } } } }`;

interface Resolved {
  resolveBindings: { slotName: string; resource: { name: string } | null }[];
}

describeEachBackend('a resolve keeps only the links its decisions read', (backend) => {
  let server: TestServer;

  before(async () => {
    server = await startServer(backend, { recordCacheBytes: BUDGET });
    const entries: Record<string, unknown>[] = [
      { resourceType: { name: 'gpu' } },
      { resourceType: { name: 'disk' } },
      { resourceType: { name: 'bucket' } },
    ];
    for (let p = 0; p < PROJECTS; p++) {
      entries.push({ project: { name: `p${p}` } });
      entries.push({ resource: { name: `p${p}/gpu`, type: 'gpu' } });
      entries.push({ link: { project: `p${p}`, resource: `p${p}/gpu` } });
      entries.push({ resource: { name: `p${p}/bucket`, type: 'bucket' } });
      entries.push({ link: { project: `p${p}`, resource: `p${p}/bucket` } });
      for (let d = 2; d < LINKS; d++) {
        entries.push({ resource: { name: `p${p}/disk-${d}`, type: 'disk', description: DESCRIPTION } });
        entries.push({ link: { project: `p${p}`, resource: `p${p}/disk-${d}` } });
      }
    }
    entries.push({ tool: { name: 'train', resourceSlots: [{ name: 'accel', resourceType: 'gpu' }] } });
    entries.push({
      tool: {
        name: 'train-and-store',
        resourceSlots: [
          { name: 'accel', resourceType: 'gpu' },
          { name: 'bucket', resourceType: 'bucket' },
        ],
      },
    });
    await server.data(BATCH, { entries });
  });
  after(async () => {
    await server?.close();
  });

  async function resolveAll(tool: string): Promise<{ bound: (string | null)[][]; statements: number }> {
    const before = server.statements();
    const bound: (string | null)[][] = [];
    for (let p = 0; p < PROJECTS; p++) {
      const data = await server.data<Resolved>(RESOLVE, { tool, project: `p${p}` }, PAST_CACHE);
      bound.push(data.resolveBindings.map((slot) => slot.resource?.name ?? null));
    }
    return { bound, statements: server.statements() - before };
  }

  it('holds every pair’s answer within the budget, so a second pass reads nothing', async () => {
    server.app.versioning.clearRecordCache();
    const cold = await resolveAll('train');
    expect(cold.bound).to.deep.equal(Array.from({ length: PROJECTS }, (_, p) => [`p${p}/gpu`]));
    const again = await resolveAll('train');
    expect(again.bound).to.deep.equal(cold.bound);
    // PostgreSQL reads the registry version once a request (nothing cached answers without it); SQLite reads nothing.
    expect(again.statements).to.equal(backend.name === 'postgres' ? PROJECTS : 0);
    const records = server.app.versioning.cacheFigures().records;
    expect(records.evictions).to.equal(0);
    expect(records.bytes).to.be.at.most(BUDGET);
  });

  it('while the projects’ every link is past the budget: explaining the same pairs again reads them again', async () => {
    async function explainAll(): Promise<number> {
      const before = server.statements();
      for (let p = 0; p < PROJECTS; p++) {
        const data = await server.data(EXPLAIN, { tool: 'train', project: `p${p}` }, PAST_CACHE);
        // The account looks at every link: the one that fits, and the 29 that do not.
        expect(data.explainBindings.slots[0].candidates).to.have.length(LINKS);
      }
      return server.statements() - before;
    }
    server.app.versioning.clearRecordCache();
    await explainAll();
    // Each project's links again (and on PostgreSQL the version): the budget does not hold them.
    expect(await explainAll()).to.be.at.least(backend.name === 'postgres' ? 2 * PROJECTS : PROJECTS);
  });

  it('reads the links of two slot types of one project in one statement', async () => {
    server.app.versioning.clearRecordCache();
    await resolveAll('train');
    server.app.versioning.clearRecordCache();
    const one = await resolveAll('train');
    server.app.versioning.clearRecordCache();
    const two = await resolveAll('train-and-store');
    expect(two.bound).to.deep.equal(Array.from({ length: PROJECTS }, (_, p) => [`p${p}/gpu`, `p${p}/bucket`]));
    expect(two.statements).to.equal(one.statements);
  });

  it('sees a linked resource that did not fit, retyped to fit, and words the failure from every link', async () => {
    await resolveAll('train');
    await server.data(`mutation { updateResource(input: { ref: "p3/disk-7", type: "gpu" }) { resource { id } } }`);
    // A link that does not fit holds the slot's name as its alias: only an account of every link can say so.
    await server.data(
      `mutation { updateLink(input: { project: "p3", resource: "p3/bucket", alias: "accel" }) { project { id } } }`,
    );
    const res = await server.gql(RESOLVE, { tool: 'train', project: 'p3' }, PAST_CACHE);
    expect(res.body.errors?.[0]?.extensions?.code).to.equal('BINDING_RESOLUTION_FAILED');
    const [problem] = res.body.errors![0].extensions!.problems;
    expect(problem.reason).to.equal('AMBIGUOUS');
    expect(problem.message).to.contain('2 linked resources (p3/disk-7, p3/gpu) fit');
    expect(problem.message).to.contain("alias 'accel' is held by 'p3/bucket', which does not fit");
    expect(problem.candidates).to.deep.equal(['p3/disk-7', 'p3/gpu']);
    // Another project still binds, from what was kept.
    const other = await server.data<Resolved>(RESOLVE, { tool: 'train', project: 'p4' }, PAST_CACHE);
    expect(other.resolveBindings[0].resource?.name).to.equal('p4/gpu');
    // Moving the alias to one of the two binds it.
    await server.data(
      `mutation { updateLink(input: { project: "p3", resource: "p3/bucket", alias: null }) { project { id } } }`,
    );
    await server.data(
      `mutation { updateLink(input: { project: "p3", resource: "p3/disk-7", alias: "accel" }) { project { id } } }`,
    );
    const aliased = await server.data<Resolved>(RESOLVE, { tool: 'train', project: 'p3' }, PAST_CACHE);
    expect(aliased.resolveBindings[0].resource?.name).to.equal('p3/disk-7');
  });
});
