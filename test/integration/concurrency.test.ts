import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { honouringBackpressure } from '../support/backpressure';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

const REGISTER = `mutation($i: RegisterToolInput!) { registerTool(input: $i) { tool { id resourceSlots { name } } } }`;
const slots = [
  { name: 'repo', resourceType: 'git-checkout' },
  { name: 'config', resourceType: 'git-checkout', binding: 'STATIC', staticResource: 'acme/app-repo' },
];

/** registerTool as a client that retries a 503 would send it (see honouringBackpressure). */
function register(server: TestServer, input: unknown) {
  return honouringBackpressure(() => server.gql(REGISTER, { i: input }));
}

describeEachBackend('concurrent writes', (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(backend);
    const r = registryOf(server);
    await r.type('git-checkout');
    await r.resource('acme/app-repo', 'git-checkout');
  });
  after(() => server.close());

  it('100 concurrent registerTool calls with distinct names all succeed, each with its slots', async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => register(server, { name: `parallel/t${i}`, resourceSlots: slots })),
    );
    for (const { status, body } of results) {
      expect(status).to.equal(200);
      expect(body.errors, JSON.stringify(body.errors)).to.equal(undefined);
    }
    const d = await server.data(
      `{ tools(first: 100, filter: { nameContains: "parallel/" }) { totalCount edges { node { resourceSlots { name } } } } }`,
    );
    expect(d.tools.totalCount).to.equal(100);
    for (const edge of d.tools.edges)
      expect(edge.node.resourceSlots.map((s: any) => s.name)).to.deep.equal(['repo', 'config']);
  });

  it('100 concurrent registerTool calls with one name: one succeeds, 99 get CONFLICT, never an internal error', async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, () => register(server, { name: 'contended', resourceSlots: slots })),
    );
    const codes = results.map(({ body }) => body.errors?.[0].extensions?.code ?? 'OK');
    expect(codes.filter((c) => c === 'OK')).to.have.length(1);
    expect(codes.filter((c) => c === 'CONFLICT')).to.have.length(99);
    const d = await server.data(
      `{ tools(filter: { nameContains: "contended" }) { totalCount edges { node { resourceSlots { name } } } } }`,
    );
    expect(d.tools.totalCount).to.equal(1);
    expect(d.tools.edges[0].node.resourceSlots).to.have.length(2);
  });

  it('a resource deleted while tools that bind it statically are registered: each pair ends cleanly, no tool points at nothing', async () => {
    const r = registryOf(server);
    const outcomes: string[] = [];
    for (let round = 0; round < 10; round++) {
      await r.resource(`doomed/r${round}`, 'git-checkout');
      const staticSlots = [
        { name: 'config', resourceType: 'git-checkout', binding: 'STATIC', staticResource: `doomed/r${round}` },
      ];
      const [registered, deleted] = await Promise.all([
        server.gql(REGISTER, { i: { name: `doomed/t${round}`, resourceSlots: staticSlots } }),
        server.gql(`mutation($r: String!) { deleteResource(ref: $r) { deletedId } }`, { r: `doomed/r${round}` }),
      ]);
      const reg = registered.body.errors?.[0].extensions?.code ?? 'OK';
      const del = deleted.body.errors?.[0].extensions?.code ?? 'OK';
      // Exactly one of the two wins; the loser gets a clean error.
      expect(
        [reg, del].filter((c) => c === 'OK'),
        `round ${round}: register ${reg}, delete ${del}`,
      ).to.have.length(1);
      expect(['OK', 'TOOL_VALIDATION_FAILED', 'CONFLICT']).to.include(reg);
      expect(['OK', 'CONFLICT']).to.include(del);
      outcomes.push(`${reg}/${del}`);
    }
    // The invariant: every static slot points at an existing resource.
    const d = await server.data(
      `{ tools(first: 100, filter: { nameContains: "doomed/" }) { edges { node { name resourceSlots { staticResource { name } } } } } }`,
    );
    for (const edge of d.tools.edges)
      expect(edge.node.resourceSlots[0].staticResource, edge.node.name).to.not.equal(null);
    expect(outcomes).to.have.length(10);
  });

  it('concurrent links under one alias: one wins, the rest get CONFLICT', async () => {
    const r = registryOf(server);
    await r.project('race');
    for (let i = 0; i < 10; i++) await r.resource(`race/r${i}`, 'git-checkout');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        server.gql(`mutation($i: LinkResourceInput!) { linkResource(input: $i) { project { id } } }`, {
          i: { project: 'race', resource: `race/r${i}`, alias: 'repo' },
        }),
      ),
    );
    const codes = results.map(({ body }) => body.errors?.[0].extensions?.code ?? 'OK');
    expect(codes.filter((c) => c === 'OK')).to.have.length(1);
    expect(codes.filter((c) => c === 'CONFLICT')).to.have.length(9);
  });
});
