import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

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
  /** Statements for a request right after a write: the record cache is empty for the new registry version. */
  async function cold(query: string, variables?: Record<string, unknown>): Promise<number> {
    await server.data(query, variables); // the type hierarchy loads once after type changes; it is not what is measured
    await server.data(`mutation { createProject(input: { name: "bump-${++writes}" }) { project { id } } }`);
    const before = server.statements();
    await server.data(query, variables);
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
    // page, count, slots, static resources (+ the version)
    expect(fifty).to.equal(4 + version);
    // Asked afresh at the same version, slots and static resources come from the record cache: page, count (+ the version).
    expect(await warm(DASHBOARD, { first: 5 }, true)).to.equal(2 + version);
    expect(await warm(DASHBOARD, { first: 50 }, true)).to.equal(2 + version);
    // Asked again, the whole answer comes from the response cache after a check of the registry version.
    expect(await warm(DASHBOARD, { first: 50 })).to.equal(version);
  });

  it('batches the page: one statement each for slots and static resources', async () => {
    await server.data(`mutation { createProject(input: { name: "bump-batch" }) { project { id } } }`);
    server.app.db.counter.startRecording();
    await server.data(DASHBOARD, { first: 50 });
    const statements = server.app.db.counter.stopRecording();
    expect(statements.filter((s) => s.includes('FROM resource_slot'))).to.have.length(1);
    expect(statements.filter((s) => s.includes('FROM resource r WHERE'))).to.have.length(1);
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
    // tool, project, slots, links, static resource, param resource (+ the version)
    expect(deep).to.equal(6 + version);
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
    expect(await cold(resolve('tool-09'))).to.equal(6 + version);
    expect(await cold(DASHBOARD, { first: 50 })).to.equal(4 + version);
  });
});
