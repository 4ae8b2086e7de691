import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { databaseDigest } from '../support/digest';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

describeEachBackend('names', (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(backend);
    const r = registryOf(server);
    await r.type('database');
    await r.type('git-checkout');
    await r.resource('prod/orders-db', 'database');
    await r.resource('prod/users-db', 'database');
    await r.resource('prod/audit', 'database');
    await r.project('shop');
    await r.tool('acme/migrate', [{ name: 'db', resourceType: 'database' }]);
  });
  after(() => server.close());

  const error = async (query: string) => (await server.gql(query)).body.errors![0];

  it('are unique ignoring case, for resources, projects and tools: CONFLICT, nothing stored', async () => {
    const before = await databaseDigest(server);
    for (const [query, existing] of [
      [
        `mutation { registerResource(input: { name: "Prod/Orders-DB", type: "database" }) { dryRun } }`,
        "resource named 'prod/orders-db'",
      ],
      [`mutation { createProject(input: { name: "SHOP" }) { dryRun } }`, "project named 'shop'"],
      [
        `mutation { registerTool(input: { name: "Acme/Migrate", resourceSlots: [] }) { dryRun } }`,
        "tool named 'acme/migrate'",
      ],
    ]) {
      const e = await error(query);
      expect(e.extensions?.code, query).to.equal('CONFLICT');
      expect(e.message).to.equal(`a ${existing} already exists; names that differ only by case are the same name`);
    }
    expect(await databaseDigest(server)).to.equal(before);
  });

  it('are looked up exactly: another case is NOT_FOUND, suggesting the name', async () => {
    expect((await server.data(`{ resource(ref: "Prod/Orders-DB") { id } }`)).resource).to.equal(null);
    const e = await error(`{ resolveBindings(tool: "ACME/migrate", project: "shop") { slotName } }`);
    expect(e.extensions).to.deep.equal({ code: 'NOT_FOUND', suggestions: ['acme/migrate'] });
    expect(e.message).to.equal("no tool 'ACME/migrate' is registered; did you mean 'acme/migrate'?");
  });

  it('a NOT_FOUND for a name suggests up to three close existing names, and none when nothing is close', async () => {
    const resource = await error(
      `mutation { linkResource(input: { project: "shop", resource: "prod/users" }) { dryRun } }`,
    );
    expect(resource.extensions?.suggestions).to.deep.equal(['prod/users-db']);
    for (const n of [1, 2, 3, 4]) await registryOf(server).resource(`cache/a${n}`, 'database');
    const many = await error(`mutation { linkResource(input: { project: "shop", resource: "cache/a" }) { dryRun } }`);
    expect(many.message).to.equal(
      "no resource 'cache/a' is registered; did you mean 'cache/a1', 'cache/a2' or 'cache/a3'?",
    );
    const type = await error(`mutation { registerResource(input: { name: "x/y", type: "databse" }) { dryRun } }`);
    expect(type.extensions).to.deep.equal({ code: 'NOT_FOUND', suggestions: ['database'] });
    const project = await error(
      `mutation { linkResource(input: { project: "shp", resource: "prod/audit" }) { dryRun } }`,
    );
    expect(project.extensions).to.deep.equal({ code: 'NOT_FOUND', suggestions: ['shop'] });
    const far = await error(
      `mutation { linkResource(input: { project: "completely-different", resource: "prod/audit" }) { dryRun } }`,
    );
    expect(far.extensions).to.deep.equal({ code: 'NOT_FOUND' });
    // An id is never "close" to anything.
    const id = await error(
      `mutation { linkResource(input: { project: "01ARZ3NDEKTSV4RRFFQ69G5FAV", resource: "prod/audit" }) { dryRun } }`,
    );
    expect(id.extensions).to.deep.equal({ code: 'NOT_FOUND' });
  });
});
