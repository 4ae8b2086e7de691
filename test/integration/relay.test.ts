import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

/** One connection of the schema: how to ask for a page of it, and where the connection is in the answer. */
interface ConnectionCase {
  readonly name: string;
  /** The query, taking $first, $after, $last and $before; it selects `node { key }`. */
  readonly query: string;
  readonly at: (data: any) => any;
}

const PAGE = `totalCount edges { cursor node { key: __typename ...Key } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }`;
const KEY = `fragment Key on Node { id }`;
const VARS = '$first: Int, $after: String, $last: Int, $before: String';
const ARGS = 'first: $first, after: $after, last: $last, before: $before';

const CASES: ConnectionCase[] = [
  {
    name: 'tools',
    query: `query(${VARS}) { c: tools(${ARGS}, filter: { nameContains: "r/" }) { ${PAGE} } } ${KEY}`,
    at: (d) => d.c,
  },
  {
    name: 'projects',
    query: `query(${VARS}) { c: projects(${ARGS}) { ${PAGE} } } ${KEY}`,
    at: (d) => d.c,
  },
  {
    name: 'resources',
    query: `query(${VARS}) { c: resources(${ARGS}, filter: { type: "vcs" }) { ${PAGE} } } ${KEY}`,
    at: (d) => d.c,
  },
  {
    name: 'resourceTypes',
    query: `query(${VARS}) { c: resourceTypes(${ARGS}) { ${PAGE} } } ${KEY}`,
    at: (d) => d.c,
  },
  {
    name: 'ResourceType.compatibleResources',
    query: `query(${VARS}) { resourceType(ref: "vcs") { c: compatibleResources(${ARGS}) { ${PAGE} } } } ${KEY}`,
    at: (d) => d.resourceType.c,
  },
  {
    name: 'changes',
    query: `query(${VARS}) { c: changes(${ARGS}, filter: { kind: PROJECT }) { totalCount edges { cursor node { key: id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
    at: (d) => d.c,
  },
];

/** What identifies an edge's node in a case's answer. */
const keyOf = (edge: any) => (edge.node.id ?? edge.node.key) as string;

describeEachBackend('Relay connections, node and stable ids', (backend) => {
  let server: TestServer;
  const page = async (c: ConnectionCase, variables: Record<string, unknown>) =>
    c.at(await server.data(c.query, variables));

  before(async function () {
    this.timeout(60_000);
    server = await startServer(backend);
    const r = registryOf(server);
    await r.type('vcs');
    await r.type('git', ['vcs']);
    await r.type('svn', ['vcs']);
    await r.type('database');
    await r.type('queue');
    for (const [name, type] of [
      ['r/a', 'git'],
      ['r/b', 'svn'],
      ['r/c', 'vcs'],
      ['r/d', 'git'],
      ['r/e', 'git'],
      ['r/db', 'database'],
    ]) {
      await r.resource(name, type);
    }
    for (const name of ['p-1', 'p-2', 'p-3', 'p-4', 'p-5']) await r.project(name);
    for (const name of ['r/t1', 'r/t2', 'r/t3', 'r/t4', 'r/t5', 'r/t6', 'r/t7']) {
      await r.tool(name, [{ name: 'code', resourceType: 'vcs' }]);
    }
  });
  after(() => server.close());

  for (const c of CASES) {
    it(`${c.name}: pages backward with last/before to the same items as forward, with Relay's pageInfo`, async function () {
      this.timeout(30_000);
      // Forward, two at a time.
      const forward: string[] = [];
      let after: string | null = null;
      let pages = 0;
      let previousEnd: string | null = null;
      for (;;) {
        const conn = await page(c, { first: 2, after });
        pages++;
        forward.push(...conn.edges.map(keyOf));
        expect(conn.pageInfo.startCursor).to.equal(conn.edges[0]?.cursor ?? null);
        expect(conn.pageInfo.endCursor).to.equal(conn.edges.at(-1)?.cursor ?? null);
        // A forward page after a cursor has items before it; the first page has none.
        expect(conn.pageInfo.hasPreviousPage).to.equal(previousEnd !== null);
        if (!conn.pageInfo.hasNextPage) break;
        after = previousEnd = conn.pageInfo.endCursor;
      }
      expect(forward.length, 'fixture too small to page').to.be.greaterThan(3);
      expect(pages).to.equal(Math.ceil(forward.length / 2));

      // Backward, two at a time, from the end.
      const backward: string[] = [];
      let before: string | null = null;
      for (;;) {
        const conn = await page(c, { last: 2, before });
        backward.unshift(...conn.edges.map(keyOf));
        expect(conn.edges.length).to.be.at.most(2);
        // A backward page before a cursor has items after it; the last page has none.
        expect(conn.pageInfo.hasNextPage).to.equal(before !== null);
        expect(conn.totalCount).to.equal(forward.length);
        if (!conn.pageInfo.hasPreviousPage) break;
        before = conn.pageInfo.startCursor;
      }
      expect(backward).to.deep.equal(forward);

      // A window between two cursors, from either end.
      const all = await page(c, { first: 100 });
      expect(all.pageInfo.hasNextPage).to.equal(false);
      const [from, to] = [all.edges[0].cursor, all.edges[4].cursor];
      const inner = forward.slice(1, 4);
      const fromStart = await page(c, { first: 2, after: from, before: to });
      expect(fromStart.edges.map(keyOf)).to.deep.equal(inner.slice(0, 2));
      expect(fromStart.pageInfo).to.include({ hasNextPage: true, hasPreviousPage: true });
      const fromEnd = await page(c, { last: 2, after: from, before: to });
      expect(fromEnd.edges.map(keyOf)).to.deep.equal(inner.slice(1));
      expect(fromEnd.pageInfo).to.include({ hasNextPage: true, hasPreviousPage: true });
      const whole = await page(c, { last: 3, after: from, before: to });
      expect(whole.edges.map(keyOf)).to.deep.equal(inner);
      expect(whole.pageInfo).to.include({ hasNextPage: true, hasPreviousPage: false });

      // Past either end: empty, with null cursors.
      const none = await page(c, { last: 2, before: all.edges[0].cursor });
      expect(none.edges).to.deep.equal([]);
      expect(none.pageInfo).to.deep.equal({
        hasNextPage: true,
        hasPreviousPage: false,
        startCursor: null,
        endCursor: null,
      });
    });
  }

  for (const axis of ['projects', 'tools'] as const) {
    it(`bindingMatrix pages its ${axis} backward with ${axis}Last/${axis}Before to the same items as forward`, async () => {
      const query = `query($first: Int, $after: String, $last: Int, $before: String) {
        bindingMatrix(${axis}First: $first, ${axis}After: $after, ${axis}Last: $last, ${axis}Before: $before,
          ${axis === 'projects' ? 'toolsFirst: 1' : 'projectsFirst: 1'}, tools: { nameContains: "r/" }) {
          page: ${axis} { totalCount nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;
      const at = async (variables: Record<string, unknown>) => (await server.data(query, variables)).bindingMatrix.page;
      const forward: string[] = [];
      for (let after: string | null = null; ;) {
        const page = await at({ first: 2, after });
        forward.push(...page.nodes.map((n: any) => n.id));
        expect(page.pageInfo.hasPreviousPage).to.equal(after !== null);
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      const backward: string[] = [];
      for (let before: string | null = null; ;) {
        const page = await at({ last: 2, before });
        backward.unshift(...page.nodes.map((n: any) => n.id));
        expect(page.pageInfo.hasNextPage).to.equal(before !== null);
        expect(page.totalCount).to.equal(forward.length);
        if (!page.pageInfo.hasPreviousPage) break;
        before = page.pageInfo.startCursor;
      }
      expect(forward.length).to.be.greaterThan(3);
      expect(backward).to.deep.equal(forward);
    });
  }

  it('refuses first with last, a size outside 1–100 for last, and a before cursor it did not make, naming the argument', async () => {
    const both = await server.gql(`{ tools(first: 2, last: 2) { totalCount } }`);
    expect(both.body.errors?.[0].extensions?.code).to.equal('BAD_USER_INPUT');
    expect(both.body.errors?.[0].message).to.match(/first or last, not both/);
    const tooMany = await server.gql(`{ projects(last: 101) { totalCount } }`);
    expect(tooMany.body.errors?.[0].extensions?.code).to.equal('BAD_USER_INPUT');
    const cursor = await server.gql(`{ resources(last: 2, before: "bm90LWEtY3Vyc29y") { totalCount } }`);
    expect(cursor.body.errors?.[0].extensions?.code).to.equal('BAD_USER_INPUT');
    expect(cursor.body.errors?.[0].extensions?.problems?.[0].field).to.equal('before');
    const matrix = await server.gql(`{ bindingMatrix(toolsFirst: 1, toolsLast: 1) { cells { status } } }`);
    expect(matrix.body.errors?.[0].extensions?.problems?.[0].field).to.equal('toolsLast');
  });

  it('node(id) finds every kind of Node by its id alone, and null for an unknown id or a string that is no id', async () => {
    const ids = await server.data(`{
      tool(ref: "r/t1") { id }
      resource(ref: "r/a") { id }
      resourceType(ref: "git") { id }
      project(ref: "p-1") { id }
      changes(first: 1, filter: { kind: PROJECT }) { edges { node { id entityName } } }
    }`);
    const NODE = `query($id: ID!) { node(id: $id) { __typename id ... on Tool { name } ... on Resource { name }
      ... on ResourceType { name } ... on Project { name } ... on RegistryChange { name: entityName } } }`;
    const change = ids.changes.edges[0].node;
    const expected: [string, string, string][] = [
      [ids.tool.id, 'Tool', 'r/t1'],
      [ids.resource.id, 'Resource', 'r/a'],
      [ids.resourceType.id, 'ResourceType', 'git'],
      [ids.project.id, 'Project', 'p-1'],
      [change.id, 'RegistryChange', change.entityName],
    ];
    for (const [id, typename, name] of expected) {
      expect((await server.data(NODE, { id })).node).to.deep.equal({ __typename: typename, id, name });
    }
    expect((await server.data(NODE, { id: '01J0000000000000000000000Z' })).node).to.equal(null);
    expect((await server.data(NODE, { id: 'r/t1' })).node).to.equal(null);
  });

  it('nodes(ids) answers in order with nulls, in one statement per table however many ids', async () => {
    const listed = await server.data(`{
      tools(first: 7) { edges { node { id } } }
      resources(first: 6) { edges { node { id } } }
      projects(first: 5) { edges { node { id } } }
      resourceTypes(first: 4) { edges { node { id } } }
    }`);
    const idsOf = (conn: any) => conn.edges.map((e: any) => e.node.id as string);
    const all = [
      ...idsOf(listed.tools),
      ...idsOf(listed.resources),
      ...idsOf(listed.projects),
      ...idsOf(listed.resourceTypes),
    ];
    const mixed = [...all, 'no-such-id', all[0]];
    const NODES = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`;
    // Cold: a write moves the registry version on (past the response cache), and no record is cached.
    const bump = async () => {
      await server.data(
        `mutation { createProject(input: { name: "bump-${Math.random().toString(36).slice(2)}" }) { dryRun } }`,
      );
      await server.data(`{ resourceType(ref: "vcs") { id } }`);
      server.app.versioning.clearRecordCache();
    };
    await bump();
    const before = server.statements();
    const answer = (await server.data(NODES, { ids: mixed })).nodes;
    const statements = server.statements() - before;
    expect(answer.map((n: any) => n?.id ?? null)).to.deep.equal([...all, null, all[0]]);
    expect(answer.map((n: any) => n?.__typename ?? null)).to.deep.equal([
      ...Array(7).fill('Tool'),
      ...Array(6).fill('Resource'),
      ...Array(5).fill('Project'),
      ...Array(4).fill('ResourceType'),
      null,
      'Tool',
    ]);
    // Tools, resources, projects and change-log entries: one statement each (types come from the cached hierarchy);
    // PostgreSQL reads the version too.
    expect(statements).to.equal(4 + (backend.name === 'postgres' ? 1 : 0));

    // Many node fields in one request are batched the same way.
    await bump();
    const aliased = all.slice(0, 12).map((id, i) => `n${i}: node(id: "${id}") { id }`);
    const start = server.statements();
    const many = await server.data(`{ ${aliased.join(' ')} }`);
    expect(Object.values(many).map((n: any) => n.id)).to.deep.equal(all.slice(0, 12));
    expect(server.statements() - start).to.be.at.most(4 + (backend.name === 'postgres' ? 1 : 0));

    const tooMany = await server.gql(NODES, { ids: Array.from({ length: 101 }, () => all[0]) });
    expect(tooMany.body.errors?.[0].extensions?.code).to.equal('BAD_USER_INPUT');
  });

  it('gives slots and links ids that survive edits and differ from every other id', async () => {
    const r = registryOf(server);
    await r.project('ids');
    await r.link('ids', 'r/a', 'code');
    await r.link('ids', 'r/b');
    await r.tool('ids/tool', [
      { name: 'code', resourceType: 'vcs' },
      { name: 'db', resourceType: 'database', required: false },
    ]);
    const SLOTS = `{ tool(ref: "ids/tool") { id resourceSlots { id name } } }`;
    const LINKS = `{ project(ref: "ids") { id resources { id alias project { id } resource { id name } } } }`;
    const slots = (await server.data(SLOTS)).tool;
    const links = (await server.data(LINKS)).project;
    const slotIds = slots.resourceSlots.map((s: any) => s.id);
    const linkIds = links.resources.map((l: any) => l.id);
    expect(new Set([...slotIds, ...linkIds, slots.id, links.id]).size).to.equal(6);
    expect(links.resources.every((l: any) => l.project.id === links.id)).to.equal(true);

    // updateTool keeps the id of a slot that keeps its name; a new slot gets a new id.
    await server.data(
      `mutation { updateTool(input: { ref: "ids/tool", name: "ids/tool", resourceSlots: [
        { name: "code", resourceType: "git", access: READ_WRITE }, { name: "out", resourceType: "vcs", binding: PARAMETER }
      ] }) { tool { id } } }`,
    );
    const updated = (await server.data(SLOTS)).tool.resourceSlots;
    expect(updated[0]).to.deep.equal({ id: slotIds[0], name: 'code' });
    expect(updated[1].id).to.not.be.oneOf(slotIds);

    // updateLink keeps the link's id; the resource's usage shows the same link with the same id.
    await server.data(`mutation { updateLink(input: { project: "ids", resource: "r/a", alias: "main" }) { dryRun } }`);
    const relinked = (await server.data(LINKS)).project.resources;
    expect(relinked.map((l: any) => l.id)).to.deep.equal(linkIds);
    const usage = (
      await server.data(`{ resource(ref: "r/a") { usedBy { links { id alias project { name } resource { name } } } } }`)
    ).resource.usedBy;
    expect(usage.links).to.deep.include({
      id: linkIds[0],
      alias: 'main',
      project: { name: 'ids' },
      resource: { name: 'r/a' },
    });
  });
});
