import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

const PAGE = `query($first: Int, $after: String, $f: ToolFilter) {
  tools(first: $first, after: $after, filter: $f) { totalCount edges { cursor node { name } } pageInfo { hasNextPage endCursor } }
}`;
// Byte order: digits < uppercase < '_' < lowercase; '-' < '.' < '/'.
const NAMES = ['b-tool', 'B', 'a', 'a/b', 'a.b', 'a-b', 'Zed', '9lives', '_under', 'a_b', 'aB', 'abc'];
// (Names that differ only by case are the same name, so 'aB' and 'abc' stand for both cases.)
const BYTE_ORDER = [...NAMES].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));

describeEachBackend('connections', (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(backend);
    const r = registryOf(server);
    for (const name of NAMES) await r.tool(name, []);
  });
  after(() => server.close());

  it('orders by name as plain bytes', async () => {
    const d = await server.data(PAGE, { first: 100 });
    expect(d.tools.edges.map((e: any) => e.node.name)).to.deep.equal(BYTE_ORDER);
    expect(BYTE_ORDER.slice(0, 4)).to.deep.equal(['9lives', 'B', 'Zed', '_under']);
  });

  it('defaults to 50 items', async () => {
    const r = registryOf(server);
    await r.type('bulk');
    for (let i = 0; i < 55; i++) await r.resource(`bulk/r${String(i).padStart(2, '0')}`, 'bulk');
    const d = await server.data(`{ resources { totalCount edges { node { name } } pageInfo { hasNextPage } } }`);
    expect(d.resources.edges).to.have.length(50);
    expect(d.resources.totalCount).to.equal(55);
    expect(d.resources.pageInfo.hasNextPage).to.equal(true);
  });

  it('pages with first and after, with totalCount over all pages', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const d: any = await server.data(PAGE, { first: 5, after });
      expect(d.tools.totalCount).to.equal(NAMES.length);
      seen.push(...d.tools.edges.map((e: any) => e.node.name));
      if (!d.tools.pageInfo.hasNextPage) {
        expect(d.tools.edges.length).to.be.greaterThan(0);
        break;
      }
      after = d.tools.pageInfo.endCursor;
      expect(after).to.equal(d.tools.edges[d.tools.edges.length - 1].cursor);
    }
    expect(seen).to.deep.equal(BYTE_ORDER);
  });

  it('gives an empty page and a null endCursor past the end', async () => {
    const last = await server.data(PAGE, { first: 100 });
    const d = await server.data(PAGE, { first: 5, after: last.tools.pageInfo.endCursor });
    expect(d.tools.edges).to.deep.equal([]);
    expect(d.tools.pageInfo).to.deep.equal({ hasNextPage: false, endCursor: null });
  });

  it('refuses first outside 1..100 with BAD_USER_INPUT', async () => {
    for (const first of [0, -1, 101]) {
      const { body } = await server.gql(PAGE, { first });
      expect(body.errors?.[0].extensions?.code, String(first)).to.equal('BAD_USER_INPUT');
      expect(body.errors?.[0].extensions?.problems).to.deep.equal([
        { field: 'first', message: 'first must be between 1 and 100' },
      ]);
    }
    for (const conn of ['resourceTypes', 'resources', 'projects']) {
      const { body } = await server.gql(`{ ${conn}(first: 101) { totalCount } }`);
      expect(body.errors?.[0].extensions?.code, conn).to.equal('BAD_USER_INPUT');
    }
    expect((await server.gql(PAGE, { first: 100 })).body.errors).to.equal(undefined);
    expect((await server.gql(PAGE, { first: 1 })).body.errors).to.equal(undefined);
  });

  it('refuses a bad cursor with BAD_USER_INPUT', async () => {
    for (const after of ['garbage!', 'bm90LWEtY3Vyc29y', '', Buffer.from('n:').toString('base64url')]) {
      const { body } = await server.gql(PAGE, { after });
      expect(body.errors?.[0].extensions?.code, after).to.equal('BAD_USER_INPUT');
    }
  });

  it('refuses, on every connection, a cursor of another connection and a forged one, with BAD_USER_INPUT', async () => {
    const r = registryOf(server);
    await r.type('cursor-type');
    await r.resource('cursor/res', 'cursor-type');
    await r.project('cursor-project');
    const ends = await server.data(`{
      tools(first: 1) { pageInfo { endCursor } }
      projects(first: 1) { pageInfo { endCursor } }
      resources(first: 1) { pageInfo { endCursor } }
      resourceTypes(first: 1) { pageInfo { endCursor } }
      changes(first: 1) { pageInfo { endCursor } }
    }`);
    const cursors: Record<string, string> = Object.fromEntries(
      Object.entries(ends).map(([name, page]: [string, any]) => [name, page.pageInfo.endCursor]),
    );
    // Each place that takes a cursor, and the connection whose cursors it takes.
    const takers: { of: string; query: (cursor: string) => string }[] = [
      { of: 'tools', query: (c) => `{ tools(after: "${c}") { totalCount } }` },
      { of: 'tools', query: (c) => `{ tools(last: 1, before: "${c}") { totalCount } }` },
      { of: 'projects', query: (c) => `{ projects(after: "${c}") { totalCount } }` },
      { of: 'resources', query: (c) => `{ resources(after: "${c}") { totalCount } }` },
      {
        of: 'resources',
        query: (c) => `{ resourceType(ref: "cursor-type") { compatibleResources(after: "${c}") { totalCount } } }`,
      },
      { of: 'resourceTypes', query: (c) => `{ resourceTypes(after: "${c}") { totalCount } }` },
      { of: 'changes', query: (c) => `{ changes(after: "${c}") { totalCount } }` },
      { of: 'tools', query: (c) => `{ bindingMatrix(toolsAfter: "${c}") { cells { status } } }` },
      { of: 'tools', query: (c) => `{ bindingMatrix(toolsLast: 1, toolsBefore: "${c}") { cells { status } } }` },
      { of: 'projects', query: (c) => `{ bindingMatrix(projectsAfter: "${c}") { cells { status } } }` },
      {
        of: 'projects',
        query: (c) => `{ bindingMatrix(projectsLast: 1, projectsBefore: "${c}") { cells { status } } }`,
      },
    ];
    /** A cursor with the prefix a real one has, but a name no item of any connection can have. */
    const forged = (real: string) => {
      const text = Buffer.from(real, 'base64url').toString('utf8');
      const prefix = text.slice(0, text.indexOf(':') + 1);
      return [`${prefix}has space`, `${prefix}${'x'.repeat(300)}`, `${prefix}a//b`].map((t) =>
        Buffer.from(t, 'utf8').toString('base64url'),
      );
    };
    for (const taker of takers) {
      const own = await server.gql(taker.query(cursors[taker.of]));
      expect(own.body.errors, `${taker.query('…')} takes its own cursor`).to.equal(undefined);
      for (const [of, cursor] of Object.entries(cursors)) {
        if (of === taker.of) continue;
        const { body } = await server.gql(taker.query(cursor));
        expect(body.errors?.[0].extensions?.code, `${taker.query('…')} given a ${of} cursor`).to.equal(
          'BAD_USER_INPUT',
        );
      }
      for (const cursor of forged(cursors[taker.of])) {
        const { body } = await server.gql(taker.query(cursor));
        expect(body.errors?.[0].extensions?.code, `${taker.query('…')} given a forged cursor`).to.equal(
          'BAD_USER_INPUT',
        );
      }
    }
  });

  it('filters by nameContains, ignoring case, with wildcards matched literally', async () => {
    const names = async (nameContains: string) =>
      (await server.data(PAGE, { f: { nameContains } })).tools.edges.map((e: any) => e.node.name);
    expect(await names('ZE')).to.deep.equal(['Zed']);
    expect(await names('a_')).to.deep.equal(['a_b']);
    expect(await names('%')).to.deep.equal([]);
    expect(await names('/')).to.deep.equal(['a/b']);
    const d = await server.data(PAGE, { f: { nameContains: 'B' }, first: 2 });
    expect(d.tools.totalCount).to.equal(BYTE_ORDER.filter((n) => n.toLowerCase().includes('b')).length);
  });

  it('filters every connection by nameContains', async () => {
    const d = await server.data(`{
      resourceTypes(filter: { nameContains: "BUL" }) { totalCount }
      resources(filter: { nameContains: "R5" }) { totalCount }
      projects(filter: { nameContains: "x" }) { totalCount }
    }`);
    expect(d).to.deep.equal({
      resourceTypes: { totalCount: 1 },
      resources: { totalCount: 5 },
      projects: { totalCount: 0 },
    });
  });
});
