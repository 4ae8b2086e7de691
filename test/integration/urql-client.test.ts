import { gql, type Client, type CombinedError } from '@urql/core';
import { expect } from 'chai';
import { registryClient } from '../../examples/clients/urql';
import { sqlite } from '../support/backends';
import { buildSessionRegistry, runSession, type ClientUnderTest } from '../support/client-session';
import { startServer, type TestServer } from '../support/server';

/** The session's requests through an urql client (graphcache, as examples/clients/urql.ts makes it). */
function underTest(client: Client): ClientUnderTest {
  const check = (result: { data?: unknown; error?: CombinedError }) => {
    if (result.error) throw result.error;
    return result.data;
  };
  return {
    query: async (document, variables = {}) =>
      check(await client.query(gql(document), variables, { requestPolicy: 'network-only' }).toPromise()),
    mutate: async (document, variables = {}) => check(await client.mutation(gql(document), variables).toPromise()),
  };
}

/**
 * urql with graphcache, configured as docs/api.md shows it (the same module),
 * through a realistic session: not one warning ("Invalid key" or any other),
 * pages merged by relayPagination, and no request refused by CSRF prevention.
 */
describe('urql with graphcache', function () {
  this.timeout(60_000);
  let server: TestServer;
  const printed: string[] = [];
  const originalWarn = console.warn;
  const originalError = console.error;

  beforeEach(async () => {
    server = await startServer(sqlite);
    await buildSessionRegistry(server);
  });
  afterEach(() => server.close());
  before(() => {
    console.warn = (...args: unknown[]) => void printed.push(args.map(String).join(' '));
    console.error = (...args: unknown[]) => void printed.push(args.map(String).join(' '));
  });
  after(() => {
    console.warn = originalWarn;
    console.error = originalError;
  });

  it('runs the session with no warning, merging the pages of each connection', async () => {
    const summary = await runSession(underTest(registryClient(server.url)));
    expect(printed).to.deep.equal([]);
    // relayPagination answers the last page's query with every page asked so far.
    expect(summary.lastToolsPage).to.deep.equal(['ac/lint', 'ac/tool', 'bc/tool']);
    expect(summary.unlinkImpactIds).to.have.length.greaterThan(0);
    for (const id of summary.unlinkImpactIds) expect(summary.loggedChangeIds).to.include(id);
  });

  it("needs POST or the preflight header: urql's default GET is refused by CSRF prevention", async () => {
    const { Client: UrqlClient, fetchExchange } = await import('@urql/core');
    const query = gql('{ tools(first: 1) { totalCount } }');
    const byDefault = await new UrqlClient({ url: server.url, exchanges: [fetchExchange] })
      .query(query, {})
      .toPromise();
    expect(byDefault.error?.response?.status).to.equal(400);
    expect(byDefault.error?.message).to.match(/CSRF/);
    const withHeader = await new UrqlClient({
      url: server.url,
      exchanges: [fetchExchange],
      fetchOptions: { headers: { 'apollo-require-preflight': 'true' } },
    })
      .query(query, {})
      .toPromise();
    expect(withHeader.error).to.equal(undefined);
    expect(withHeader.data).to.deep.equal({ tools: { totalCount: 3 } });
    expect(printed).to.deep.equal([]);
  });

  it('without the keys in the example, graphcache warns "Invalid key" (what the test above would catch)', async () => {
    const { Client: UrqlClient, fetchExchange } = await import('@urql/core');
    const { cacheExchange } = await import('@urql/exchange-graphcache');
    const bare = new UrqlClient({
      url: server.url,
      exchanges: [cacheExchange({}), fetchExchange],
      preferGetMethod: false,
    });
    printed.length = 0;
    await runSession(underTest(bare));
    const invalid = new Set(printed.flatMap((w) => /Invalid key[\s\S]*?config for `(\w+)`/.exec(w)?.[1] ?? []));
    expect([...invalid].sort()).to.deep.equal([
      'BindingMatrix',
      'ProjectPage',
      'SlotOutcome',
      'ToolPage',
      'ToolProblem',
    ]);
  });
});
