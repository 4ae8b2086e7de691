import { expect } from 'chai';
import Fastify from 'fastify';
import { connect } from 'node:net';
import { registerHttpErrorHandlers } from '../../src/http/http-errors';
import { buildInfo } from '../../src/version';
import { sqlite } from '../support/backends';
import { startServer, type TestServer } from '../support/server';

/** Things that must never appear in a response. */
const LEAKS = [
  /\bat .+:\d+:\d+/,
  /SELECT|INSERT|UPDATE|DELETE/,
  /SQLITE_/,
  /QueryFailedError/,
  /node_modules/,
  /\.ts:\d+/,
  /stacktrace/,
];

function expectNoLeak(text: string): void {
  for (const pattern of LEAKS) expect(text, String(pattern)).to.not.match(pattern);
}

describe('HTTP and error hygiene', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(sqlite, { demoData: true });
  });
  after(() => server.close());

  const post = (body: string, contentType = 'application/json') =>
    fetch(server.url, { method: 'POST', headers: { 'content-type': contentType }, body });

  it('answers a malformed JSON body with a JSON 400, never HTML or a stack', async () => {
    const response = await post('{"query": ');
    expect(response.status).to.equal(400);
    expect(response.headers.get('content-type')).to.match(/application\/json/);
    const text = await response.text();
    expect(JSON.parse(text)).to.deep.equal({
      errors: [{ message: 'request body is not valid JSON', extensions: { code: 'BAD_REQUEST' } }],
    });
    expectNoLeak(text);
  });

  it('answers an oversized body with a JSON 413', async () => {
    const response = await post(
      JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(1024 * 1024) } }),
    );
    expect(response.status).to.equal(413);
    expect(((await response.json()) as any).errors[0].extensions.code).to.equal('PAYLOAD_TOO_LARGE');
  });

  /** A JSON text nested `levels` deep: arrays inside arrays. */
  const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

  it('answers a body nested deeper than 64 levels with 400 BAD_REQUEST, before anything walks it', async () => {
    // About 6,000 levels in 12 KB overflowed the stack in JSON.stringify (the response cache's key): a 500 without a request id.
    for (const query of ['{ __typename }', 'query($v: String) { __typename }']) {
      const response = await post(`{"query": ${JSON.stringify(query)}, "variables": {"v": ${nested(6000)}}}`);
      expect(response.status).to.equal(400);
      const text = await response.text();
      expect(JSON.parse(text)).to.deep.equal({
        errors: [{ message: 'request body is nested deeper than 64 levels', extensions: { code: 'BAD_REQUEST' } }],
      });
      expectNoLeak(text);
    }
    // 64 levels are fine: the body is the first, variables the second, so 62 more.
    const deepest = await post(`{"query": "{ __typename }", "variables": {"v": ${nested(62)}}}`);
    expect(deepest.status).to.equal(200);
    expect(await post(`{"query": "{ __typename }", "variables": {"v": ${nested(63)}}}`)).to.have.property(
      'status',
      400,
    );
    // Brackets inside strings are text, not nesting.
    const inString = await post(JSON.stringify({ query: '{ __typename }', variables: { v: nested(500) } }));
    expect(inString.status).to.equal(200);
  });

  it('answers GET variables nested deeper than 64 levels with 400 BAD_REQUEST', async () => {
    // Brackets need no escaping in a query string: 6,000 levels fit in a 12 KB URL.
    const url = `${server.url}?query=${encodeURIComponent('{ __typename }')}&variables=%7B%22v%22:${nested(6000)}%7D`;
    const response = await fetch(url, { headers: { 'apollo-require-preflight': 'true' } });
    expect(response.status).to.equal(400);
    expect(await response.json()).to.deep.equal({
      errors: [{ message: 'variables are nested deeper than 64 levels', extensions: { code: 'BAD_REQUEST' } }],
    });
  });

  it('answers a body that is not valid UTF-8 with 400 BAD_REQUEST, and stores nothing', async () => {
    const mutation = (description: Buffer) =>
      Buffer.concat([
        Buffer.from('{"query": "mutation { createProject(input: { name: \\"utf8-check\\", description: \\"a'),
        description,
        Buffer.from('b\\" }) { project { id } } }"}'),
      ]);
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: mutation(Buffer.from([0xff, 0xfe])),
    });
    expect(response.status).to.equal(400);
    expect(await response.json()).to.deep.equal({
      errors: [{ message: 'request body is not valid UTF-8', extensions: { code: 'BAD_REQUEST' } }],
    });
    expect(
      (await server.data('{ projects(filter: { nameContains: "utf8-check" }) { totalCount } }')).projects.totalCount,
    ).to.equal(0);
    // Valid UTF-8 beyond ASCII passes.
    const accepted = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: mutation(Buffer.from('é✓', 'utf8')),
    });
    expect(accepted.status).to.equal(200);
    expect(((await accepted.json()) as any).errors).to.equal(undefined);
  });

  it('gives an unexpected failure outside GraphQL a request id too, and no detail', async () => {
    const bare = Fastify({ genReqId: () => 'req-1' });
    registerHttpErrorHandlers(bare);
    bare.get('/boom', () => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    const response = await bare.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).to.equal(500);
    expect(response.json()).to.deep.equal({
      errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: 'req-1' } }],
    });
    await bare.close();
  });

  /** Sends raw bytes on a new connection and returns everything the server wrote back before closing it. */
  function rawExchange(request: string): Promise<string> {
    const { hostname, port } = new URL(server.origin);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => socket.end(request));
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(answer));
    });
  }

  /** Status line, headers and JSON body of a raw HTTP/1.1 answer. */
  function parseRaw(answer: string): { status: number; headers: string; body: unknown } {
    const [head, ...rest] = answer.split('\r\n\r\n');
    return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(rest.join('\r\n\r\n')) };
  }

  it('answers a URL too long for the header limit with a GraphQL-shaped 431', async () => {
    const response = await fetch(`${server.url}?query=${'x'.repeat(100 * 1024)}`);
    expect(response.status).to.equal(431);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    expect(await response.json()).to.deep.equal({
      errors: [
        {
          message: 'request headers (the URL included) are larger than the server accepts',
          extensions: { code: 'REQUEST_HEADER_FIELDS_TOO_LARGE' },
        },
      ],
    });
  });

  it('answers broken HTTP framing (a bad chunk size) with a GraphQL-shaped 400', async () => {
    const answer = await rawExchange(
      'POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    );
    const { status, headers, body } = parseRaw(answer);
    expect(status).to.equal(400);
    expect(headers).to.include('content-type: application/json');
    expect(body).to.deep.equal({
      errors: [{ message: 'malformed HTTP request', extensions: { code: 'BAD_REQUEST' } }],
    });
  });

  it('answers both Content-Length and chunked framing with a GraphQL-shaped 400', async () => {
    const answer = await rawExchange(
      'POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
    );
    expect(parseRaw(answer)).to.deep.include({
      status: 400,
      body: { errors: [{ message: 'malformed HTTP request', extensions: { code: 'BAD_REQUEST' } }] },
    });
  });

  it('answers a URL that does not decode with a GraphQL-shaped 400', async () => {
    const answer = await rawExchange('GET /graphql%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const { status, headers, body } = parseRaw(answer);
    expect(status).to.equal(400);
    expect(headers).to.match(/x-request-id: \S+/);
    expect(body).to.deep.equal({
      errors: [{ message: 'the URL is not valid (bad percent-encoding)', extensions: { code: 'BAD_REQUEST' } }],
    });
  });

  it('answers an unknown route with a JSON 404', async () => {
    const response = await fetch(`${server.origin}/nope`);
    expect(response.status).to.equal(404);
    expect(((await response.json()) as any).errors[0].extensions.code).to.equal('NOT_FOUND');
  });

  it('answers a syntax error with 400 and GRAPHQL_PARSE_FAILED', async () => {
    const { status, body } = await server.gql('{ tools { ');
    expect(status).to.equal(400);
    expect(body.errors?.[0].extensions?.code).to.equal('GRAPHQL_PARSE_FAILED');
    expectNoLeak(JSON.stringify(body));
  });

  it('answers an automatic persisted query whose hash does not match with 400 PERSISTED_QUERY_HASH_MISMATCH', async () => {
    const response = await post(
      JSON.stringify({
        query: '{ __typename }',
        extensions: { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } },
      }),
    );
    expect(response.status).to.equal(400);
    expect(await response.json()).to.deep.equal({
      errors: [
        {
          message: 'provided sha does not match query',
          extensions: { code: 'PERSISTED_QUERY_HASH_MISMATCH' },
        },
      ],
    });
    // Other client errors of Apollo's persisted-query protocol keep a client code too.
    const version = await post(
      JSON.stringify({ query: '{ __typename }', extensions: { persistedQuery: { version: 2, sha256Hash: 'x' } } }),
    );
    expect(version.status).to.equal(400);
    expect(((await version.json()) as any).errors[0].extensions).to.deep.equal({ code: 'BAD_REQUEST' });
  });

  it('keeps the standard shape for variable coercion errors', async () => {
    const { status, body } = await server.gql('query($f: Int) { tools(first: $f) { totalCount } }', { f: 'ten' });
    expect(status).to.equal(400);
    expect(body.errors?.[0].extensions?.code).to.equal('BAD_USER_INPUT');
    expect(body.errors?.[0].message).to.match(/Variable "\$f"/);
  });

  it('masks unexpected errors as INTERNAL_SERVER_ERROR, with a request id and no driver text', async () => {
    const broken = await startServer(sqlite);
    try {
      await broken.app.db.close();
      const response = await fetch(broken.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ tools { totalCount } }' }),
      });
      const text = await response.text();
      const body = JSON.parse(text);
      expect(body.errors[0].message).to.equal('Internal server error');
      expect(body.errors[0].extensions.code).to.equal('INTERNAL_SERVER_ERROR');
      expect(body.errors[0].extensions.requestId).to.equal(response.headers.get('x-request-id'));
      expectNoLeak(text);
    } finally {
      await broken.close().catch(() => undefined);
    }
  });

  it('keeps introspection on in production mode', async () => {
    const production = await startServer(sqlite, { production: true, adminToken: 'a-long-enough-admin-token' });
    try {
      const { body } = await production.gql('{ __schema { queryType { name } } }');
      expect(body.data?.__schema.queryType.name).to.equal('Query');
    } finally {
      await production.close();
    }
  });

  it('hides field suggestions ("Did you mean …") in production, and shows them otherwise', async () => {
    const typo = '{ tool(ref: "demo/mixed") { nam } }';
    const development = await server.gql(typo);
    expect(development.body.errors?.[0].message).to.match(/Did you mean "name"/);
    const production = await startServer(sqlite, { production: true, adminToken: 'a-long-enough-admin-token' });
    try {
      const { status, body } = await production.gql(typo);
      expect(status).to.equal(400);
      expect(body.errors?.[0].message).to.not.match(/Did you mean/);
      expect(body.errors?.[0].extensions?.code).to.equal('GRAPHQL_VALIDATION_FAILED');
    } finally {
      await production.close();
    }
  });

  it('turns introspection off with INTROSPECTION=false', async () => {
    const closed = await startServer(sqlite, { introspection: false });
    try {
      const { status, body } = await closed.gql('{ __schema { queryType { name } } }');
      expect(status).to.equal(400);
      expect(body.errors?.[0].message).to.match(/introspection is not allowed/i);
      expect((await closed.gql('{ tools { totalCount } }')).body.errors).to.equal(undefined);
    } finally {
      await closed.close();
    }
  });

  it('gives every response an x-request-id', async () => {
    const response = await post(JSON.stringify({ query: '{ __typename }' }));
    expect(response.headers.get('x-request-id')).to.match(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
  });

  it('answers health and readiness', async () => {
    expect(await (await fetch(`${server.origin}/healthz`)).json()).to.deep.equal({ status: 'ok', ...buildInfo() });
    const ready = await fetch(`${server.origin}/readyz`);
    expect(ready.status).to.equal(200);
  });

  it('reports not ready (503) when the database is gone', async () => {
    const broken = await startServer(sqlite);
    try {
      await broken.app.db.close();
      expect((await fetch(`${broken.origin}/readyz`)).status).to.equal(503);
    } finally {
      await broken.close().catch(() => undefined);
    }
  });
});

/**
 * A client that opens a POST with a Content-Length and then sends its body a
 * byte at a time, `everyMs` apart, until told to stop: what it was answered,
 * and when its connection closed.
 */
function tricklingClient(origin: string, everyMs: number) {
  const { hostname, port } = new URL(origin);
  const body = JSON.stringify({ query: '{ __typename }' });
  let answer = '';
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  const socket = connect(Number(port), hostname, () => {
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    const next = () => {
      if (socket.destroyed || sent >= body.length - 1) return; // never the last byte
      socket.write(body[sent++]);
      timer = setTimeout(next, everyMs);
    };
    next();
  });
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (answer += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return {
    closed: closed.then(() => {
      clearTimeout(timer);
      return { answer, bytesSent: sent };
    }),
    stop() {
      clearTimeout(timer);
      socket.destroy();
    },
  };
}

/** Resolves with `value` after `ms`, to race a promise that may never settle. */
const resolveAfter = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('request bodies that never finish (BODY_TIMEOUT_MS)', function () {
  this.timeout(30_000);

  it('answers a body still incomplete after BODY_TIMEOUT_MS with a GraphQL-shaped 408 REQUEST_TIMEOUT, and closes the connection', async () => {
    const server = await startServer(sqlite, { bodyTimeoutMs: 1500 });
    const client = tricklingClient(server.origin, 1000);
    try {
      const outcome = await Promise.race([client.closed, resolveAfter(10_000, null)]);
      expect(outcome, 'the server closed the connection').to.not.equal(null);
      const [head, ...rest] = outcome!.answer.split('\r\n\r\n');
      expect(Number(head.split(' ')[1]), head).to.equal(408);
      expect(head.toLowerCase()).to.include('content-type: application/json');
      expect(JSON.parse(rest.join('\r\n\r\n'))).to.deep.equal({
        errors: [
          { message: 'the request body did not arrive within 1500 ms', extensions: { code: 'REQUEST_TIMEOUT' } },
        ],
      });
      // The server still answers others, and a body that is slow but complete in time.
      expect((await server.gql('{ __typename }')).status).to.equal(200);
    } finally {
      client.stop();
      await server.close();
    }
  });

  it('takes a body that arrives in pieces within the limit', async () => {
    const server = await startServer(sqlite, { bodyTimeoutMs: 3000 });
    try {
      const { hostname, port } = new URL(server.origin);
      const body = JSON.stringify({ query: '{ __typename }' });
      const answer = await new Promise<string>((resolve, reject) => {
        let text = '';
        const socket = connect(Number(port), hostname, () => {
          socket.write(
            `POST /graphql HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
          );
          setTimeout(() => socket.write(body.slice(5)), 500);
        });
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.on('error', reject);
        socket.on('close', () => resolve(text));
      });
      expect(answer).to.match(/^HTTP\/1\.1 200/);
      expect(answer).to.include('"__typename":"Query"');
    } finally {
      await server.close();
    }
  });

  it('does not hold up shutdown: a body still arriving is cut off, and close() completes', async () => {
    // A limit far beyond the test: only shutdown can end this body.
    const server = await startServer(sqlite, { bodyTimeoutMs: 600_000 });
    const client = tricklingClient(server.origin, 1000);
    try {
      await resolveAfter(1500, null);
      const closing = server.close().then(() => 'closed');
      expect(await Promise.race([closing, resolveAfter(8000, 'still waiting for the body')])).to.equal('closed');
      const outcome = await Promise.race([client.closed, resolveAfter(4000, null)]);
      expect(outcome, "the client's connection was closed").to.not.equal(null);
      const [head, ...rest] = outcome!.answer.split('\r\n\r\n');
      expect(Number(head.split(' ')[1]), head).to.equal(503);
      expect(JSON.parse(rest.join('\r\n\r\n'))).to.deep.equal({
        errors: [
          {
            message: 'the server is shutting down, and the request body had not arrived',
            extensions: { code: 'SHUTTING_DOWN' },
          },
        ],
      });
    } finally {
      client.stop();
      await server.close();
    }
  });
});
