import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

const COUNTS = 'ready deferred optionalUnbound failed total';

const SUMMARY = `query($order: SummaryOrder, $first: Int, $after: String) {
  bindingSummary {
    registryVersion toolCount projectCount
    total { ${COUNTS} }
    tools(order: $order, first: $first, after: $after) {
      totalCount nodes { tool { name } counts { ${COUNTS} } } pageInfo { hasNextPage endCursor }
    }
    projects(order: $order) { totalCount nodes { project { name } counts { ${COUNTS} } } }
  }
}`;

const MATRIX = `{ bindingMatrix(projectsFirst: 10, toolsFirst: 10) {
  projects { nodes { id name } } tools { nodes { id name } } cells { projectId toolId status }
} }`;

type Counts = { ready: number; deferred: number; optionalUnbound: number; failed: number; total: number };
const KEY: Record<string, keyof Counts> = {
  READY: 'ready',
  DEFERRED: 'deferred',
  OPTIONAL_UNBOUND: 'optionalUnbound',
  FAILED: 'failed',
};

/** The counts the binding matrix gives, cell by cell: what the summary must equal. */
async function countedFromMatrix(server: TestServer) {
  const m = (await server.data(MATRIX)).bindingMatrix;
  const zero = (): Counts => ({ ready: 0, deferred: 0, optionalUnbound: 0, failed: 0, total: 0 });
  const total = zero();
  const byTool = new Map<string, Counts>(m.tools.nodes.map((t: any) => [t.name, zero()]));
  const byProject = new Map<string, Counts>(m.projects.nodes.map((p: any) => [p.name, zero()]));
  const tools = new Map<string, string>(m.tools.nodes.map((t: any) => [t.id, t.name]));
  const projects = new Map<string, string>(m.projects.nodes.map((p: any) => [p.id, p.name]));
  for (const cell of m.cells) {
    for (const counts of [total, byTool.get(tools.get(cell.toolId)!)!, byProject.get(projects.get(cell.projectId)!)!]) {
      counts[KEY[cell.status]] += 1;
      counts.total += 1;
    }
  }
  return { total, byTool, byProject };
}

describeEachBackend('bindingSummary', (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(backend);
    const r = registryOf(server);
    await r.type('vcs');
    await r.type('git-checkout', ['vcs']);
    await r.type('database');
    await r.resource('x/repo', 'git-checkout');
    await r.resource('y/src', 'git-checkout');
    await r.resource('prod/db', 'database');
    await r.project('alpha'); // one repo: contextual slots bind
    await r.link('alpha', 'x/repo');
    await r.project('beta'); // two repos, no alias: ambiguous
    await r.link('beta', 'x/repo');
    await r.link('beta', 'y/src');
    await r.project('gamma'); // nothing
    await r.tool('a/ready', [{ name: 'code', resourceType: 'vcs' }]);
    await r.tool('b/deferred', [
      { name: 'code', resourceType: 'vcs' },
      { name: 'out', resourceType: 'vcs', binding: 'PARAMETER' },
    ]);
    await r.tool('c/optional', [{ name: 'db', resourceType: 'database', required: false }]);
    await r.tool('d/static', [{ name: 'db', resourceType: 'database', binding: 'STATIC', staticResource: 'prod/db' }]);
    await r.tool('e/src', [{ name: 'src', resourceType: 'vcs' }]);
  });
  after(() => server.close());

  it('counts every pair as the matrix shows it: in total, per tool and per project', async () => {
    const s = (await server.data(SUMMARY, { order: 'NAME' })).bindingSummary;
    const m = await countedFromMatrix(server);
    expect(s.toolCount).to.equal(5);
    expect(s.projectCount).to.equal(3);
    expect(s.total).to.deep.equal(m.total);
    expect(s.total).to.deep.equal({ ready: 6, deferred: 1, optionalUnbound: 3, failed: 5, total: 15 });
    for (const node of s.tools.nodes) expect(node.counts, node.tool.name).to.deep.equal(m.byTool.get(node.tool.name));
    for (const node of s.projects.nodes)
      expect(node.counts, node.project.name).to.deep.equal(m.byProject.get(node.project.name));
    expect(s.tools.nodes.map((n: any) => n.tool.name)).to.deep.equal([
      'a/ready',
      'b/deferred',
      'c/optional',
      'd/static',
      'e/src',
    ]);
  });

  it('lists tools and projects failing first, then by name, and pages them', async () => {
    const s = (await server.data(SUMMARY, {})).bindingSummary;
    // e/src binds by short name in beta: it fails only in gamma.
    expect(s.tools.nodes.map((n: any) => [n.tool.name, n.counts.failed])).to.deep.equal([
      ['a/ready', 2],
      ['b/deferred', 2],
      ['e/src', 1],
      ['c/optional', 0],
      ['d/static', 0],
    ]);
    expect(s.projects.nodes.map((n: any) => n.project.name)).to.deep.equal(['gamma', 'beta', 'alpha']);
    const first = (await server.data(SUMMARY, { first: 2 })).bindingSummary.tools;
    expect(first.nodes.map((n: any) => n.tool.name)).to.deep.equal(['a/ready', 'b/deferred']);
    expect(first.pageInfo.hasNextPage).to.equal(true);
    const next = (await server.data(SUMMARY, { first: 2, after: first.pageInfo.endCursor })).bindingSummary.tools;
    expect(next.nodes.map((n: any) => n.tool.name)).to.deep.equal(['e/src', 'c/optional']);
    const bad = await server.gql(SUMMARY, { first: 2, after: 'bm90LWEtY3Vyc29y' });
    expect(bad.body.errors?.[0].extensions?.code).to.equal('BAD_USER_INPUT');
  });

  it("gives one tool's and one project's cells, failing first, and null for an unknown ref", async () => {
    const d = await server.data(`{ bindingSummary {
      tool(ref: "b/deferred") { tool { name } counts { ${COUNTS} } cells { totalCount nodes { projectName status failedSlots reasons } } }
      project(ref: "gamma") { counts { failed } cells(first: 2) { totalCount nodes { toolName status } pageInfo { hasNextPage } } }
      none: tool(ref: "no/such") { counts { total } }
    } }`);
    const { tool, project, none } = d.bindingSummary;
    expect(tool.counts).to.deep.equal({ ready: 0, deferred: 1, optionalUnbound: 0, failed: 2, total: 3 });
    expect(tool.cells.nodes).to.deep.equal([
      { projectName: 'beta', status: 'FAILED', failedSlots: 1, reasons: ['AMBIGUOUS'] },
      { projectName: 'gamma', status: 'FAILED', failedSlots: 1, reasons: ['NO_MATCH'] },
      { projectName: 'alpha', status: 'DEFERRED', failedSlots: 0, reasons: [] },
    ]);
    expect(project.counts.failed).to.equal(3);
    expect(project.cells.totalCount).to.equal(5);
    expect(project.cells.nodes).to.deep.equal([
      { toolName: 'a/ready', status: 'FAILED' },
      { toolName: 'b/deferred', status: 'FAILED' },
    ]);
    expect(project.cells.pageInfo.hasNextPage).to.equal(true);
    expect(none).to.equal(null);
  });

  it('follows writes: a new link changes the counts at once', async () => {
    const before = (await server.data(SUMMARY, {})).bindingSummary;
    await registryOf(server).link('gamma', 'x/repo');
    const after = (await server.data(SUMMARY, {})).bindingSummary;
    expect(after.registryVersion).to.be.greaterThan(before.registryVersion);
    expect(after.total).to.deep.equal((await countedFromMatrix(server)).total);
    expect(after.total.failed).to.be.lessThan(before.total.failed);
    await server.data(`mutation { unlinkResource(input: { project: "gamma", resource: "x/repo" }) { dryRun } }`);
  });

  it('refuses to resolve the cells of many tools and projects in one request (QUERY_TOO_COMPLEX)', async () => {
    const res = await server.gql(`{ bindingSummary { tools(first: 50) { nodes { tool { name } } } } }`);
    expect(res.body.errors).to.equal(undefined);
    const heavy =
      await server.gql(`{ bindingSummary { tools(first: 50) { nodes { tool { name } } } project(ref: "alpha") {
      cells(first: 100) { nodes { toolName } } } } }`);
    expect(heavy.body.errors).to.equal(undefined);
    const cells = (alias: string, field: string, ref: string) =>
      `${alias}: ${field}(ref: "${ref}") { cells { nodes { toolName } } }`;
    const tooMuch = await server.gql(`{ bindingSummary {
      ${cells('a', 'project', 'alpha')} ${cells('b', 'project', 'beta')} ${cells('c', 'project', 'gamma')}
      ${cells('d', 'tool', 'a/ready')} ${cells('e', 'tool', 'b/deferred')} } }`);
    expect(tooMuch.body.errors?.[0].extensions?.code).to.equal('QUERY_TOO_COMPLEX');
  });

  it('reads a fixed number of statements whatever the size of the registry, and none again at the same version', async function () {
    this.timeout(120_000);
    const count = async () => {
      // Cold: after a write (past the response cache and the kept counts), with no record cached.
      await server.data(
        `mutation { createProject(input: { name: "bump-${Math.random().toString(36).slice(2)}" }) { dryRun } }`,
      );
      await server.data(`{ resourceType(ref: "vcs") { id } }`);
      server.app.versioning.clearRecordCache();
      const before = server.statements();
      const d = (await server.data(SUMMARY, {})).bindingSummary;
      return { statements: server.statements() - before, pairs: d.total.total };
    };
    const small = await count();
    const r = registryOf(server);
    for (let i = 0; i < 30; i++) {
      const name = `s/p${String(i).padStart(2, '0')}`;
      await r.project(name);
      await r.link(name, i % 2 ? 'x/repo' : 'y/src');
    }
    for (let i = 0; i < 40; i++) {
      await r.tool(`s/t${String(i).padStart(2, '0')}`, [
        { name: 'src', resourceType: i % 3 ? 'vcs' : 'git-checkout' },
        { name: 'db', resourceType: 'database', binding: 'STATIC', staticResource: 'prod/db' },
      ]);
    }
    const big = await count();
    expect(big.pairs).to.be.greaterThan(small.pairs * 10);
    // Every tool's and project's name, the tools' slots with their static resources, the projects' links, and the
    // records of the listed pages of tools and projects (the types are cached); PostgreSQL also reads the version.
    expect(big.statements).to.equal(small.statements);
    expect(big.statements).to.equal(6 + (backend.name === 'postgres' ? 1 : 0));
    const again = server.statements();
    await server.data(SUMMARY, { first: 3 });
    expect(server.statements() - again, 'kept for the version: another page reads no slots or links').to.be.at.most(
      backend.name === 'postgres' ? 3 : 2,
    );
  });
});
