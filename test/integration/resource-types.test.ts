import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

const REGISTER = `mutation($i: RegisterResourceTypeInput!) { registerResourceType(input: $i) { resourceType { id name description parentTypes { name } } } }`;

describeEachBackend('resource types', (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(backend);
  });
  after(() => server.close());

  it('registers a type with a generated ULID id', async () => {
    const {
      registerResourceType: { resourceType: t },
    } = await server.data(REGISTER, {
      i: { name: 'git-checkout', description: 'A checkout' },
    });
    expect(t.id).to.match(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(t).to.deep.include({ name: 'git-checkout', description: 'A checkout', parentTypes: [] });
  });

  it('registers parents that already exist, and finds the type by id or by name', async () => {
    const {
      registerResourceType: { resourceType: t },
    } = await server.data(REGISTER, {
      i: { name: 'fs-directory', parentTypes: ['git-checkout'] },
    });
    expect(t.parentTypes).to.deep.equal([{ name: 'git-checkout' }]);
    const byId = await server.data(`query($r: String!) { resourceType(ref: $r) { name } }`, { r: t.id });
    expect(byId.resourceType.name).to.equal('fs-directory');
    const parentId = (await server.data(`{ resourceType(ref: "git-checkout") { id } }`)).resourceType.id;
    const viaParentId = await server.data(REGISTER, { i: { name: 'bare-repo', parentTypes: [parentId] } });
    expect(viaParentId.registerResourceType.resourceType.parentTypes).to.deep.equal([{ name: 'git-checkout' }]);
  });

  it('answers null for a type that is absent', async () => {
    expect((await server.data(`{ resourceType(ref: "nope") { id } }`)).resourceType).to.equal(null);
    expect((await server.data(`{ resourceType(ref: "01ARZ3NDEKTSV4RRFFQ69G5FAV") { id } }`)).resourceType).to.equal(
      null,
    );
  });

  it('refuses an unknown parent with NOT_FOUND and stores nothing', async () => {
    const { body } = await server.gql(REGISTER, { i: { name: 'orphan', parentTypes: ['no-such-type'] } });
    expect(body.errors?.[0].extensions?.code).to.equal('NOT_FOUND');
    expect(body.errors?.[0].message).to.include("'no-such-type'");
    expect((await server.data(`{ resourceType(ref: "orphan") { id } }`)).resourceType).to.equal(null);
  });

  it('refuses a type that lists itself with BAD_USER_INPUT', async () => {
    const { body } = await server.gql(REGISTER, { i: { name: 'selfish', parentTypes: ['selfish'] } });
    expect(body.errors?.[0].extensions?.code).to.equal('BAD_USER_INPUT');
    expect(body.errors?.[0].extensions?.problems).to.deep.equal([
      { field: 'input.parentTypes[0]', message: "type 'selfish' cannot list itself as a parent" },
    ]);
  });

  it('refuses a parent listed twice with BAD_USER_INPUT', async () => {
    const { body } = await server.gql(REGISTER, {
      i: { name: 'twice', parentTypes: ['git-checkout', 'git-checkout'] },
    });
    expect(body.errors?.[0].extensions?.code).to.equal('BAD_USER_INPUT');
  });

  it('refuses a duplicate name with CONFLICT', async () => {
    const { body } = await server.gql(REGISTER, { i: { name: 'git-checkout' } });
    expect(body.errors?.[0].extensions?.code).to.equal('CONFLICT');
    expect(body.errors?.[0].message).to.equal("a resource type named 'git-checkout' already exists");
  });

  it('refuses names that break the grammar, naming the field', async () => {
    for (const name of ['Git', '1x', 'a_b', '', 'a'.repeat(101)]) {
      const { body } = await server.gql(REGISTER, { i: { name } });
      expect(body.errors?.[0].extensions?.code, name).to.equal('BAD_USER_INPUT');
      expect(body.errors?.[0].extensions?.problems[0].field, name).to.equal('input.name');
    }
    const ok = await server.gql(REGISTER, { i: { name: 'a'.repeat(100) } });
    expect(ok.body.errors).to.equal(undefined);
  });

  it('caps the number of parent types', async () => {
    const { body } = await server.gql(REGISTER, {
      i: { name: 'many-parents', parentTypes: Array.from({ length: 33 }, (_, i) => `p${i}`) },
    });
    expect(body.errors?.[0].extensions?.problems).to.deep.equal([
      { field: 'input.parentTypes', message: 'input.parentTypes must have at most 32 entries' },
    ]);
  });

  describe('the hierarchy fields', () => {
    before(async () => {
      const r = registryOf(server);
      // root ← mid-a, mid-b ← leaf (diamond), leaf ← deeper
      await r.type('h-root');
      await r.type('h-mid-b', ['h-root']);
      await r.type('h-mid-a', ['h-root']);
      await r.type('h-leaf', ['h-mid-b', 'h-mid-a']);
      await r.type('h-deeper', ['h-leaf']);
    });

    it('parentTypes are direct, in declaration order', async () => {
      const d = await server.data(`{ resourceType(ref: "h-leaf") { parentTypes { name } } }`);
      expect(d.resourceType.parentTypes.map((t: { name: string }) => t.name)).to.deep.equal(['h-mid-b', 'h-mid-a']);
    });

    it('ancestors are every type reachable through parentTypes, nearest first, each once', async () => {
      const d = await server.data(`{ resourceType(ref: "h-deeper") { ancestors { name } } }`);
      expect(d.resourceType.ancestors.map((t: { name: string }) => t.name)).to.deep.equal([
        'h-leaf',
        'h-mid-b',
        'h-mid-a',
        'h-root',
      ]);
    });

    it('subtypes are direct, ordered by name', async () => {
      const d = await server.data(`{ resourceType(ref: "h-root") { subtypes { name } } }`);
      expect(d.resourceType.subtypes.map((t: { name: string }) => t.name)).to.deep.equal(['h-mid-a', 'h-mid-b']);
    });

    it('a type registered in the same request as a read sees the new hierarchy', async () => {
      const d = await server.data(`mutation {
        a: registerResourceType(input: { name: "h-new", parentTypes: ["h-deeper"] }) { resourceType { ancestors { name } } }
        b: registerResourceType(input: { name: "h-newer", parentTypes: ["h-new"] }) { resourceType { ancestors { name } } }
      }`);
      expect(d.a.resourceType.ancestors.map((t: { name: string }) => t.name)).to.deep.equal([
        'h-deeper',
        'h-leaf',
        'h-mid-b',
        'h-mid-a',
        'h-root',
      ]);
      expect(d.b.resourceType.ancestors[0].name).to.equal('h-new');
    });
  });
});
