import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { RESOLVE, registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

describeEachBackend('deletes and referential integrity', (backend) => {
  let server: TestServer;
  let r: ReturnType<typeof registryOf>;
  const code = async (query: string) => (await server.gql(query)).body.errors?.[0]?.extensions?.code ?? 'OK';

  beforeEach(async () => {
    server = await startServer(backend);
    r = registryOf(server);
    await r.type('git-checkout');
    await r.type('fs-directory', ['git-checkout']);
    await r.resource('acme/app-repo', 'git-checkout');
    await r.resource('local/shared-config', 'fs-directory');
    await r.project('demo');
    await r.link('demo', 'acme/app-repo', 'repo');
    await r.tool('uses-static', [
      { name: 'config', resourceType: 'fs-directory', binding: 'STATIC', staticResource: 'local/shared-config' },
    ]);
  });
  afterEach(() => server.close());

  it('refuses to delete a linked resource without force: CONFLICT listing the projects, nothing changed', async () => {
    const { body } = await server.gql(`mutation { deleteResource(ref: "acme/app-repo") { deletedId } }`);
    expect(body.errors?.[0].extensions).to.deep.equal({
      code: 'CONFLICT',
      usedBy: [{ kind: 'PROJECT', name: 'demo', detail: "linked under alias 'repo'" }],
    });
    expect((await server.data(`{ project(ref: "demo") { resources { alias } } }`)).project.resources).to.deep.equal([
      { alias: 'repo' },
    ]);
  });

  it('deletes a resource that is only linked with force, removing its links', async () => {
    const { id } = (await server.data(`{ resource(ref: "acme/app-repo") { id } }`)).resource;
    const d = await server.data(`mutation { deleteResource(ref: "acme/app-repo", force: true) { deletedId } }`);
    expect(d.deleteResource.deletedId).to.equal(id);
    expect(
      await server.data(`{ project(ref: "demo") { resources { alias } } resource(ref: "acme/app-repo") { id } }`),
    ).to.deep.equal({ project: { resources: [] }, resource: null });
  });

  it('refuses to delete a resource a tool binds statically: CONFLICT listing the users', async () => {
    const { body } = await server.gql(`mutation { deleteResource(ref: "local/shared-config") { deletedId } }`);
    expect(body.errors?.[0].extensions).to.deep.equal({
      code: 'CONFLICT',
      usedBy: [{ kind: 'TOOL', name: 'uses-static', detail: "slot 'config'" }],
    });
    expect((await server.data(`{ resource(ref: "local/shared-config") { name } }`)).resource).to.deep.equal({
      name: 'local/shared-config',
    });
    await server.data(`mutation { unregisterTool(ref: "uses-static") { deletedId } }`);
    expect(await code(`mutation { deleteResource(ref: "local/shared-config") { deletedId } }`)).to.equal('OK');
  });

  it('refuses to delete a type that resources, sub-types or slots use, listing them', async () => {
    const { body } = await server.gql(`mutation { deleteResourceType(ref: "git-checkout") { deletedId } }`);
    expect(body.errors?.[0].extensions?.code).to.equal('CONFLICT');
    expect(body.errors?.[0].extensions?.usedBy).to.deep.equal([
      { kind: 'RESOURCE_TYPE', name: 'fs-directory', detail: 'sub-type' },
      { kind: 'RESOURCE', name: 'acme/app-repo' },
    ]);
    const slotUse = await server.gql(`mutation { deleteResourceType(ref: "fs-directory") { deletedId } }`);
    expect(slotUse.body.errors?.[0].extensions?.usedBy).to.deep.equal([
      { kind: 'RESOURCE', name: 'local/shared-config' },
      { kind: 'TOOL', name: 'uses-static', detail: "slot 'config'" },
    ]);
  });

  it('deletes an unused type, and the hierarchy forgets it at once', async () => {
    await r.type('leaf', ['fs-directory']);
    expect(
      (await server.data(`{ resourceType(ref: "fs-directory") { subtypes { name } } }`)).resourceType.subtypes,
    ).to.deep.equal([{ name: 'leaf' }]);
    expect(await code(`mutation { deleteResourceType(ref: "leaf") { deletedId } }`)).to.equal('OK');
    expect(
      await server.data(
        `{ resourceType(ref: "fs-directory") { subtypes { name } } resourceType2: resourceType(ref: "leaf") { id } }`,
      ),
    ).to.deep.equal({
      resourceType: { subtypes: [] },
      resourceType2: null,
    });
  });

  it('deletes a project and its links with force; without, a project with links is CONFLICT listing them', async () => {
    const { body } = await server.gql(`mutation { deleteProject(ref: "demo") { deletedId } }`);
    expect(body.errors?.[0].extensions).to.deep.equal({
      code: 'CONFLICT',
      usedBy: [{ kind: 'RESOURCE', name: 'acme/app-repo', detail: "linked under alias 'repo'" }],
    });
    expect(await code(`mutation { deleteProject(ref: "demo", force: true) { deletedId } }`)).to.equal('OK');
    expect((await server.data(`{ project(ref: "demo") { id } }`)).project).to.equal(null);
    expect(
      (await server.gql(RESOLVE, { tool: 'uses-static', project: 'demo' })).body.errors?.[0].extensions?.code,
    ).to.equal('NOT_FOUND');
  });

  it('is NOT_FOUND to delete something that does not exist', async () => {
    for (const mutation of ['deleteResource', 'deleteResourceType', 'deleteProject']) {
      expect(await code(`mutation { ${mutation}(ref: "nothing-here") { deletedId } }`), mutation).to.equal('NOT_FOUND');
    }
  });

  it('allows reusing a deleted name', async () => {
    await server.data(`mutation { unregisterTool(ref: "uses-static") { deletedId } }`);
    await server.data(`mutation { deleteResource(ref: "local/shared-config") { deletedId } }`);
    await server.data(`mutation { deleteResource(ref: "acme/app-repo", force: true) { deletedId } }`);
    await server.data(`mutation { deleteResourceType(ref: "fs-directory") { deletedId } }`);
    await server.data(`mutation { deleteProject(ref: "demo") { deletedId } }`);
    await r.type('fs-directory');
    await r.resource('local/shared-config', 'fs-directory');
    await r.project('demo');
    await r.tool('uses-static', [
      { name: 'config', resourceType: 'fs-directory', binding: 'STATIC', staticResource: 'local/shared-config' },
    ]);
    expect(
      (
        await server.data(
          `{ tool(ref: "uses-static") { resourceSlots { staticResource { name type { name ancestors { name } } } } } }`,
        )
      ).tool.resourceSlots[0].staticResource,
    ).to.deep.equal({
      name: 'local/shared-config',
      type: { name: 'fs-directory', ancestors: [] },
    });
  });
});
