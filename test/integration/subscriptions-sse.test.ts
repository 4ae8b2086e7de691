/**
 * Subscriptions over Server-Sent Events (graphql-sse, /graphql/stream), for
 * clients behind proxies that block WebSockets: the same events, replay,
 * tokens and limits as over WebSocket; and a subscription sent as a plain
 * HTTP request is refused, naming both transports.
 */
import '../support/apollo-dev';
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { expect } from 'chai';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { createClient, type Client as SseClient } from 'graphql-sse';
import { describeEachBackend, postgres, requirePostgres, sqlite } from '../support/backends';
import { capturedLogger } from '../support/logs';
import { gqlAt, spawnServer, type ServerProcess } from '../support/process-server';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';
import { collect, subscriptionClient } from '../support/subscriptions';

const CHANGES = `subscription($after: Int) { registryChanged(afterVersion: $after) { version kind entityName } }`;

interface Entry {
  version: number;
  kind: string;
  entityName: string;
}

/** A graphql-sse client in its default (distinct connections) mode, as a service behind a proxy would use it. */
function sseClient(httpUrl: string, headers: Record<string, string> = {}): SseClient {
  return createClient({ url: `${new URL(httpUrl).origin}/graphql/stream`, headers, retryAttempts: 0 });
}

/** Collects the first `count` results of a subscription over SSE (fails after `timeoutMs`). */
async function collectSse<T>(
  client: SseClient,
  query: string,
  variables: Record<string, unknown>,
  count: number,
  timeoutMs = 20_000,
): Promise<{ items: T[]; errors: any[] }> {
  const items: T[] = [];
  const errors: any[] = [];
  const iterator = client.iterate<Record<string, T>>({ query, variables });
  const timer = setTimeout(() => void iterator.return?.(undefined), timeoutMs);
  try {
    for await (const result of iterator) {
      if (result.errors) errors.push(...result.errors);
      if (result.data) items.push(Object.values(result.data)[0]);
      if (items.length >= count || result.errors) break;
    }
  } catch (error) {
    errors.push(error);
  } finally {
    clearTimeout(timer);
    await iterator.return?.(undefined);
  }
  return { items, errors };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describeEachBackend('subscriptions over Server-Sent Events (graphql-sse on /graphql/stream)', (backend) => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startServer(backend);
  });
  afterEach(() => server.close());

  it('sends each change as it commits, and the same entries as a WebSocket subscriber, in order', async () => {
    const sse = sseClient(server.url);
    const ws = subscriptionClient(server.url);
    try {
      const overSse = collectSse<Entry>(sse, CHANGES, {}, 3);
      const overWs = collect<Entry>(ws, CHANGES, {}, (items) => items.length >= 3);
      await until(() => server.app.services.feed.size === 2);
      const r = registryOf(server);
      await r.type('vcs');
      await r.resource('acme/repo', 'vcs');
      await r.project('shop');
      const [a, b] = await Promise.all([overSse, overWs]);
      expect(a.errors).to.deep.equal([]);
      expect(a.items).to.deep.equal(b.items);
      expect(a.items.map((e) => [e.version, e.kind, e.entityName])).to.deep.equal([
        [1, 'RESOURCE_TYPE', 'vcs'],
        [2, 'RESOURCE', 'acme/repo'],
        [3, 'PROJECT', 'shop'],
      ]);
    } finally {
      sse.dispose();
      await ws.dispose();
    }
  });

  it('replays after afterVersion, then goes on live; ends the subscription when the client goes', async () => {
    const r = registryOf(server);
    for (const name of ['one', 'two', 'three']) await r.project(name);
    const sse = sseClient(server.url);
    try {
      const resumed = collectSse<Entry>(sse, CHANGES, { after: 1 }, 3);
      await until(() => server.app.services.feed.size === 1);
      await r.project('four');
      const { items, errors } = await resumed;
      expect(errors).to.deep.equal([]);
      expect(items.map((e) => e.entityName)).to.deep.equal(['two', 'three', 'four']);
      // The client stopped after three: the stream closed, and the server let the subscription go.
      await until(() => server.app.services.feed.size === 0);
    } finally {
      sse.dispose();
    }
  });

  it('answers a subscription over GET (as EventSource sends it), and refuses what an event stream cannot be', async () => {
    const url = new URL(`${server.origin}/graphql/stream`);
    url.searchParams.set('query', CHANGES);
    url.searchParams.set('variables', JSON.stringify({ after: 0 }));
    const controller = new AbortController();
    const response = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^text\/event-stream/);
    expect(response.headers.get('x-request-id')).to.be.a('string');
    controller.abort();

    const post = (body: unknown, accept = 'text/event-stream') =>
      fetch(`${server.origin}/graphql/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept },
        body: JSON.stringify(body),
      });
    const notAStream = await post({ query: CHANGES }, 'application/json');
    expect(notAStream.status).to.equal(406);
    const query = await post({ query: '{ tools { totalCount } }' });
    expect(query.status).to.equal(400);
    expect(((await query.json()) as any).errors[0].message).to.include('only subscriptions are served');
    const badVariables = await post({ query: CHANGES, variables: { after: 'abc' } });
    expect(badVariables.status).to.equal(400);
    const body = (await badVariables.json()) as any;
    expect(body.errors[0].extensions.code).to.equal('BAD_USER_INPUT');
    expect(body.errors[0].extensions.requestId).to.be.a('string');
  });
});

describe('subscriptions over Server-Sent Events: tokens and limits', function () {
  this.timeout(60_000);

  it('with READ_TOKEN set, refuses a stream without a token (401) and serves one with it', async () => {
    const server = await startServer(sqlite, {
      adminToken: 'admin-token-0123456789',
      readToken: 'read-token-0123456789',
    });
    try {
      const refused = await fetch(`${server.origin}/graphql/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query: CHANGES }),
      });
      expect(refused.status).to.equal(401);
      expect(((await refused.json()) as any).errors[0].extensions.code).to.equal('UNAUTHENTICATED');
      await server.data(`mutation { createProject(input: { name: "shop" }) { dryRun } }`, undefined, {
        authorization: 'Bearer admin-token-0123456789',
      });
      const sse = sseClient(server.url, { authorization: 'Bearer read-token-0123456789' });
      try {
        const { items, errors } = await collectSse<Entry>(sse, CHANGES, { after: 0 }, 1);
        expect(errors).to.deep.equal([]);
        expect(items.map((e) => e.entityName)).to.deep.equal(['shop']);
      } finally {
        sse.dispose();
      }
    } finally {
      await server.close();
    }
  });

  it('counts streams in the process’s subscriptions (WS_MAX_SUBSCRIPTIONS), with WebSockets', async () => {
    const server = await startServer(sqlite, { maxSubscriptions: 2 });
    const ws = subscriptionClient(server.url);
    const sse = sseClient(server.url);
    try {
      const first = collect(ws, CHANGES, {}, () => false, 5_000);
      const second = collectSse(sse, CHANGES, {}, 1, 5_000);
      await until(() => server.app.services.feed.size === 2);
      const third = await fetch(`${server.origin}/graphql/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query: CHANGES }),
      });
      expect(third.status).to.equal(503);
      expect(((await third.json()) as any).errors[0].extensions).to.include({
        code: 'SERVICE_UNAVAILABLE',
        limit: 'SUBSCRIPTIONS',
      });
      const fourth = await collect(subscriptionClient(server.url), CHANGES, {}, () => true, 3000);
      expect(JSON.stringify(fourth.errors)).to.include('SERVICE_UNAVAILABLE');
      await Promise.all([first, second]);
    } finally {
      sse.dispose();
      await ws.dispose();
      await server.close();
    }
  });
});

describe('subscriptions over Server-Sent Events: a client that does not read', function () {
  this.timeout(180_000);

  it('is sent nothing more while it does not read, and then everything, in order', async () => {
    const server = await startServer(sqlite, { database: { kind: 'sqlite', path: ':memory:' } });
    try {
      // 100 entries of 200 binding changes, selected under 6 aliases: each event is over 100 KB.
      const r = registryOf(server);
      await r.type('vcs');
      for (let i = 0; i < 200; i += 15)
        await server.data(
          `mutation { ${Array.from({ length: Math.min(15, 200 - i) }, (_, k) => `m${k}: createProject(input: { name: "p${i + k}" }) { dryRun }`).join(' ')} }`,
        );
      const tool = (required: boolean) =>
        `{ name: "t", resourceSlots: [{ name: "x", resourceType: "vcs", required: ${required} }] }`;
      await server.data(`mutation { registerTool(input: ${tool(true)}) { dryRun } }`);
      const after = (await server.data(`mutation { createProject(input: { name: "mark" }) { registryVersion } }`))
        .createProject.registryVersion as number;
      for (let i = 0; i < 100; i++)
        await server.data(`mutation { updateTool(input: ${tool(i % 2 === 1)}) { dryRun } }`);
      const selection = Array.from(
        { length: 6 },
        (_, i) => `c${i}: bindingChanges { toolName projectName slotName before { status } after { status } }`,
      ).join(' ');
      const response = await new Promise<IncomingMessage>((resolve, reject) => {
        const request = httpRequest(`${server.origin}/graphql/stream`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        });
        request.on('response', resolve);
        request.on('error', reject);
        request.end(
          JSON.stringify({
            query: `subscription($after: Int) { registryChanged(afterVersion: $after) { version ${selection} } }`,
            variables: { after },
          }),
        );
      });
      response.pause();
      const feed = server.app.services.feed;
      const start = feed.delivered;
      await sleep(1500);
      // What the socket's buffers hold, and a few events waiting to be written: not the 100.
      const whilePaused = feed.delivered - start;
      expect(whilePaused).to.be.below(50);
      let text = '';
      const versions: number[] = [];
      for await (const chunk of response) {
        text += String(chunk);
        for (const match of text.matchAll(/event: next\ndata: \{"data":\{"registryChanged":\{"version":(\d+)/g))
          versions.push(Number(match[1]));
        text = text.slice(Math.max(0, text.lastIndexOf('event: ')));
        if (new Set(versions).size >= 100) break;
      }
      response.destroy();
      expect([...new Set(versions)]).to.deep.equal(Array.from({ length: 100 }, (_, i) => after + 1 + i));
    } finally {
      await server.close();
    }
  });
});

describe('subscriptions sent as plain HTTP requests', function () {
  this.timeout(60_000);
  let server: TestServer;
  const logs = capturedLogger();
  before(async () => {
    server = await startServer(sqlite, { logLevel: 'info' }, { logger: logs.logger });
  });
  after(() => server.close());

  it('refuses them with 400, naming both transports, and logs them as refused requests, not server errors', async () => {
    const plain = await server.gql(CHANGES);
    expect(plain.status).to.equal(400);
    expect(plain.body.errors?.[0]?.extensions?.code).to.equal('BAD_REQUEST');
    for (const transport of ['WebSocket', 'graphql-ws', 'Server-Sent Events', 'graphql-sse', '/graphql/stream'])
      expect(plain.body.errors?.[0]?.message).to.include(transport);

    // Apollo Client 4 without a split link sends subscriptions over HTTP, as multipart.
    const client = new ApolloClient({
      cache: new InMemoryCache(),
      link: ApolloLink.from([new HttpLink({ uri: server.url })]),
    });
    const error = await new Promise<any>((resolve) => {
      const subscription = client.subscribe({ query: gql(CHANGES) }).subscribe({
        next: (result: any) => {
          if (result.error) {
            subscription.unsubscribe();
            resolve(result.error);
          }
        },
        error: resolve,
      });
    });
    expect(JSON.stringify(error)).to.include('/graphql/stream');
    await sleep(50);
    const lines = logs.lines();
    expect(lines.filter((line) => line.level >= 50)).to.deep.equal([]);
    expect(lines.some((line) => line.msg === 'request completed' && line.statusCode === 400)).to.equal(true);
  });
});

describe('subscriptions over Server-Sent Events across two instances on one PostgreSQL (real processes)', function () {
  this.timeout(120_000);
  let a: ServerProcess;
  let b: ServerProcess;

  before(async function () {
    await requirePostgres(this);
    const config = await postgres.freshDatabase();
    if (config.kind !== 'postgres') throw new Error('expected PostgreSQL');
    [a, b] = await Promise.all([spawnServer({ DATABASE_URL: config.url }), spawnServer({ DATABASE_URL: config.url })]);
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
  });

  it('gives an SSE subscriber on B and a WebSocket subscriber on A the same events, and the SSE one resumes with afterVersion', async () => {
    const sse = sseClient(b.url);
    const ws = subscriptionClient(a.url);
    try {
      const overSse = collectSse<Entry>(sse, CHANGES, {}, 4);
      const overWs = collect<Entry>(ws, CHANGES, {}, (items) => items.length >= 4);
      await sleep(500);
      for (const name of ['one', 'two'])
        await gqlAt(a.url, `mutation { createProject(input: { name: "${name}" }) { dryRun } }`);
      for (const name of ['three', 'four'])
        await gqlAt(b.url, `mutation { createProject(input: { name: "${name}" }) { dryRun } }`);
      const [viaSse, viaWs] = await Promise.all([overSse, overWs]);
      expect(viaSse.errors).to.deep.equal([]);
      expect(viaWs.errors).to.deep.equal([]);
      expect(viaSse.items.map((e) => e.entityName)).to.deep.equal(['one', 'two', 'three', 'four']);
      expect(viaSse.items).to.deep.equal(viaWs.items);

      // Resuming on B after the second entry: what came after it, then what commits on A from now on.
      const resumed = collectSse<Entry>(sseClient(b.url), CHANGES, { after: viaSse.items[1].version }, 3);
      await sleep(500);
      await gqlAt(a.url, `mutation { createProject(input: { name: "five" }) { dryRun } }`);
      const { items, errors } = await resumed;
      expect(errors).to.deep.equal([]);
      expect(items.map((e) => e.entityName)).to.deep.equal(['three', 'four', 'five']);
    } finally {
      sse.dispose();
      await ws.dispose();
    }
  });
});

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(5);
  }
}
