import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { get as httpGet } from 'node:http';
import { sqlite } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

const QUERY = '{ tools { totalCount edges { node { name } } } }';

/** GETs a query the way a client that wants HTTP caching does (with Apollo's preflight header) and reads everything back. */
async function get(
  server: TestServer,
  query: string,
  headers: Record<string, string> = {},
  params: Record<string, string> = {},
) {
  const url = new URL(server.url);
  url.searchParams.set('query', query);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  const before = server.statements();
  const response = await fetch(url, { headers: { 'apollo-require-preflight': 'true', ...headers } });
  const text = await response.text();
  return {
    status: response.status,
    text,
    etag: response.headers.get('etag'),
    cacheControl: response.headers.get('cache-control'),
    vary: response.headers.get('vary'),
    cache: response.headers.get('x-registry-cache'),
    statements: server.statements() - before,
  };
}

describe('HTTP caching of GET queries', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(sqlite, { demoData: true });
  });
  after(() => server.close());

  it('serves a repeated GET from the response cache, with an ETag, Cache-Control: no-cache and Vary', async () => {
    const first = await get(server, QUERY);
    expect(first).to.deep.include({ status: 200, cache: 'miss', cacheControl: 'no-cache' });
    expect(JSON.parse(first.text).data.tools.totalCount).to.equal(2); // the demo's demo/mixed and acme/migrate
    expect(first.etag).to.match(/^"[\w-]+\.\d+\.[\w-]+"$/);
    expect(first.vary).to.match(/Accept, Authorization/);
    const second = await get(server, QUERY);
    expect(second).to.deep.include({ status: 200, cache: 'hit', text: first.text, etag: first.etag, statements: 0 });
  });

  it('answers If-None-Match with 304 while nothing changed, and with the new answer after a write', async () => {
    const { etag, text } = await get(server, QUERY);
    const revalidated = await get(server, QUERY, { 'if-none-match': etag! });
    expect(revalidated).to.deep.include({ status: 304, text: '', etag, cacheControl: 'no-cache', statements: 0 });
    // Weak comparison, and a list of tags, as browsers and proxies send them.
    expect((await get(server, QUERY, { 'if-none-match': `"other", W/${etag}` })).status).to.equal(304);

    await registryOf(server).tool('http-cache/new', [{ name: 'repo', resourceType: 'git-checkout' }]);
    const changed = await get(server, QUERY, { 'if-none-match': etag! });
    expect(changed.status).to.equal(200);
    expect(changed.etag).to.not.equal(etag);
    expect(changed.text).to.not.equal(text);
    expect(JSON.parse(changed.text).data.tools.totalCount).to.equal(3);
    expect((await get(server, QUERY, { 'if-none-match': changed.etag! })).status).to.equal(304);
  });

  it('keeps the ETag across writes that do not touch the answer (only those that do change it)', async () => {
    const query = '{ tools { totalCount edges { node { name resourceSlots { name } } } } }';
    // As a browser's or a proxy's cache revalidates: If-None-Match alone (fetch() adds Cache-Control: no-cache to a
    // request given If-None-Match by hand, which asks for a fresh answer, computed at the current version).
    const revalidate = (etag: string) =>
      new Promise<{ status: number; etag: string | undefined }>((resolve, reject) => {
        const url = new URL(server.url);
        url.searchParams.set('query', query);
        const request = httpGet(
          url,
          { headers: { accept: '*/*', 'apollo-require-preflight': 'true', 'if-none-match': etag } },
          (response) => {
            response.resume();
            response.on('end', () => resolve({ status: response.statusCode!, etag: response.headers.etag }));
          },
        );
        request.on('error', reject);
      });
    const { etag } = await get(server, query);
    await get(server, query); // kept by the response cache from its second sighting on
    await registryOf(server).project('http-cache/unrelated');
    expect(await revalidate(etag!)).to.deep.equal({ status: 304, etag });
    await registryOf(server).tool('http-cache/another', []);
    const touched = await revalidate(etag!);
    expect(touched.status).to.equal(200);
    expect(touched.etag).to.not.equal(etag);
  });

  it('gives each request its own ETag: variables, operation name and Accept count', async () => {
    const query = 'query Tools($n: Int) { tools(first: $n) { totalCount } }';
    const one = await get(server, query, {}, { variables: '{"n":1}' });
    const two = await get(server, query, {}, { variables: '{"n":2}' });
    const named = await get(server, query, {}, { variables: '{"n":1}', operationName: 'Tools' });
    const graphqlJson = await get(
      server,
      query,
      { accept: 'application/graphql-response+json' },
      { variables: '{"n":1}' },
    );
    expect(new Set([one.etag, two.etag, named.etag, graphqlJson.etag]).size).to.equal(4);
    expect((await get(server, query, { 'if-none-match': one.etag! }, { variables: '{"n":2}' })).status).to.equal(200);
  });

  it('gives automatic persisted queries (APQ) sent as GET an ETag like any GET, and 304s, by their hash', async () => {
    const query = '{ tools { totalCount } }';
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash } });
    // The client registers the query (text and hash), then sends the hash alone, as Apollo Client's GETs do.
    const registered = await get(server, query, {}, { extensions });
    expect(registered).to.deep.include({ status: 200, cacheControl: 'no-cache' });
    expect(registered.etag).to.match(/^"[\w-]+\.\d+\.[\w-]+"$/);
    const url = new URL(server.url);
    url.searchParams.set('extensions', extensions);
    const byHash = async (headers: Record<string, string> = {}) => {
      const response = await fetch(url, { headers: { 'apollo-require-preflight': 'true', ...headers } });
      return { status: response.status, etag: response.headers.get('etag'), text: await response.text() };
    };
    const first = await byHash();
    expect(first.status).to.equal(200);
    expect(JSON.parse(first.text).data.tools.totalCount).to.be.a('number');
    expect(first.etag).to.match(/^"[\w-]+\.\d+\.[\w-]+"$/);
    expect(await byHash({ 'if-none-match': first.etag! })).to.deep.include({ status: 304, etag: first.etag });
    // Another hash, another tag; a hash that does not match its query is an error, with no ETag.
    const other = '{ projects { totalCount } }';
    const otherTag = (
      await get(
        server,
        other,
        {},
        {
          extensions: JSON.stringify({
            persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(other).digest('hex') },
          }),
        },
      )
    ).etag;
    expect(otherTag).to.be.a('string').and.not.equal(first.etag);
    const mismatch = await get(server, other, {}, { extensions });
    expect(mismatch.status).to.equal(400);
    expect(mismatch.etag).to.equal(null);
  });

  it('keeps CSRF prevention: a GET without the preflight header is refused, cached answer or not', async () => {
    await get(server, QUERY);
    const url = new URL(server.url);
    url.searchParams.set('query', QUERY);
    const plain = await fetch(url, { headers: { accept: 'application/json' } });
    expect(plain.status).to.equal(400);
    expect(await plain.text()).to.match(/Cross-Site Request Forgery/);
  });

  it('marks answers with errors no-store, with no ETag', async () => {
    const missing = await get(server, '{ resolveBindings(tool: "no/such-tool", project: "demo") { slotName } }');
    expect(missing.status).to.equal(200);
    expect(JSON.parse(missing.text).errors[0].extensions.code).to.equal('NOT_FOUND');
    expect(missing).to.deep.include({ etag: null, cacheControl: 'no-store' });
  });

  it('gives POST answers no ETag, and ignores If-None-Match on them', async () => {
    const { etag } = await get(server, QUERY);
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'if-none-match': etag! },
      body: JSON.stringify({ query: QUERY }),
    });
    expect(response.status).to.equal(200);
    expect(response.headers.get('etag')).to.equal(null);
  });

  it('revalidates answers that read no registry data for as long as the server runs', async () => {
    const { etag } = await get(server, '{ __typename }');
    expect(etag).to.match(/^"[\w-]+\.s\.[\w-]+"$/);
    await registryOf(server).project('http-cache-p');
    expect((await get(server, '{ __typename }', { 'if-none-match': etag! })).status).to.equal(304);
  });

  it('uses HTTP_CACHE_CONTROL, and keeps ETags and 304s with RESPONSE_CACHE=false', async () => {
    const other = await startServer(sqlite, {
      demoData: true,
      responseCache: false,
      httpCacheControl: 'private, max-age=60',
    });
    try {
      const first = await get(other, QUERY);
      expect(first).to.deep.include({ status: 200, cache: 'bypass', cacheControl: 'private, max-age=60' });
      const again = await get(other, QUERY, { 'if-none-match': first.etag! });
      expect(again).to.deep.include({ status: 304, cacheControl: 'private, max-age=60', etag: first.etag });
    } finally {
      await other.close();
    }
  });

  it('varies on Authorization: with READ_TOKEN, a GET without a token is refused even when cached', async () => {
    const guarded = await startServer(sqlite, {
      demoData: true,
      adminToken: 'admin-token-0123456789',
      readToken: 'read-token-0123456789',
    });
    try {
      const first = await get(guarded, QUERY, { authorization: 'Bearer read-token-0123456789' });
      expect(first.status).to.equal(200);
      expect(first.vary).to.match(/Authorization/);
      const anonymous = await get(guarded, QUERY, { 'if-none-match': first.etag! });
      expect(anonymous.status).to.equal(401);
    } finally {
      await guarded.close();
    }
  });
});
