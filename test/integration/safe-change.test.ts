import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { databaseDigest } from '../support/digest';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

const IMPACT = `impact { totalCount truncated complete changes { toolName projectName slotName
  before { status reason resourceName } after { status reason resourceName } } }`;

/**
 * The issue's scenario: project `shop` links `prod/orders-db` under alias `db`
 * (and `prod/users-db`), and tool `acme/migrate` has a READ_WRITE `db` slot of
 * type `database`. Deleting `prod/orders-db` used to return true and silently
 * rebind `db` to `prod/users-db`, with write access.
 */
describeEachBackend('nothing rebinds silently', (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(backend);
    const r = registryOf(server);
    await r.type('database');
    await r.resource('prod/orders-db', 'database');
    await r.resource('prod/users-db', 'database');
    await r.project('shop');
    await r.link('shop', 'prod/orders-db', 'db');
    await r.link('shop', 'prod/users-db');
    await r.tool('acme/migrate', [{ name: 'db', resourceType: 'database', access: 'READ_WRITE' }]);
  });
  after(() => server.close());

  const bound = async () =>
    (await server.data(`{ resolveBindings(tool: "acme/migrate", project: "shop") { slotName resource { name } } }`))
      .resolveBindings;
  const rebinding = {
    totalCount: 1,
    truncated: false,
    complete: true,
    changes: [
      {
        toolName: 'acme/migrate',
        projectName: 'shop',
        slotName: 'db',
        before: { status: 'BOUND', reason: null, resourceName: 'prod/orders-db' },
        after: { status: 'BOUND', reason: null, resourceName: 'prod/users-db' },
      },
    ],
  };

  it('refuses to delete a linked resource without force: CONFLICT listing the link', async () => {
    const { body } = await server.gql(`mutation { deleteResource(ref: "prod/orders-db") { deletedId } }`);
    expect(body.errors?.[0].extensions).to.deep.equal({
      code: 'CONFLICT',
      usedBy: [{ kind: 'PROJECT', name: 'shop', detail: "linked under alias 'db'" }],
    });
    expect(await bound()).to.deep.equal([{ slotName: 'db', resource: { name: 'prod/orders-db' } }]);
  });

  it('with force and dryRun, shows db going from prod/orders-db to prod/users-db, and changes nothing', async () => {
    const digest = await databaseDigest(server);
    const d = await server.data(
      `mutation { deleteResource(ref: "prod/orders-db", force: true, dryRun: true) { deletedId dryRun registryVersion ${IMPACT} } }`,
    );
    expect(d.deleteResource.dryRun).to.equal(true);
    expect(d.deleteResource.impact).to.deep.equal(rebinding);
    expect(await databaseDigest(server)).to.equal(digest);
    expect(await bound()).to.deep.equal([{ slotName: 'db', resource: { name: 'prod/orders-db' } }]);
    const log = await server.data(`{ changes(filter: { ref: "prod/orders-db", kind: RESOURCE }) { totalCount } }`);
    expect(log.changes.totalCount, 'only its registration').to.equal(1);
  });

  it('with force, returns the same impact, stores it, and records the unlink and the delete in the change log', async () => {
    const id = (await server.data(`{ resource(ref: "prod/orders-db") { id } }`)).resource.id;
    const d = await server.data(
      `mutation { deleteResource(ref: "prod/orders-db", force: true) { deletedId dryRun registryVersion ${IMPACT} } }`,
    );
    expect(d.deleteResource).to.deep.include({ deletedId: id, dryRun: false });
    expect(d.deleteResource.impact).to.deep.equal(rebinding);
    expect(await bound()).to.deep.equal([{ slotName: 'db', resource: { name: 'prod/users-db' } }]);

    const log =
      await server.data(`{ changes(first: 3, filter: { sinceVersion: ${d.deleteResource.registryVersion - 1} }) {
      totalCount edges { node { version actor operation kind entityName summary impactCount
        bindingChanges { toolName projectName slotName before { resourceName } after { resourceName } } } } } }`);
    expect(log.changes.edges.map((e: any) => e.node)).to.deep.equal([
      {
        version: d.deleteResource.registryVersion,
        actor: 'anonymous',
        operation: 'deleteResource',
        kind: 'LINK',
        entityName: 'shop',
        summary: 'unlinked prod/orders-db from project shop',
        impactCount: 1,
        bindingChanges: [
          {
            toolName: 'acme/migrate',
            projectName: 'shop',
            slotName: 'db',
            before: { resourceName: 'prod/orders-db' },
            after: { resourceName: 'prod/users-db' },
          },
        ],
      },
      {
        version: d.deleteResource.registryVersion,
        actor: 'anonymous',
        operation: 'deleteResource',
        kind: 'RESOURCE',
        entityName: 'prod/orders-db',
        summary: 'deleted resource prod/orders-db',
        impactCount: 0,
        bindingChanges: [],
      },
    ]);
    // The deleted resource's history is still found by its name.
    const history = await server.data(`{ changes(filter: { ref: "prod/orders-db" }) { edges { node { summary } } } }`);
    expect(history.changes.edges.map((e: any) => e.node.summary)).to.deep.equal([
      'registered resource prod/orders-db of type database',
      'linked prod/orders-db to project shop under alias db',
      'unlinked prod/orders-db from project shop',
      'deleted resource prod/orders-db',
    ]);
  });

  it('refuses to delete a project with links without force, listing them; force removes them first', async () => {
    const { body } = await server.gql(`mutation { deleteProject(ref: "shop") { deletedId } }`);
    expect(body.errors?.[0].extensions).to.deep.equal({
      code: 'CONFLICT',
      usedBy: [{ kind: 'RESOURCE', name: 'prod/users-db', detail: 'linked' }],
    });
    const d = await server.data(`mutation { deleteProject(ref: "shop", force: true) { deletedId ${IMPACT} } }`);
    // The project itself is deleted: its pairs are not listed.
    expect(d.deleteProject.impact.totalCount).to.equal(0);
    const log = await server.data(`{ changes(filter: { ref: "shop" }) { edges { node { operation summary } } } }`);
    expect(log.changes.edges.slice(-2).map((e: any) => e.node)).to.deep.equal([
      { operation: 'deleteProject', summary: 'unlinked prod/users-db from project shop' },
      { operation: 'deleteProject', summary: 'deleted project shop' },
    ]);
  });
  it("gives each binding change an id: the same for the same preview, and the change-log entry's once committed", async () => {
    const ALIAS = (dryRun: boolean, alias: string | null) =>
      `mutation { updateLink(input: { project: "shop", resource: "prod/orders-db", alias: ${alias === null ? 'null' : `"${alias}"`} }, dryRun: ${dryRun}) {
        registryVersion impact { changes { id slotName } } } }`;
    // A registry of its own, as the other tests here follow one story.
    const own = await startServer(backend);
    const r = registryOf(own);
    await r.type('database');
    await r.resource('prod/orders-db', 'database');
    await r.resource('prod/users-db', 'database');
    await r.project('shop');
    await r.link('shop', 'prod/orders-db', 'db');
    await r.link('shop', 'prod/users-db');
    await r.tool('acme/migrate', [{ name: 'db', resourceType: 'database', access: 'READ_WRITE' }]);
    const ids = async (dryRun: boolean, alias: string | null) =>
      (await own.data(ALIAS(dryRun, alias))).updateLink.impact.changes.map((c: any) => c.id);
    try {
      // Clearing the alias makes db ambiguous; previewed twice, the same ids.
      const preview = await ids(true, null);
      expect(preview).to.have.length(1);
      expect(await ids(true, null)).to.deep.equal(preview);
      const committed = await ids(false, null);
      expect(committed).to.have.length(1);
      expect(committed).to.not.deep.equal(preview);
      const log = await own.data(`{ changes(last: 1) { edges { node { bindingChanges { id slotName } } } } }`);
      expect(log.changes.edges[0].node.bindingChanges.map((c: any) => c.id)).to.deep.equal(committed);
      // Setting it back is another change, with an id of its own.
      const back = await ids(false, 'db');
      expect(back).to.have.length(1);
      expect(back).to.not.deep.equal(committed);
    } finally {
      await own.close();
    }
  });
});
