import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

const REGISTER = `mutation($i: RegisterResourceInput!) { registerResource(input: $i) { resource { id name shortName description type { name } } } }`;
const names = (conn: { edges: { node: { name: string } }[] }) => conn.edges.map((e) => e.node.name);

describeEachBackend('resources', (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(backend);
    const r = registryOf(server);
    await r.type('git-checkout');
    await r.type('fs-directory', ['git-checkout']);
    await r.type('tmp-directory', ['fs-directory']);
    await r.type('other');
  });
  after(() => server.close());

  it('registers a resource; shortName is the last segment', async () => {
    const d = await server.data(REGISTER, {
      i: { name: 'local/shared-config', type: 'fs-directory', description: 'shared' },
    });
    expect(d.registerResource.resource).to.deep.include({
      name: 'local/shared-config',
      shortName: 'shared-config',
      description: 'shared',
      type: { name: 'fs-directory' },
    });
    expect(d.registerResource.resource.id).to.match(/^[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('finds a resource by id or by name, and answers null when absent', async () => {
    const id = (await server.data(`{ resource(ref: "local/shared-config") { id } }`)).resource.id;
    expect((await server.data(`query($r: String!) { resource(ref: $r) { name } }`, { r: id })).resource.name).to.equal(
      'local/shared-config',
    );
    expect((await server.data(`{ resource(ref: "no/such") { id } }`)).resource).to.equal(null);
  });

  it('takes the type by id as well as by name', async () => {
    const typeId = (await server.data(`{ resourceType(ref: "other") { id } }`)).resourceType.id;
    const d = await server.data(REGISTER, { i: { name: 'misc/by-type-id', type: typeId } });
    expect(d.registerResource.resource.type.name).to.equal('other');
  });

  it('refuses an unknown type with NOT_FOUND', async () => {
    const { body } = await server.gql(REGISTER, { i: { name: 'x/y', type: 'no-such-type' } });
    expect(body.errors?.[0].extensions?.code).to.equal('NOT_FOUND');
    expect((await server.data(`{ resource(ref: "x/y") { id } }`)).resource).to.equal(null);
  });

  it('refuses a duplicate name with CONFLICT', async () => {
    const { body } = await server.gql(REGISTER, { i: { name: 'local/shared-config', type: 'other' } });
    expect(body.errors?.[0].extensions?.code).to.equal('CONFLICT');
    expect(body.errors?.[0].message).to.equal("a resource named 'local/shared-config' already exists");
  });

  it('refuses names that break the grammar, or have the shape of an id', async () => {
    for (const name of ['/x', 'x/', 'a b', 'x//y', 'é', '01ARZ3NDEKTSV4RRFFQ69G5FAV', 'a'.repeat(201)]) {
      const { body } = await server.gql(REGISTER, { i: { name, type: 'other' } });
      expect(body.errors?.[0].extensions?.code, name).to.equal('BAD_USER_INPUT');
      expect(body.errors?.[0].extensions?.problems[0].field, name).to.equal('input.name');
    }
    expect((await server.gql(REGISTER, { i: { name: 'a'.repeat(200), type: 'other' } })).body.errors).to.equal(
      undefined,
    );
  });

  describe('the type filter', () => {
    before(async () => {
      const r = registryOf(server);
      await r.resource('t/checkout', 'git-checkout');
      await r.resource('t/dir', 'fs-directory');
      await r.resource('t/tmp', 'tmp-directory');
      await r.resource('t/other', 'other');
    });
    const LIST = `query($f: ResourceFilter) { resources(filter: $f) { totalCount edges { node { name } } } }`;

    it('includes every descendant type, at any depth, by default', async () => {
      const d = await server.data(LIST, { f: { type: 'git-checkout', nameContains: 't/' } });
      expect(names(d.resources)).to.deep.equal(['t/checkout', 't/dir', 't/tmp']);
      expect(d.resources.totalCount).to.equal(3);
    });

    it('does not include parent types', async () => {
      const d = await server.data(LIST, { f: { type: 'fs-directory', nameContains: 't/' } });
      expect(names(d.resources)).to.deep.equal(['t/dir', 't/tmp']);
    });

    it('takes only the type itself with includeSubtypes: false', async () => {
      const d = await server.data(LIST, { f: { type: 'git-checkout', includeSubtypes: false, nameContains: 't/' } });
      expect(names(d.resources)).to.deep.equal(['t/checkout']);
    });

    it('refuses an unknown type with NOT_FOUND', async () => {
      const { body } = await server.gql(LIST, { f: { type: 'nope' } });
      expect(body.errors?.[0].extensions?.code).to.equal('NOT_FOUND');
    });
  });
});
