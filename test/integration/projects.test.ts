import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

const LINK = `mutation($i: LinkResourceInput!) { linkResource(input: $i) { project { name resources { alias resource { name } } } } }`;
const UNLINK = `mutation($i: UnlinkResourceInput!) { unlinkResource(input: $i) { project { name resources { alias resource { name } } } } }`;

describeEachBackend('projects and links', (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(backend);
    const r = registryOf(server);
    await r.type('git-checkout');
    await r.resource('acme/app-repo', 'git-checkout');
    await r.resource('acme/lib-repo', 'git-checkout');
    await r.resource('zed/z-repo', 'git-checkout');
  });
  after(() => server.close());

  it('creates a project', async () => {
    const d = await server.data(
      `mutation { createProject(input: { name: "demo", description: "the demo" }) { project { id name description resources { alias } } } }`,
    );
    expect(d.createProject.project).to.deep.include({ name: 'demo', description: 'the demo', resources: [] });
    expect(d.createProject.project.id).to.match(/^[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('refuses a duplicate project name with CONFLICT, and a bad name with BAD_USER_INPUT', async () => {
    expect(
      (await server.gql(`mutation { createProject(input: { name: "demo" }) { project { id } } }`)).body.errors?.[0]
        .extensions?.code,
    ).to.equal('CONFLICT');
    expect(
      (await server.gql(`mutation { createProject(input: { name: "bad name" }) { project { id } } }`)).body.errors?.[0]
        .extensions?.code,
    ).to.equal('BAD_USER_INPUT');
    expect(
      (await server.gql(`mutation { createProject(input: { name: "01ARZ3NDEKTSV4RRFFQ69G5FAV" }) { project { id } } }`))
        .body.errors?.[0].extensions?.code,
    ).to.equal('BAD_USER_INPUT');
  });

  it('links resources, with and without an alias, listed by resource name', async () => {
    await server.data(LINK, { i: { project: 'demo', resource: 'zed/z-repo' } });
    const d = await server.data(LINK, { i: { project: 'demo', resource: 'acme/app-repo', alias: 'repo' } });
    expect(d.linkResource.project.resources).to.deep.equal([
      { alias: 'repo', resource: { name: 'acme/app-repo' } },
      { alias: null, resource: { name: 'zed/z-repo' } },
    ]);
  });

  it('takes project and resource by id as well as by name', async () => {
    const projectId = (await server.data(`{ project(ref: "demo") { id } }`)).project.id;
    const resourceId = (await server.data(`{ resource(ref: "acme/lib-repo") { id } }`)).resource.id;
    const d = await server.data(LINK, { i: { project: projectId, resource: resourceId, alias: 'lib' } });
    expect(d.linkResource.project.resources.map((l: any) => l.resource.name)).to.include('acme/lib-repo');
  });

  it('refuses linking a resource twice to one project with CONFLICT', async () => {
    const { body } = await server.gql(LINK, { i: { project: 'demo', resource: 'acme/app-repo' } });
    expect(body.errors?.[0].extensions?.code).to.equal('CONFLICT');
    expect(body.errors?.[0].message).to.equal("resource 'acme/app-repo' is already linked to project 'demo'");
  });

  it('refuses an alias already used in the project with CONFLICT', async () => {
    await server.data(`mutation { createProject(input: { name: "other" }) { project { id } } }`);
    const { body } = await server.gql(LINK, { i: { project: 'other', resource: 'acme/app-repo', alias: 'repo' } });
    expect(body.errors).to.equal(undefined, 'the same alias in another project is fine');
    await server.data(
      `mutation { registerResource(input: { name: "acme/fourth", type: "git-checkout" }) { resource { id } } }`,
    );
    const clash = await server.gql(LINK, { i: { project: 'demo', resource: 'acme/fourth', alias: 'repo' } });
    expect(clash.body.errors?.[0].extensions?.code).to.equal('CONFLICT');
    expect(clash.body.errors?.[0].message).to.equal(
      "alias 'repo' is already used in project 'demo' by resource 'acme/app-repo'",
    );
  });

  it('refuses an alias that breaks the slot-name grammar', async () => {
    const { body } = await server.gql(LINK, { i: { project: 'other', resource: 'zed/z-repo', alias: 'Repo' } });
    expect(body.errors?.[0].extensions?.problems?.[0].field).to.equal('input.alias');
  });

  it('is NOT_FOUND for an unknown project or resource', async () => {
    expect(
      (await server.gql(LINK, { i: { project: 'nope', resource: 'zed/z-repo' } })).body.errors?.[0].extensions?.code,
    ).to.equal('NOT_FOUND');
    expect(
      (await server.gql(LINK, { i: { project: 'demo', resource: 'no/such' } })).body.errors?.[0].extensions?.code,
    ).to.equal('NOT_FOUND');
  });

  it('unlinks a resource, which frees its alias', async () => {
    const d = await server.data(UNLINK, { i: { project: 'demo', resource: 'acme/app-repo' } });
    expect(d.unlinkResource.project.resources.map((l: any) => l.resource.name)).to.not.include('acme/app-repo');
    const relinked = await server.data(LINK, { i: { project: 'demo', resource: 'acme/fourth', alias: 'repo' } });
    expect(relinked.linkResource.project.resources).to.deep.include({
      alias: 'repo',
      resource: { name: 'acme/fourth' },
    });
  });

  it('is NOT_FOUND to unlink a resource that is not linked', async () => {
    const { body } = await server.gql(UNLINK, { i: { project: 'demo', resource: 'acme/app-repo' } });
    expect(body.errors?.[0].extensions?.code).to.equal('NOT_FOUND');
    expect(body.errors?.[0].message).to.equal("resource 'acme/app-repo' is not linked to project 'demo'");
  });

  it('answers null for an absent project', async () => {
    expect((await server.data(`{ project(ref: "absent") { id } }`)).project).to.equal(null);
  });
});
