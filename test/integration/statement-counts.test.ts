import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';
import { encodeCursor } from '../../src/graphql/pagination';

const FRESH = { 'cache-control': 'no-cache' };

/** The dashboard page: tools with slots, slot types and their ancestors, and static resources. */
const DASHBOARD = `query($first: Int) { tools(first: $first) { totalCount edges { node {
  id name resourceSlots { name access binding required
    resourceType { name ancestors { name } parentTypes { name } }
    staticResource { name type { name } } }
} } } }`;

describeEachBackend('SQL statement counts', (backend) => {
  let server: TestServer;
  // Reading the registry version: one statement per request on PostgreSQL (other instances may write);
  // none on SQLite, where this process owns the file and keeps the version in memory.
  const version = backend.name === 'postgres' ? 1 : 0;

  let writes = 0;
  /**
   * Statements for a request right after a write, past the response cache (which keeps answers a write does not
   * touch) and with the record cache emptied (which keeps records a write does not touch): every record is read.
   */
  async function cold(query: string, variables?: Record<string, unknown>): Promise<number> {
    await server.data(query, variables); // the type hierarchy loads once after type changes; it is not what is measured
    await server.data(`mutation { createProject(input: { name: "bump-${++writes}" }) { project { id } } }`);
    server.app.versioning.clearRecordCache();
    const before = server.statements();
    await server.data(query, variables, { 'cache-control': 'no-cache' });
    return server.statements() - before;
  }
  /** Statements for the same request again, at the same registry version (`fresh`: past the response cache). */
  async function warm(query: string, variables?: Record<string, unknown>, fresh = false): Promise<number> {
    const headers = fresh ? { 'cache-control': 'no-cache' } : undefined;
    await server.data(query, variables, headers);
    const before = server.statements();
    await server.data(query, variables, headers);
    return server.statements() - before;
  }

  before(async () => {
    server = await startServer(backend);
    const r = registryOf(server);
    // A ten-level chain of types, so ancestors are deep.
    await r.type('level-0');
    for (let i = 1; i < 10; i++) await r.type(`level-${i}`, [`level-${i - 1}`]);
    for (let i = 0; i < 10; i++) await r.resource(`static/r${i}`, `level-${i}`);
    for (let t = 0; t < 50; t++) {
      await r.tool(`tool-${String(t).padStart(2, '0')}`, [
        { name: 'ctx', resourceType: `level-${t % 10}` },
        { name: 'fixed', resourceType: `level-${t % 10}`, binding: 'STATIC', staticResource: `static/r${t % 10}` },
        { name: 'param', resourceType: 'level-0', binding: 'PARAMETER' },
      ]);
    }
  });
  after(() => server.close());

  it('lists 5 tools and 50 tools with the same, fixed number of statements', async () => {
    const five = await cold(DASHBOARD, { first: 5 });
    const fifty = await cold(DASHBOARD, { first: 50 });
    expect(five).to.equal(fifty);
    // every tool's name (kept for later pages), tools, slots with their static resources (+ the version)
    expect(fifty).to.equal(3 + version);
    // Asked afresh at the same version, the page comes from the kept names and every tool's part from the kept
    // parts: nothing is read (+ the version).
    expect(await warm(DASHBOARD, { first: 5 }, true)).to.equal(version);
    expect(await warm(DASHBOARD, { first: 50 }, true)).to.equal(version);
    // Asked again, the whole answer comes from the response cache after a check of the registry version.
    expect(await warm(DASHBOARD, { first: 50 })).to.equal(version);
  });

  it('keeps the names of every tool right across writes, from their edits, without reading them again', async () => {
    const names = `query($first: Int, $after: String) { tools(first: $first, after: $after) { totalCount
      edges { node { name } } pageInfo { hasNextPage hasPreviousPage } } }`;
    await server.data(names, { first: 3 });
    const r = registryOf(server);
    await r.tool('tool-04b', [{ name: 'ctx', resourceType: 'level-0' }]);
    const before = server.statements();
    const page = await server.data(names, { first: 3, after: encodeCursor('tools', 'tool-03') }, FRESH);
    expect(server.statements() - before, 'the page and its count from the kept names').to.equal(version);
    expect(page.tools).to.deep.equal({
      totalCount: 51,
      edges: [{ node: { name: 'tool-04' } }, { node: { name: 'tool-04b' } }, { node: { name: 'tool-05' } }],
      pageInfo: { hasNextPage: true, hasPreviousPage: true },
    });
    await server.data(`mutation { unregisterTool(ref: "tool-04b") { deletedId } }`);
    const after = await server.data(names, { first: 2, after: encodeCursor('tools', 'tool-04') }, FRESH);
    expect(after.tools.totalCount).to.equal(50);
    expect(after.tools.edges.map((e: any) => e.node.name)).to.deep.equal(['tool-05', 'tool-06']);
  });

  it('counts only when totalCount, or whether items precede the cursor, is asked for', async () => {
    // A filtered page is read with statements (an unfiltered one comes from the kept names).
    const filtered = DASHBOARD.replace(
      'tools(first: $first)',
      'tools(first: $first, filter: { nameContains: "tool" })',
    );
    const withoutTotal = filtered.replace('totalCount ', '');
    // the page with its tools' records, slots with their static resources (+ the version): no count
    expect(await cold(withoutTotal, { first: 50 })).to.equal(2 + version);
    expect(await warm(withoutTotal, { first: 50 }, true)).to.equal(1 + version);
    // The count goes in the page's statement.
    expect(await warm(filtered, { first: 50 }, true)).to.equal(1 + version);
    const paged = (pageInfo: string) =>
      `query($after: String) { tools(first: 5, after: $after, filter: { nameContains: "tool" }) { edges { node { name } } pageInfo { ${pageInfo} } } }`;
    const { tools } = await server.data(paged('endCursor'), {});
    const after = tools.pageInfo.endCursor as string;
    // hasNextPage comes with the page (one row more than asked); hasPreviousPage after a cursor with the count,
    // in the page's statement too.
    expect(await warm(paged('hasNextPage endCursor'), { after }, true)).to.equal(1 + version);
    expect(await warm(paged('hasPreviousPage'), { after }, true)).to.equal(1 + version);
    const second = await server.data(paged('hasNextPage hasPreviousPage'), { after });
    expect(second.tools.pageInfo).to.deep.equal({ hasNextPage: true, hasPreviousPage: true });
    expect(second.tools.edges.map((e: any) => e.node.name)).to.deep.equal([
      'tool-05',
      'tool-06',
      'tool-07',
      'tool-08',
      'tool-09',
    ]);
    // Through a fragment, totalCount still counts.
    const viaFragment = `query { tools(first: 5, filter: { nameContains: "tool" }) { ...T } } fragment T on ToolConnection { totalCount }`;
    expect(await warm(viaFragment, undefined, true)).to.equal(1 + version);
    expect((await server.data(viaFragment)).tools.totalCount).to.equal(50);
  });

  it('batches the page: one statement for the slots with their static resources', async () => {
    server.app.versioning.clearRecordCache();
    server.app.db.counter.startRecording();
    await server.data(DASHBOARD, { first: 50 }, { 'cache-control': 'no-cache' });
    const statements = server.app.db.counter.stopRecording();
    expect(statements.filter((s) => s.includes('FROM resource_slot s LEFT JOIN resource r'))).to.have.length(1);
    expect(statements.filter((s) => s.includes('FROM resource'))).to.have.length(1);
  });

  it('resolves bindings with a fixed number of statements, whatever the depth', async () => {
    const r = registryOf(server);
    await r.project('p');
    await r.link('p', 'static/r9');
    const resolve = (tool: string) =>
      `{ resolveBindings(tool: "${tool}", project: "p", params: [{ slot: "param", resource: "static/r3" }]) { slotName resource { name type { name ancestors { name } } } } }`;
    const shallow = await cold(resolve('tool-00'));
    const deep = await cold(resolve('tool-09'));
    expect(shallow).to.equal(deep);
    // tool with its slots and their static resources (was 2 statements), project, links, param resource (+ the version)
    expect(deep).to.equal(4 + version);
    // At the same version, everything comes from the record cache, or the whole answer from the response cache.
    expect(await warm(resolve('tool-00'), undefined, true)).to.equal(version);
    expect(await warm(resolve('tool-09'), undefined, true)).to.equal(version);
    expect(await warm(resolve('tool-09'))).to.equal(version);

    // A registry ten times larger takes the same number of statements.
    const r2 = registryOf(server);
    for (let i = 0; i < 100; i++) await r2.resource(`bulk/r${i}`, `level-${i % 10}`);
    for (let i = 0; i < 20; i++) {
      await r2.project(`bulk/p${i}`);
      await r2.link(`bulk/p${i}`, `bulk/r${i}`);
    }
    expect(await cold(resolve('tool-09'))).to.equal(4 + version);
    expect(await cold(DASHBOARD, { first: 50 })).to.equal(3 + version);
  });

  it('keeps the records a write did not touch, and reads again only those it did', async () => {
    const r = registryOf(server);
    await r.project('kept');
    await r.link('kept', 'static/r5');
    const resolve = `{ resolveBindings(tool: "tool-05", project: "kept", params: [{ slot: "param", resource: "static/r3" }]) { slotName resource { name } } }`;
    const afterWrite = async (mutation: string) => {
      await server.data(mutation);
      const before = server.statements();
      const data = await server.data(resolve, undefined, { 'cache-control': 'no-cache' });
      return { statements: server.statements() - before, data };
    };
    expect(await warm(resolve, undefined, true)).to.equal(version);
    // A write elsewhere: every record comes from the record cache, at the new version.
    const elsewhere = await afterWrite(`mutation { createProject(input: { name: "elsewhere" }) { project { id } } }`);
    expect(elsewhere.statements).to.equal(version);
    // A new link of the project: the project and its links are read again (tool, slots, resources are kept).
    const linked = await afterWrite(
      `mutation { linkResource(input: { project: "kept", resource: "static/r0" }) { project { id } } }`,
    );
    expect(linked.statements).to.equal(2 + version);
    // The static resource renamed: it is read again, and the answer shows its new name.
    const renamed = await afterWrite(
      `mutation { updateResource(input: { ref: "static/r5", name: "static/r5-renamed" }) { resource { id } } }`,
    );
    expect(renamed.statements).to.be.greaterThan(version);
    const names = renamed.data.resolveBindings.map((s: any) => s.resource?.name ?? null);
    expect(names).to.include('static/r5-renamed');
    expect(names).to.not.include('static/r5');
  });

  it("keeps who uses a resource and a type's compatible resources across requests, until a write touches them", async () => {
    const r = registryOf(server);
    await r.project('user-a');
    await r.link('user-a', 'static/r7', 'seven');
    const query = `{
      resource(ref: "static/r7") { usedBy { links { alias project { name } } staticBindings { slotName tool { name } } } }
      resourceType(ref: "level-6") { compatibleResources(first: 10) { edges { node { name } } } }
    }`;
    const fresh = async () => {
      const before = server.statements();
      const data = await server.data(query, undefined, FRESH);
      return { statements: server.statements() - before, data };
    };
    await fresh();
    // Past the response cache, a second request reads nothing: usedBy's links and static slots, and the page of
    // compatible resources, are kept like records.
    expect((await fresh()).statements).to.equal(version);
    // Another project links it: its links are read again, and the new project (never read before), and the answer
    // shows the new link.
    await r.project('user-b');
    await r.link('user-b', 'static/r7', 'again');
    const relinked = await fresh();
    expect(relinked.statements).to.equal(2 + version);
    const aliases = relinked.data.resource.usedBy.links.map((l: any) => l.alias);
    expect(aliases).to.have.members(['seven', 'again']);
    // A new resource of a sub-type: the page of compatible resources is read again, and shows it.
    await r.resource('aaa/first', 'level-7');
    const added = await fresh();
    expect(added.statements).to.be.greaterThan(version);
    const names = added.data.resourceType.compatibleResources.edges.map((e: any) => e.node.name);
    expect(names[0]).to.equal('aaa/first');
  });
});

describeEachBackend('SQL statement counts of mutations', (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(backend);
    const r = registryOf(server);
    await r.type('vcs');
    await r.type('git-checkout', ['vcs']);
    await r.resource('x/repo', 'git-checkout');
    await r.resource('y/repo', 'git-checkout');
    await r.project('p');
    await r.link('p', 'x/repo');
    await r.tool('t', [{ name: 'repo', resourceType: 'vcs' }]);
  });
  after(() => server.close());

  // Every mutation: BEGIN, the version bump (which returns the new version, and on PostgreSQL NOTIFYs the other
  // instances of it on commit, in the same statement), its own reads and writes, the change-log entry, COMMIT;
  // those that can change bindings also read the pairs they reach, before and after. A new name is checked by its
  // insert (ON CONFLICT DO NOTHING), without a read before it. (Was 2 more each on SQLite, 3 on PostgreSQL, for
  // those that create a named thing; 1 and 2 more for the others.)
  const MUTATIONS: [string, string, number][] = [
    ['registerResourceType', `registerResourceType(input: { name: "other", parentTypes: ["vcs"] })`, 7],
    ['registerResource', `registerResource(input: { name: "z/repo", type: "git-checkout" })`, 5],
    ['createProject', `createProject(input: { name: "q" })`, 5],
    ['linkResource', `linkResource(input: { project: "p", resource: "y/repo" })`, 13],
    ['updateLink', `updateLink(input: { project: "p", resource: "y/repo", alias: "repo" })`, 13],
    ['unlinkResource', `unlinkResource(input: { project: "p", resource: "y/repo" })`, 13],
    ['registerTool', `registerTool(input: { name: "t2", resourceSlots: [{ name: "repo", resourceType: "vcs" }] })`, 6],
    [
      'updateTool',
      // (Its impact reads the examined projects' links once: a tool edit leaves them as they were.)
      `updateTool(input: { name: "t2", resourceSlots: [{ name: "repo", resourceType: "git-checkout" }] })`,
      13,
    ],
    ['updateResource', `updateResource(input: { ref: "z/repo", name: "z/src" })`, 10],
    ['updateResourceType', `updateResourceType(input: { ref: "other", parentTypes: [] })`, 12],
    ['updateProject', `updateProject(input: { ref: "q", description: "d" })`, 6],
    ['deleteResource', `deleteResource(ref: "x/repo", force: true)`, 15],
    ['deleteProject', `deleteProject(ref: "q")`, 8],
    ['unregisterTool', `unregisterTool(ref: "t2")`, 7],
    ['deleteResourceType', `deleteResourceType(ref: "other")`, 8],
  ];

  it('each mutation sends a fixed number of statements', async () => {
    const counted: Record<string, number> = {};
    for (const [name, call] of MUTATIONS) {
      // Counted warm: the type hierarchy is loaded once after a type change, by whichever request comes first.
      await server.data(`{ resourceType(ref: "vcs") { id } }`);
      const before = server.statements();
      await server.data(`mutation { ${call} { dryRun } }`);
      counted[name] = server.statements() - before;
    }
    expect(counted).to.deep.equal(Object.fromEntries(MUTATIONS.map(([name, , n]) => [name, n])));
    // Simple writes: at most 5 statements.
    for (const name of ['createProject', 'registerResource']) expect(counted[name], name).to.be.at.most(5);
  });

  it('writes with the same shape send the same statement texts: every value a parameter, none in the text', async () => {
    // Prepared statements are kept by their text; a number written into the text (as TypeORM's SQLite insert
    // does) made each change-log entry, with its version, a statement prepared for one use.
    const texts = async (name: string, required: [boolean, boolean]) => {
      server.app.db.counter.startRecording();
      await server.data(`mutation($input: RegisterToolInput!) { registerTool(input: $input) { tool { id } } }`, {
        input: {
          name,
          resourceSlots: [
            { name: 'a', resourceType: 'vcs', required: required[0] },
            { name: 'b', resourceType: 'git-checkout', required: required[1] },
          ],
        },
      });
      return server.app.db.counter.stopRecording();
    };
    await texts('same-shape-0', [true, true]); // the first write after the fixture also reads the type hierarchy
    const first = await texts('same-shape-1', [true, false]);
    const second = await texts('same-shape-2', [false, true]);
    expect(first.some((s) => /INSERT INTO "?registry_change/.test(s))).to.equal(true);
    expect(first.some((s) => /INSERT INTO "?resource_slot/.test(s))).to.equal(true);
    expect(second).to.deep.equal(first);
    for (const text of first.filter((s) => /^INSERT/i.test(s))) {
      // (PostgreSQL's placeholders are $1, $2, …)
      expect(text.replace(/\$\d+/g, '?'), text).to.not.match(/VALUES .*\b\d+\b/);
    }
  });

  it('a dry run sends the same statements as the real mutation, but the change-log insert, and commits none', async () => {
    await server.data(`{ resourceType(ref: "vcs") { id } }`);
    const before = server.statements();
    server.app.db.counter.startRecording();
    await server.data(`mutation { createProject(input: { name: "dry" }, dryRun: true) { dryRun } }`);
    const statements = server.app.db.counter.stopRecording();
    expect(server.statements() - before, statements.join('\n')).to.equal(4);
    expect(statements.at(-1)).to.match(/^ROLLBACK/i);
    expect(statements.some((s) => s.includes('registry_change'))).to.equal(false);
  });
});

describeEachBackend('SQL statement counts with RECORD_CACHE=false', (backend) => {
  it('reads every record from the database on every request', async () => {
    const server = await startServer(backend, { recordCache: false });
    try {
      const r = registryOf(server);
      await r.type('kind');
      await r.resource('x/thing', 'kind');
      await r.project('p');
      await r.link('p', 'x/thing');
      await r.tool('t', [{ name: 'thing', resourceType: 'kind' }]);
      const resolve = `{ resolveBindings(tool: "t", project: "p") { slotName resource { name } } }`;
      const fresh = { 'cache-control': 'no-cache' };
      expect((await server.data(resolve, undefined, fresh)).resolveBindings[0].resource.name).to.equal('x/thing');
      const before = server.statements();
      await server.data(resolve, undefined, fresh);
      // tool with its slots, project, links, every time (+ the version on PostgreSQL)
      expect(server.statements() - before).to.equal(3 + (backend.name === 'postgres' ? 1 : 0));
    } finally {
      await server.close();
    }
  });

  it('reads the 50-tool dashboard page in 2 statements, a page of projects in 1, and one tool with its slots in 1', async () => {
    const server = await startServer(backend, { recordCache: false });
    const version = backend.name === 'postgres' ? 1 : 0;
    try {
      const r = registryOf(server);
      await r.type('level-0');
      for (let i = 1; i < 5; i++) await r.type(`level-${i}`, [`level-${i - 1}`]);
      for (let i = 0; i < 5; i++) await r.resource(`static/r${i}`, `level-${i}`);
      for (let t = 0; t < 60; t++) {
        await r.tool(`tool-${String(t).padStart(2, '0')}`, [
          { name: 'ctx', resourceType: `level-${t % 5}` },
          { name: 'fixed', resourceType: `level-${t % 5}`, binding: 'STATIC', staticResource: `static/r${t % 5}` },
        ]);
      }
      const count = async (query: string, variables: Record<string, unknown>) => {
        await server.data(query, variables, FRESH); // the type hierarchy, kept by types version, is not measured
        server.app.db.counter.startRecording();
        const data = await server.data(query, variables, FRESH);
        return { statements: server.app.db.counter.stopRecording(), data };
      };
      const page = await count(DASHBOARD, { first: 50 });
      // The page with its tools' records and its count, then their slots with their static resources (was 5:
      // page, count, tools, slots, static resources).
      expect(page.statements, page.statements.join('\n')).to.have.length(2 + version);
      expect(page.data.tools.totalCount).to.equal(60);
      expect(page.data.tools.edges).to.have.length(50);
      expect(page.data.tools.edges[7].node.resourceSlots[1].staticResource).to.deep.equal({
        name: 'static/r2',
        type: { name: 'level-2' },
      });
      for (let p = 0; p < 25; p++) await r.project(`project-${String(p).padStart(2, '0')}`);
      const projects = await count(
        `query($first: Int) { projects(first: $first) { totalCount edges { node { name description } } } }`,
        {
          first: 20,
        },
      );
      // The page with its projects' records and its count, in one statement (was 3: page, count, records).
      expect(projects.statements, projects.statements.join('\n')).to.have.length(1 + version);
      expect(projects.data.projects.totalCount).to.equal(25);
      expect(projects.data.projects.edges[19].node).to.deep.equal({ name: 'project-19', description: null });
      const tool = `query($ref: String!) { tool(ref: $ref) { name resourceSlots { name resourceType { name } staticResource { name } } } }`;
      const one = await count(tool, { ref: 'tool-13' });
      // The tool by name with its slots and their static resources (was 3, then 2: the tool, then its slots).
      expect(one.statements, one.statements.join('\n')).to.have.length(1 + version);
      expect(one.data.tool.resourceSlots[1]).to.deep.equal({
        name: 'fixed',
        resourceType: { name: 'level-3' },
        staticResource: { name: 'static/r3' },
      });
    } finally {
      await server.close();
    }
  });
});
