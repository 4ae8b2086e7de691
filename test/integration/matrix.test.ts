import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

const MATRIX = `query($p: ProjectFilter, $t: ToolFilter, $pf: Int, $tf: Int, $pa: String, $ta: String) {
  bindingMatrix(projects: $p, tools: $t, projectsFirst: $pf, toolsFirst: $tf, projectsAfter: $pa, toolsAfter: $ta) {
    projects { totalCount nodes { id name } pageInfo { hasNextPage endCursor } }
    tools { totalCount nodes { id name } pageInfo { hasNextPage endCursor } }
    cells { projectId toolId status failedSlots reasons }
  }
}`;

describeEachBackend('bindingMatrix', (backend) => {
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
  });
  after(() => server.close());

  it('gives a cell per (project, tool) of the pages, coloured by the core: READY, DEFERRED, OPTIONAL_UNBOUND, FAILED', async () => {
    const d = (await server.data(MATRIX, {})).bindingMatrix;
    const projects = new Map(d.projects.nodes.map((n: any) => [n.id, n.name]));
    const tools = new Map(d.tools.nodes.map((n: any) => [n.id, n.name]));
    expect([...projects.values()]).to.deep.equal(['alpha', 'beta', 'gamma']);
    expect(d.cells).to.have.length(3 * 4);
    const grid = d.cells.map((c: any) => [
      projects.get(c.projectId),
      tools.get(c.toolId),
      c.status,
      c.failedSlots,
      c.reasons,
    ]);
    expect(grid).to.deep.equal([
      ['alpha', 'a/ready', 'READY', 0, []],
      ['alpha', 'b/deferred', 'DEFERRED', 0, []],
      ['alpha', 'c/optional', 'OPTIONAL_UNBOUND', 0, []],
      ['alpha', 'd/static', 'READY', 0, []],
      ['beta', 'a/ready', 'FAILED', 1, ['AMBIGUOUS']],
      ['beta', 'b/deferred', 'FAILED', 1, ['AMBIGUOUS']],
      ['beta', 'c/optional', 'OPTIONAL_UNBOUND', 0, []],
      ['beta', 'd/static', 'READY', 0, []],
      ['gamma', 'a/ready', 'FAILED', 1, ['NO_MATCH']],
      ['gamma', 'b/deferred', 'FAILED', 1, ['NO_MATCH']],
      ['gamma', 'c/optional', 'OPTIONAL_UNBOUND', 0, []],
      ['gamma', 'd/static', 'READY', 0, []],
    ]);
  });

  it('filters tools by the type their slots need (sub-types included) and projects by a resource they link', async () => {
    const byType = (await server.data(MATRIX, { t: { slotType: 'vcs' } })).bindingMatrix;
    expect(byType.tools.nodes.map((n: any) => n.name)).to.deep.equal(['a/ready', 'b/deferred']);
    const bySub = (await server.data(`{ tools(filter: { slotType: "database" }) { edges { node { name } } } }`)).tools;
    expect(bySub.edges.map((e: any) => e.node.name)).to.deep.equal(['c/optional', 'd/static']);
    const linking = (await server.data(MATRIX, { p: { linksResource: 'y/src' } })).bindingMatrix;
    expect(linking.projects.nodes.map((n: any) => n.name)).to.deep.equal(['beta']);
    expect(linking.cells).to.have.length(4);
    const unknown = await server.gql(MATRIX, { t: { slotType: 'nope' } });
    expect(unknown.body.errors?.[0].extensions?.code).to.equal('NOT_FOUND');
  });

  it('pages both axes with cursors, and refuses page sizes outside 1–100 and a matrix over the cost limit', async () => {
    const first = (await server.data(MATRIX, { pf: 2, tf: 3 })).bindingMatrix;
    expect(first.cells).to.have.length(6);
    expect(first.projects.pageInfo.hasNextPage).to.equal(true);
    const next = (
      await server.data(MATRIX, {
        pf: 2,
        tf: 3,
        pa: first.projects.pageInfo.endCursor,
        ta: first.tools.pageInfo.endCursor,
      })
    ).bindingMatrix;
    expect(next.projects.nodes.map((n: any) => n.name)).to.deep.equal(['gamma']);
    expect(next.tools.nodes.map((n: any) => n.name)).to.deep.equal(['d/static']);
    expect((await server.gql(MATRIX, { pf: 0 })).body.errors?.[0].extensions?.code).to.equal('BAD_USER_INPUT');
    expect((await server.gql(MATRIX, { tf: 101 })).body.errors?.[0].extensions?.code).to.equal('BAD_USER_INPUT');
    const big = await server.gql(MATRIX, { pf: 100, tf: 100 });
    expect(big.body.errors?.[0].extensions?.code).to.equal('QUERY_TOO_COMPLEX');
  });

  it('answers a 20 × 50 matrix (1,000 cells) in one request with a fixed number of statements, the same as 2 × 3', async function () {
    this.timeout(60_000);
    const r = registryOf(server);
    for (let i = 0; i < 20; i++) {
      await r.project(`m/p${String(i).padStart(2, '0')}`);
      await r.link(`m/p${String(i).padStart(2, '0')}`, i % 2 ? 'x/repo' : 'y/src');
    }
    for (let i = 0; i < 50; i++) {
      await r.tool(`m/t${String(i).padStart(2, '0')}`, [
        { name: 'src', resourceType: i % 3 ? 'vcs' : 'git-checkout' },
        { name: 'db', resourceType: 'database', binding: 'STATIC', staticResource: 'prod/db' },
      ]);
    }
    const count = async (variables: Record<string, unknown>) => {
      // Cold: after a write (past the response cache), with no record cached.
      await server.data(
        `mutation { createProject(input: { name: "bump-${Math.random().toString(36).slice(2)}" }) { dryRun } }`,
      );
      await server.data(`{ resourceType(ref: "vcs") { id } }`);
      server.app.versioning.clearRecordCache();
      const before = server.statements();
      const d = (await server.data(MATRIX, variables)).bindingMatrix;
      return { statements: server.statements() - before, cells: d.cells.length };
    };
    const big = await count({ p: { nameContains: 'm/' }, t: { nameContains: 'm/' }, pf: 20, tf: 50 });
    const small = await count({ p: { nameContains: 'm/' }, t: { nameContains: 'm/' }, pf: 2, tf: 3 });
    expect(big.cells).to.equal(1000);
    expect(small.cells).to.equal(6);
    // Two pages (each with its records and its count), slots with their static resources, links, and on PostgreSQL
    // the version.
    expect(big.statements).to.equal(4 + (backend.name === 'postgres' ? 1 : 0));
    expect(small.statements).to.equal(big.statements);
  });
});
