import { expect } from 'chai';
import { ResponseCache } from '../../src/engine/response-cache';
import { sqlite } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

const QUERY = `{ tools { totalCount edges { node { name resourceSlots { name resourceType { name ancestors { name } } } } } } }`;

describe('response cache (SQLite; PostgreSQL is covered by the two-instance test)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(sqlite, { demoData: true });
  });
  after(() => server.close());

  /** POSTs and returns the cache header, the body text, and the SQL statements it took. */
  async function post(query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) {
    const before = server.statements();
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return {
      cache: response.headers.get('x-registry-cache'),
      text: await response.text(),
      statements: server.statements() - before,
      status: response.status,
    };
  }

  it('answers a repeated query from memory, with no SQL on SQLite (the version is kept in memory)', async () => {
    const first = await post(QUERY);
    const second = await post(QUERY);
    expect(first.cache).to.equal('miss');
    expect(second).to.deep.include({ cache: 'hit', text: first.text, statements: 0 });
  });

  it('misses after a write that touches what it read, and shows the write', async () => {
    await post(QUERY);
    await registryOf(server).tool('cache/new', [{ name: 'repo', resourceType: 'git-checkout' }]);
    const after = await post(QUERY);
    expect(after.cache).to.equal('miss');
    expect(JSON.parse(after.text).data.tools.totalCount).to.equal(3); // the demo's two tools, and the new one
    expect((await post(QUERY)).cache).to.equal('hit');
  });

  it('keeps answers across writes that touch nothing they read, with no SQL; a write to what they read ends them', async () => {
    const RESOLVE = `{ resolveBindings(tool: "demo/mixed", project: "demo") { slotName resource { name } deferred } }`;
    const USAGE = `{ resource(ref: "acme/app-repo") { usedBy { links { alias project { name } } } } }`;
    const resolved = await post(RESOLVE);
    await post(USAGE);
    const r = registryOf(server);
    // Unrelated writes: a new resource, a new project, a new type, a tool that needs nothing the demo tool reads.
    await r.resource('cache/unrelated', 'git-checkout');
    await r.project('cache-elsewhere');
    await r.link('cache-elsewhere', 'cache/unrelated');
    for (const query of [RESOLVE, USAGE]) {
      expect(await post(query)).to.deep.include({ cache: 'hit', statements: 0 });
    }
    // Any tool may bind a resource statically, so a new tool ends usage answers; the demo tool's resolution stays.
    await r.tool('cache/other', [{ name: 'repo', resourceType: 'git-checkout' }]);
    expect(await post(RESOLVE)).to.deep.include({ cache: 'hit', statements: 0 });
    expect((await post(USAGE)).cache).to.equal('miss');
    // A new link of the demo project may change what it resolves to: the answer is computed again (the alias keeps it).
    await server.data(`mutation { linkResource(input: { project: "demo", resource: "cache/unrelated" }) { dryRun } }`);
    const after = await post(RESOLVE);
    expect(after).to.deep.include({ cache: 'miss', text: resolved.text });
    await server.data(
      `mutation { unlinkResource(input: { project: "demo", resource: "cache/unrelated" }) { dryRun } }`,
    );
    // Renaming the linked resource changes what the usage shows, through the link's resource.
    await post(RESOLVE);
    await server.data(
      `mutation { updateResource(input: { ref: "acme/app-repo", name: "acme/app-repository" }) { dryRun } }`,
    );
    const renamed = await post(RESOLVE);
    expect(renamed.cache).to.equal('miss');
    expect(renamed.text).to.include('acme/app-repository');
    await server.data(
      `mutation { updateResource(input: { ref: "acme/app-repository", name: "acme/app-repo" }) { dryRun } }`,
    );
  });

  it('keys on the variables and the operation name', async () => {
    const query = `query One($n: Int) { tools(first: $n) { totalCount } } query Two { projects { totalCount } }`;
    expect((await post(query, { n: 1 }, {})).status).to.equal(400, 'two operations need an operationName');
    const byName = (operationName: string, n: number) =>
      fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, operationName, variables: { n } }),
      }).then((r) => r.headers.get('x-registry-cache'));
    expect(await byName('One', 1)).to.equal('miss');
    expect(await byName('One', 2)).to.equal('miss');
    expect(await byName('Two', 1)).to.equal('miss');
    expect(await byName('One', 1)).to.equal('hit');
    expect(await byName('One', 2)).to.equal('hit');
    expect(await byName('Two', 1)).to.equal('hit');
  });

  it('never keeps an answer with errors, nor a mutation', async () => {
    const missing = `{ resolveBindings(tool: "no-such-tool", project: "demo") { slotName } }`;
    expect((await post(missing)).cache).to.equal('miss');
    expect((await post(missing)).cache).to.equal('miss');
    expect((await post(`mutation { createProject(input: { name: "cache-p" }) { project { id } } }`)).cache).to.equal(
      'bypass',
    );
  });

  it('is bypassed by Cache-Control: no-cache', async () => {
    await post(QUERY);
    await post(QUERY);
    const runs = () => server.app.execution.stats.compiled + server.app.execution.stats.fallback;
    const before = runs();
    const fresh = await post(QUERY, undefined, { 'cache-control': 'no-cache' });
    expect(fresh.cache).to.equal('bypass');
    expect(runs() - before, 'the query ran').to.equal(1);
  });

  it('keeps meta-only answers without reading the registry', async () => {
    await post('{ __typename }');
    expect(await post('{ __typename }')).to.deep.include({ cache: 'hit', statements: 0 });
  });

  it('is off with RESPONSE_CACHE=false', async () => {
    const plain = await startServer(sqlite, { demoData: true, responseCache: false });
    try {
      const send = () =>
        fetch(plain.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: QUERY }),
        });
      await send();
      expect((await send()).headers.get('x-registry-cache')).to.equal('bypass');
    } finally {
      await plain.close();
    }
  });

  it('never serves a cached answer to a caller who may not read', async () => {
    const guarded = await startServer(sqlite, {
      demoData: true,
      adminToken: 'admin-token-0123456789',
      readToken: 'read-token-0123456789',
    });
    try {
      const send = (token?: string) =>
        fetch(guarded.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify({ query: QUERY }),
        });
      await send('read-token-0123456789');
      expect((await send('read-token-0123456789')).headers.get('x-registry-cache')).to.equal('hit');
      const anonymous = await send();
      expect(anonymous.status).to.equal(401);
      expect(((await anonymous.json()) as any).errors[0].extensions.code).to.equal('UNAUTHENTICATED');
    } finally {
      await guarded.close();
    }
  });

  describe('ResponseCache', () => {
    it('does not key requests it cannot cache', () => {
      expect(ResponseCache.keyOf({ query: '{ a }', extensions: { persistedQuery: {} } }, undefined)).to.equal(null);
      expect(ResponseCache.keyOf({ query: 1 }, undefined)).to.equal(null);
      expect(ResponseCache.keyOf([{ query: '{ a }' }], undefined)).to.equal(null);
      expect(ResponseCache.keyOf({ query: `{ ${'a '.repeat(5000)} }` }, undefined)).to.equal(null);
      expect(ResponseCache.keyOf({ query: '{ a }' }, 'application/json')).to.not.equal(
        ResponseCache.keyOf({ query: '{ a }' }, 'application/graphql-response+json'),
      );
    });

    it('keys a POST by the text of its body as sent, with its Accept header', () => {
      const body = { query: '{ a }', variables: { x: 1 } };
      const text = JSON.stringify(body);
      const spaced = JSON.stringify(body, null, 2);
      const key = ResponseCache.keyOf(body, 'application/json', 'POST', text);
      expect(key).to.be.a('string').with.length(43);
      expect(ResponseCache.keyOf(JSON.parse(text), 'application/json', 'POST', text)).to.equal(key);
      // Another text of the same request is another entry; another Accept header too; a GET is never keyed by text.
      expect(ResponseCache.keyOf(body, 'application/json', 'POST', spaced)).to.not.equal(key);
      expect(ResponseCache.keyOf(body, 'application/graphql-response+json', 'POST', text)).to.not.equal(key);
      expect(ResponseCache.keyOf(body, 'application/json', 'GET', text)).to.equal(
        ResponseCache.keyOf(body, 'application/json', 'GET'),
      );
      // What cannot be cached is not, whatever its text; nor a body whose text is too long.
      expect(ResponseCache.keyOf({ query: '{ a }', extensions: {} }, undefined, 'POST', '{}')).to.equal(null);
      const long = { query: `{ ${'a '.repeat(5000)} }` };
      expect(ResponseCache.keyOf(long, undefined, 'POST', JSON.stringify(long))).to.equal(null);
    });

    const entryOf = (body: string) => ({
      body: Buffer.from(body),
      contentType: 'application/json',
      version: 1,
      dependencies: [],
      operationName: null,
    });

    it('drops the least recently used entries beyond its byte budget, keeping those that are read', () => {
      const cache = new ResponseCache(16_000);
      for (let i = 0; i < 40; i++) cache.set(`k${i}`, entryOf('x'.repeat(900)));
      expect(cache.size).to.be.within(5, 17);
      expect(cache.get('k0'), 'the oldest went first').to.equal(undefined);
      expect(cache.get('k39')?.body.length).to.equal(900);
      // Read the oldest entry still there, then add one more: the next oldest goes, not the one just read.
      const oldest = Array.from({ length: 40 }, (_, i) => i).find((i) => cache.get(`k${i}`) !== undefined)!;
      cache.set('k40', entryOf('x'.repeat(900)));
      expect(cache.get(`k${oldest}`), 'read recently, so kept').to.not.equal(undefined);
      expect(cache.get(`k${oldest + 1}`), 'the least recently used').to.equal(undefined);
    });

    it('keeps every answer while it has room, and once three quarters full only those asked before', () => {
      const cache = new ResponseCache(16_000);
      expect([cache.worthKeeping('a'), cache.worthKeeping('a')], 'room: kept at once').to.deep.equal([true, true]);
      for (let i = 0; i < 13; i++) cache.set(`k${i}`, entryOf('x'.repeat(900)));
      expect([cache.worthKeeping('b'), cache.worthKeeping('c'), cache.worthKeeping('b')]).to.deep.equal([
        false,
        false,
        true,
      ]);
      expect(cache.worthKeeping('a'), 'seen while there was room').to.equal(true);
    });

    it('budgets by bytes: multi-byte text counts for what it weighs', () => {
      const ascii = new ResponseCache(64_000);
      const wide = new ResponseCache(64_000);
      for (let i = 0; i < 60; i++) {
        ascii.set(`k${i}`, entryOf('x'.repeat(900)));
        wide.set(`k${i}`, entryOf('✓'.repeat(900))); // 3 bytes a character in UTF-8
      }
      expect(wide.size).to.be.below(ascii.size / 2);
      // An entry over an eighth of the budget is not kept at all.
      wide.set('big', entryOf('x'.repeat(8100)));
      expect(wide.get('big')).to.equal(undefined);
    });
  });
});
