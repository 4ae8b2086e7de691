import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

const REGISTER = `mutation($i: RegisterToolInput!) { registerTool(input: $i) { id resourceSlots { name } } }`;
const slots = [
  { name: 'repo', resourceType: 'git-checkout' },
  { name: 'config', resourceType: 'git-checkout', binding: 'STATIC', staticResource: 'acme/app-repo' },
];

describeEachBackend('concurrent writes', (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(backend);
    const r = registryOf(server);
    await r.type('git-checkout');
    await r.resource('acme/app-repo', 'git-checkout');
  });
  after(() => server.close());

  it('50 concurrent registerTool calls with distinct names all succeed, each with its slots', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => server.gql(REGISTER, { i: { name: `parallel/t${i}`, resourceSlots: slots } })));
    for (const { status, body } of results) {
      expect(status).to.equal(200);
      expect(body.errors, JSON.stringify(body.errors)).to.equal(undefined);
    }
    const d = await server.data(`{ tools(first: 100, filter: { nameContains: "parallel/" }) { totalCount edges { node { resourceSlots { name } } } } }`);
    expect(d.tools.totalCount).to.equal(50);
    for (const edge of d.tools.edges) expect(edge.node.resourceSlots.map((s: any) => s.name)).to.deep.equal(['repo', 'config']);
  });

  it('50 concurrent registerTool calls with one name: one succeeds, 49 get CONFLICT, never an internal error', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => server.gql(REGISTER, { i: { name: 'contended', resourceSlots: slots } })));
    const codes = results.map(({ body }) => body.errors?.[0].extensions?.code ?? 'OK');
    expect(codes.filter((c) => c === 'OK')).to.have.length(1);
    expect(codes.filter((c) => c === 'CONFLICT')).to.have.length(49);
    const d = await server.data(`{ tools(filter: { nameContains: "contended" }) { totalCount edges { node { resourceSlots { name } } } } }`);
    expect(d.tools.totalCount).to.equal(1);
    expect(d.tools.edges[0].node.resourceSlots).to.have.length(2);
  });

  it('concurrent links under one alias: one wins, the rest get CONFLICT', async () => {
    const r = registryOf(server);
    await r.project('race');
    for (let i = 0; i < 10; i++) await r.resource(`race/r${i}`, 'git-checkout');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => server.gql(`mutation($i: LinkResourceInput!) { linkResource(input: $i) { id } }`, { i: { project: 'race', resource: `race/r${i}`, alias: 'repo' } })),
    );
    const codes = results.map(({ body }) => body.errors?.[0].extensions?.code ?? 'OK');
    expect(codes.filter((c) => c === 'OK')).to.have.length(1);
    expect(codes.filter((c) => c === 'CONFLICT')).to.have.length(9);
  });
});
