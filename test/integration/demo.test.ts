import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { RESOLVE } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

describeEachBackend('demo data', (backend) => {
  let server: TestServer;
  afterEach(() => server?.close());

  it("loads the seed's example into a new database, and resolving demo/mixed in demo gives the seed's results", async () => {
    server = await startServer(backend, { demoData: true });
    const data = await server.data(RESOLVE, { tool: 'demo/mixed', project: 'demo' });
    const repoId = (await server.data(`{ resource(ref: "acme/app-repo") { id } }`)).resource.id;
    const configId = (await server.data(`{ resource(ref: "local/shared-config") { id } }`)).resource.id;
    expect(data.resolveBindings).to.deep.equal([
      {
        slotName: 'repo',
        bindingMode: 'CONTEXTUAL',
        resourceId: repoId,
        resource: { name: 'acme/app-repo' },
        deferred: false,
        access: 'READ_WRITE',
      },
      {
        slotName: 'config',
        bindingMode: 'STATIC',
        resourceId: configId,
        resource: { name: 'local/shared-config' },
        deferred: false,
        access: 'READ_ONLY',
      },
      {
        slotName: 'output',
        bindingMode: 'PARAMETER',
        resourceId: null,
        resource: null,
        deferred: true,
        access: 'WRITE_ONLY',
      },
    ]);
  });

  it("loads the docs' shop: acme/migrate binds db in shop to prod/orders-db, the link aliased db", async () => {
    server = await startServer(backend, { demoData: true });
    const data = await server.data(RESOLVE, { tool: 'acme/migrate', project: 'shop' });
    expect(data.resolveBindings.map((r: any) => [r.slotName, r.resource?.name, r.access])).to.deep.equal([
      ['db', 'prod/orders-db', 'READ_WRITE'],
    ]);
    const links = await server.data(`{ project(ref: "shop") { resources { alias resource { name type { name } } } } }`);
    expect(links.project.resources).to.deep.equal([
      { alias: 'db', resource: { name: 'prod/orders-db', type: { name: 'database' } } },
      { alias: null, resource: { name: 'prod/users-db', type: { name: 'database' } } },
    ]);
  });

  it('loads nothing with DEMO_DATA=false', async () => {
    server = await startServer(backend, { demoData: false });
    const data = await server.data(
      `{ tools { totalCount } resourceTypes { totalCount } projects { totalCount } resources { totalCount } }`,
    );
    expect(data).to.deep.equal({
      tools: { totalCount: 0 },
      resourceTypes: { totalCount: 0 },
      projects: { totalCount: 0 },
      resources: { totalCount: 0 },
    });
  });

  it('does not load the demo again into a database that has been written to', async () => {
    const first = await startServer(backend, { demoData: true });
    await first.data(`mutation { unregisterTool(ref: "demo/mixed") { deletedId } }`);
    await first.data(`mutation { unregisterTool(ref: "acme/migrate") { deletedId } }`);
    await first.close();
    server = await startServer(backend, { demoData: true, database: first.config.database });
    const data = await server.data(`{ tools { totalCount } project(ref: "demo") { name } }`);
    expect(data).to.deep.equal({ tools: { totalCount: 0 }, project: { name: 'demo' } });
  });
});
