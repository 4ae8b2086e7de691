import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { registryOf, seedExample } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

/** Past the response cache, so every request executes. */
const FRESH = { 'cache-control': 'no-cache' };

const PAGE = `query Page($first: Int, $after: String) { tools(first: $first, after: $after) {
  totalCount
  edges { cursor node { id name description resourceSlots { name access binding required
    resourceType { name ancestors { name } } staticResource { name type { name } } } } }
  pageInfo { hasNextPage endCursor } } }`;

/**
 * Pages answered from kept parts (src/engine/page-assembly.ts): each tool's
 * JSON under the page's selection is computed once, and a later page that
 * shows the tool the same way uses it for as long as nothing it read has
 * changed. Every answer is also checked against graphql-js's by the
 * equivalence check every test server runs (test/support/execution-check.ts).
 */
describeEachBackend('pages assembled from kept parts', (backend) => {
  let server: TestServer;
  const assembly = () => ({ ...server.app.execution.stats.assembly });
  /** The page's body (past the response cache) and what assembly did for it. */
  async function page(variables: Record<string, unknown> = { first: 10 }, query = PAGE, headers = {}) {
    const before = assembly();
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...FRESH, ...headers },
      body: JSON.stringify({ query, variables }),
    });
    const text = await response.text();
    const after = assembly();
    return {
      text,
      body: JSON.parse(text),
      assembled: after.assembled - before.assembled,
      used: after.partsUsed - before.partsUsed,
      computed: after.partsComputed - before.partsComputed,
    };
  }

  before(async () => {
    server = await startServer(backend);
    await seedExample(server);
    const r = registryOf(server);
    await r.type('vcs', ['git-checkout']);
    for (let i = 0; i < 6; i++) {
      await r.tool(`pa/tool-${i}`, [
        { name: 'src', resourceType: i % 2 ? 'vcs' : 'git-checkout' },
        { name: 'config', resourceType: 'fs-directory', binding: 'STATIC', staticResource: 'local/shared-config' },
      ]);
    }
  });
  after(() => server.close());

  it('computes each tool’s part when its page first runs whole, then answers the same page from the parts alone', async () => {
    // Through Apollo (which compiles it), then directly: the first direct run lacks every part, so it runs whole.
    const apollo = await page();
    const cold = await page();
    expect(cold).to.deep.include({ assembled: 0, used: 0, computed: 7 });
    const warm = await page();
    expect(warm).to.deep.include({ assembled: 1, used: 7, computed: 0 });
    expect(warm.text).to.equal(apollo.text);
    expect(warm.text).to.equal(cold.text);
    expect(warm.body.data.tools.edges).to.have.length(7);
    expect(warm.body.data.tools.edges[1].node.resourceSlots[1].staticResource).to.deep.equal({
      name: 'local/shared-config',
      type: { name: 'fs-directory' },
    });
  });

  it('uses the parts for another page, cursor or query text that shows the same tools the same way', async () => {
    await page();
    const firstThree = await page({ first: 3 });
    expect(firstThree).to.deep.include({ assembled: 1, used: 3, computed: 0 });
    const after = firstThree.body.data.tools.pageInfo.endCursor;
    const next = await page({ first: 3, after });
    expect(next).to.deep.include({ used: 3, computed: 0 });
    expect(next.body.data.tools.edges.map((e: any) => e.node.name)).to.deep.equal([
      'pa/tool-2',
      'pa/tool-3',
      'pa/tool-4',
    ]);
    // Another text with the same item selection (another page size in the text, another operation name) too.
    const other = PAGE.replace('query Page($first: Int,', 'query Page($first: Int = 4,');
    await page({}, other); // through Apollo, which compiles it
    expect(await page({}, other)).to.deep.include({ assembled: 1, used: 4, computed: 0 });
  });

  it('computes again only the parts a write touched, and shows the write', async () => {
    await page();
    await server.data(`mutation { updateTool(input: { ref: "pa/tool-3", name: "pa/tool-3", description: "now described",
      resourceSlots: [{ name: "src", resourceType: "vcs" }] }) { tool { id } } }`);
    const afterUpdate = await page();
    expect(afterUpdate).to.deep.include({ assembled: 0, computed: 1 });
    const tool3 = afterUpdate.body.data.tools.edges.find((e: any) => e.node.name === 'pa/tool-3').node;
    expect(tool3.description).to.equal('now described');
    expect(tool3.resourceSlots.map((s: any) => s.name)).to.deep.equal(['src']);
    expect(await page()).to.deep.include({ assembled: 1, used: 7, computed: 0 });

    // A new resource touches no part; renaming the statically bound one touches every tool that shows it.
    await registryOf(server).resource('pa/unrelated', 'vcs');
    expect(await page()).to.deep.include({ assembled: 1, computed: 0 });
    await server.data(
      `mutation { updateResource(input: { ref: "local/shared-config", name: "local/config" }) { resource { id } } }`,
    );
    const renamed = await page();
    // Those that bind it statically: demo/mixed and five pa/ tools (tool-3 no longer does).
    expect(renamed.computed).to.equal(6);
    expect(renamed.body.data.tools.edges[0].node.resourceSlots[1].staticResource.name).to.equal('local/config');

    // New parents for a type change every part that shows a type's ancestors.
    await server.data(`mutation { registerResourceType(input: { name: "source" }) { resourceType { id } } }`);
    await server.data(
      `mutation { updateResourceType(input: { ref: "git-checkout", parentTypes: ["source"] }) { resourceType { id } } }`,
    );
    const reparented = await page();
    expect(reparented.computed).to.equal(7);
    const ancestors = reparented.body.data.tools.edges[1].node.resourceSlots[0].resourceType.ancestors;
    expect(ancestors.map((a: any) => a.name)).to.include('source');
    expect(await page()).to.deep.include({ assembled: 1, computed: 0 });
  });

  it('keeps a part per value of the variables its selection uses', async () => {
    const query = `query Vars($first: Int, $slots: Boolean!) { tools(first: $first) { edges { node { name
      resourceSlots @include(if: $slots) { name } } } } }`;
    await page({ first: 5, slots: true }, query);
    await page({ first: 5, slots: true }, query);
    const withSlots = await page({ first: 5, slots: true }, query);
    expect(withSlots.assembled).to.equal(1);
    const without = await page({ first: 5, slots: false }, query);
    expect(without).to.deep.include({ assembled: 0, computed: 5 });
    const again = await page({ first: 5, slots: false }, query);
    expect(again.assembled).to.equal(1);
    expect(again.body.data.tools.edges[0].node).to.deep.equal({ name: withSlots.body.data.tools.edges[0].node.name });
    expect(withSlots.body.data.tools.edges[0].node.resourceSlots.length).to.be.greaterThan(0);
  });

  it('keeps no part of an answer with an error: the page is answered whole, with the error, as without parts', async () => {
    const query = `query Bad { tools(first: 3) { edges { node { name bindingsIn(project: "nowhere") { ok } } } } }`;
    const first = await page({}, query);
    const second = await page({}, query);
    expect(second).to.deep.include({ assembled: 0, computed: 0 });
    expect(second.body.errors[0].extensions.code).to.equal('NOT_FOUND');
    expect(second.text).to.equal(first.text);
  });

  it('assembles a page beside text that is not ASCII (searched as bytes), the same as the page run whole', async () => {
    await server.data(`mutation($i: RegisterToolInput!) { registerTool(input: $i) { tool { id } } }`, {
      i: { name: 'pa/noted', description: 'naïve — ✓ 日本語 😀', resourceSlots: [] },
    });
    const query = `query Noted($first: Int) { noted: tool(ref: "pa/noted") { description }
      ${PAGE.slice(PAGE.indexOf('tools(first'))}`.replace(
      'tools(first: $first, after: $after)',
      'tools(first: $first)',
    );
    const whole = await page({ first: 4 }, query); // through Apollo, which compiles it
    await page({ first: 4 }, query); // the first direct run computes what parts are missing
    const { stats } = server.app.execution;
    const [direct, diverged] = [stats.direct, stats.diverged];
    const assembled = await page({ first: 4 }, query);
    // Answered directly with the assembled body (a body that did not parse would have gone to Apollo instead).
    expect([stats.direct - direct, stats.diverged - diverged]).to.deep.equal([1, 0]);
    expect(assembled).to.deep.include({ assembled: 1, used: 4, computed: 0 });
    expect(assembled.text).to.equal(whole.text);
    expect(assembled.body.data.noted.description).to.equal('naïve — ✓ 日本語 😀');
    expect(assembled.body.data.tools.edges).to.have.length(4);
  });
});

describeEachBackend('pages assembled from kept parts: who asks', (backend) => {
  const ADMIN = 'admin-token-0123456789';
  let server: TestServer;
  before(async () => {
    server = await startServer(backend, { adminToken: ADMIN });
    await seedExample({ ...server, data: (q, v) => server.data(q, v, { authorization: `Bearer ${ADMIN}` }) });
  });
  after(() => server.close());

  it('keeps parts apart for readers and writers, and gives both the same answer', async () => {
    const query = `query Who { tools(first: 5) { edges { node { name resourceSlots { name } } } } }`;
    const computed = () => server.app.execution.stats.assembly.partsComputed;
    const ask = async (headers: Record<string, string>) => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...FRESH, ...headers },
        body: JSON.stringify({ query }),
      });
      return response.text();
    };
    const reader = await ask({});
    await ask({});
    const before = computed();
    const admin = { authorization: `Bearer ${ADMIN}` };
    await ask(admin);
    expect(await ask(admin)).to.equal(reader);
    expect(computed() - before, "the reader's parts are not the writer's").to.equal(1);
  });
});
