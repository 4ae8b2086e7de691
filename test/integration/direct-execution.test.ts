import { expect } from 'chai';
import { captureLogs } from '../support/logs';
import { sqlite } from '../support/backends';
import { RESOLVE, seedExample } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

/** Past the response cache, so every request executes. */
const FRESH = { 'cache-control': 'no-cache' };

const TOOLS = `query Tools($first: Int) { tools(first: $first) { totalCount edges { node { name resourceSlots { name binding } } } } }`;

/** A response's text without what differs between two servers or two requests: ids and request ids. */
function comparable(text: string): string {
  return text.replace(/"[0-9A-HJKMNP-TV-Z]{26}"/g, '"<id>"').replace(/"requestId":"[^"]*"/g, '"requestId":"<id>"');
}

const ANONYMOUS = '{ tools(first: 1) { totalCount } }';

/** One raw POST: status, the headers a client sees, and the body exactly as sent. */
async function post(server: TestServer, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...FRESH, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    cache: response.headers.get('x-registry-cache'),
    text: comparable(await response.text()),
  };
}

/** Sends the same request through Apollo (EXECUTION=reference) and through a server that answers it directly. */
describe('direct execution: compiled queries answered past Apollo’s pipeline', () => {
  let direct: TestServer;
  let apollo: TestServer;

  before(async function () {
    this.timeout(60_000);
    [direct, apollo] = await Promise.all([startServer(sqlite), startServer(sqlite, { execution: 'reference' })]);
    await Promise.all([seedExample(direct), seedExample(apollo)]);
  });

  after(async () => {
    await Promise.all([direct?.close(), apollo?.close()]);
  });

  const stats = (server: TestServer) => ({ ...server.app.execution.stats });

  /** The request sent to both servers, twice (the first run compiles it in the tests), and the answers. */
  async function both(body: unknown, headers: Record<string, string> = {}) {
    await post(direct, body, headers);
    const before = stats(direct);
    const fast = await post(direct, body, headers);
    const after = stats(direct);
    await post(apollo, body, headers);
    const slow = await post(apollo, body, headers);
    return {
      fast,
      slow,
      direct: after.direct - before.direct,
      declined: after.directDeclined - before.directDeclined,
      rerun: after.rerun - before.rerun,
      fallback: after.fallback - before.fallback,
    };
  }

  it('answers a compiled query directly, with the same status, content type and bytes as Apollo', async () => {
    const r = await both({ query: RESOLVE, variables: { tool: 'demo/mixed', project: 'demo' } });
    expect(r.direct).to.equal(1);
    expect(r.fast).to.deep.equal(r.slow);
    expect(r.fast.status).to.equal(200);
    expect(r.fast.contentType).to.equal('application/json; charset=utf-8');
    expect(JSON.parse(r.fast.text).data.resolveBindings).to.have.length(3);
    expect(r.fast.text.endsWith('}\n')).to.equal(true);
    // And Apollo's server never answers directly.
    expect(stats(apollo).direct).to.equal(0);
  });

  it('sends the content type Apollo chose for the Accept header, once Apollo has answered that header', async () => {
    const accept = { accept: 'application/graphql-response+json' };
    const body = { query: TOOLS, variables: { first: 2 } };
    await post(direct, body); // compiled, and known for the default Accept
    const before = stats(direct).direct;
    const first = await post(direct, body, accept);
    expect(stats(direct).direct - before, 'a new Accept header goes through Apollo').to.equal(0);
    const second = await post(direct, body, accept);
    expect(stats(direct).direct - before).to.equal(1);
    expect(second).to.deep.equal(first);
    expect(second.contentType).to.equal('application/graphql-response+json; charset=utf-8');
  });

  it('hands a run with errors to Apollo: the same errors, hints and status', async () => {
    const r = await both({ query: RESOLVE, variables: { tool: 'demo/mixd', project: 'demo' } });
    expect(r.direct).to.equal(0);
    expect(r.declined).to.equal(1);
    // Apollo's run goes straight to graphql-js: the compiled code, which just failed, is not run a second time.
    expect(r.rerun).to.equal(0);
    expect(r.fallback).to.equal(1);
    expect(r.fast).to.deep.equal(r.slow);
    const error = JSON.parse(r.fast.text).errors[0];
    expect(error.extensions.code).to.equal('NOT_FOUND');
    expect(JSON.stringify(error)).to.include('demo/mixed'); // the "did you mean" hint, added in Apollo's pipeline
  });

  it('refuses out-of-bounds arguments and bad variables as Apollo does, before anything runs', async () => {
    for (const variables of [{ first: 5000 }, { first: 'many' }, { first: -1 }]) {
      const r = await both({ query: TOOLS, variables });
      expect(r.direct, JSON.stringify(variables)).to.equal(0);
      expect(r.fast, JSON.stringify(variables)).to.deep.equal(r.slow);
      expect(r.fast.status, JSON.stringify(variables)).to.equal(400);
    }
  });

  it('leaves to Apollo what it would not take as a plain POST query', async () => {
    const bodies: [string, unknown][] = [
      ['extensions', { query: TOOLS, variables: { first: 1 }, extensions: {} }],
      ['an empty operation name', { query: TOOLS, operationName: '', variables: { first: 1 } }],
      ['another operation name', { query: TOOLS, operationName: 'Other', variables: { first: 1 } }],
      ['variables as a string', { query: TOOLS, variables: '{"first":1}' }],
      ['variables as a list', { query: TOOLS, variables: [1] }],
      ['a batch', [{ query: TOOLS, variables: { first: 1 } }]],
      ['an empty operation name, anonymous query', { query: ANONYMOUS, operationName: '' }],
    ];
    await post(direct, { query: TOOLS, variables: { first: 1 } });
    // Compiled with no operation name: the empty name must not find it (it once did, and Apollo answered 500).
    await post(direct, { query: ANONYMOUS });
    for (const [what, body] of bodies) {
      const r = await both(body);
      expect(r.direct, what).to.equal(0);
      expect(r.fast, what).to.deep.equal(r.slow);
      expect(r.fast.status, what).to.be.oneOf([400, 200]);
    }
    const empty = await post(direct, { query: ANONYMOUS, operationName: '' });
    expect(empty.status).to.equal(400);
    expect(JSON.parse(empty.text).errors[0].extensions.code).to.equal('OPERATION_RESOLUTION_FAILURE');
    // A text/plain POST is refused by CSRF prevention, not answered.
    const plain = await both(JSON.stringify({ query: TOOLS, variables: { first: 1 } }), {
      'content-type': 'text/plain',
    });
    expect(plain.direct).to.equal(0);
    expect(plain.fast).to.deep.equal(plain.slow);
  });

  it('with the operation name given or left out, finds the one compiled for that request', async () => {
    const named = await both({ query: TOOLS, operationName: 'Tools', variables: { first: 1 } });
    expect(named.direct).to.equal(1);
    expect(named.fast).to.deep.equal(named.slow);
    const two = `query A { tools(first: 1) { totalCount } } query B { projects(first: 1) { totalCount } }`;
    const a = await both({ query: two, operationName: 'A' });
    const b = await both({ query: two, operationName: 'B' });
    expect([a.direct, b.direct]).to.deep.equal([1, 1]);
    expect(JSON.parse(a.fast.text).data).to.have.keys('tools');
    expect(JSON.parse(b.fast.text).data).to.have.keys('projects');
    // No operation name for a document with two operations: Apollo's error, never a guess.
    const neither = await both({ query: two });
    expect(neither.direct).to.equal(0);
    expect(neither.fast).to.deep.equal(neither.slow);
    expect(neither.fast.status).to.equal(400);
  });

  it('keeps a direct answer in the response cache like any other', async () => {
    const body = { query: TOOLS, variables: { first: 3 } };
    const cacheable = { 'cache-control': 'max-age=0' };
    await post(direct, body);
    const before = stats(direct).direct;
    const fresh = await post(direct, body, cacheable);
    expect(fresh.cache).to.equal('miss');
    expect(stats(direct).direct - before).to.equal(1);
    const cached = await post(direct, body, cacheable);
    expect(cached.cache).to.equal('hit');
    expect(cached.text).to.equal(fresh.text);
  });
});

describe('direct execution: tokens and the request log', () => {
  it('a caller without the read token gets 401 for a compiled query too', async () => {
    const server = await startServer(sqlite, {
      adminToken: 'the-admin-token-123456',
      readToken: 'the-read-token-12345',
    });
    try {
      const auth = { authorization: 'Bearer the-read-token-12345' };
      const body = { query: TOOLS, variables: { first: 1 } };
      await post(server, body, auth);
      const before = server.app.execution.stats.direct;
      expect((await post(server, body, auth)).status).to.equal(200);
      expect(server.app.execution.stats.direct - before).to.equal(1);
      const refused = await post(server, body);
      expect(refused.status).to.equal(401);
      expect(JSON.parse(refused.text).errors[0].extensions.code).to.equal('UNAUTHENTICATED');
      expect(server.app.execution.stats.direct - before).to.equal(1);
    } finally {
      await server.close();
    }
  });

  it('a direct answer has the same log line as one through Apollo', async () => {
    const lines = await captureLogs(async (logger) => {
      const server = await startServer(sqlite, { logLevel: 'info' }, { logger });
      try {
        await seedExample(server);
        for (let i = 0; i < 2; i++) await post(server, { query: TOOLS, variables: { first: 1 } });
        expect(server.app.execution.stats.direct).to.be.greaterThan(0);
      } finally {
        await server.close();
      }
    });
    const done = lines.filter((l) => l.msg === 'request completed' && l.operationName === 'Tools');
    expect(done).to.have.length(2);
    const shape = ({ operationName, operationType, statusCode, outcome, cache, method, url }: any) => ({
      operationName,
      operationType,
      statusCode,
      outcome,
      cache,
      method,
      url,
    });
    expect(shape(done[1])).to.deep.equal(shape(done[0]));
    expect(shape(done[1])).to.deep.include({ operationType: 'query', statusCode: 200, outcome: 'ok' });
  });
});
