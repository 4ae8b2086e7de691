/**
 * Live updates that no client can abuse (issue 29): each case a hostile
 * client tried against the server, once fatal, now bounded. The memory cases
 * run the server as a real process with a 200 MB heap, as `npm start` does,
 * and read its resident set from /proc.
 */
import { expect } from 'chai';
import { request as httpRequest, type IncomingMessage } from 'node:http';

import { sqlite } from '../support/backends';
import { gqlAt, residentBytes, spawnServer, type ServerProcess } from '../support/process-server';
import { startServer, type TestServer } from '../support/server';
import { rawSubscriber, type ServerMessage } from '../support/subscriptions';
import { capturedLogger } from '../support/logs';

const ADMIN = 'admin-token-0123456789';
const READ = 'read-token-0123456789';
const AS_ADMIN = { authorization: `Bearer ${ADMIN}` };

/** The server runs as `npm start` runs it: compiled, with a heap of at most 200 MB. */
const PRODUCTION_START = { nodeArgs: ['--max-old-space-size=200', '--max-semi-space-size=4'], built: true };

/**
 * The server's resident memory stays under its cap, whatever the clients do: the heap's 200 MB, which V8 may fill
 * before it collects, plus what the process holds beside the heap (code, the SQLite driver, buffers: about 50 MB).
 * Before these limits, each of these cases took the server past it and killed it.
 */
const RSS_CAP = 256 * 1024 * 1024;

const VERSIONS = `subscription($after: Int) { registryChanged(afterVersion: $after) { version } }`;

const isNext = (m: ServerMessage) => m.type === 'next';
const isError = (m: ServerMessage) => m.type === 'error';

/** Runs mutations 15 to a request (the alias limit), each its own transaction, as the admin; fails on any error. */
async function mutate(url: string, fields: string[], headers: Record<string, string> = AS_ADMIN): Promise<void> {
  for (let i = 0; i < fields.length; i += 15) {
    const document = `mutation { ${fields
      .slice(i, i + 15)
      .map((field, k) => `m${k}: ${field}`)
      .join(' ')} }`;
    const { status, body } = await gqlAt(url, document, undefined, headers);
    if (status !== 200 || body.errors) throw new Error(`${status} ${JSON.stringify(body.errors)}`);
  }
}

function projects(from: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `createProject(input: { name: "p${from + i}" }) { registryVersion }`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('live updates, bounded: one socket, many subscribes (case 1)', function () {
  this.timeout(240_000);
  let server: ServerProcess;

  before(async () => {
    server = await spawnServer(
      {
        DATABASE_URL: 'sqlite::memory:',
        MALLOC_ARENA_MAX: '2',
        ADMIN_TOKEN: ADMIN,
        READ_TOKEN: READ,
        LOG_LEVEL: 'info',
      },
      PRODUCTION_START,
    );
  });
  after(() => server?.stop());

  it('takes 100 subscriptions a socket, refuses the rest with TOO_MANY_SUBSCRIPTIONS, and stays under its memory cap over 10 rounds of 15,000 subscribes', async () => {
    let version = 0;
    for (let round = 0; round < 10; round++) {
      const client = await rawSubscriber(server.url, { authorization: `Bearer ${READ}` });
      try {
        for (let id = 0; id < 15_000; id++) client.subscribe(String(id), VERSIONS);
        const refused = await client.waitFor(isError, 14_900, 120_000);
        for (const error of refused) {
          expect(error.payload[0].extensions).to.include({
            code: 'TOO_MANY_SUBSCRIPTIONS',
            limit: 'SUBSCRIPTIONS_PER_CONNECTION',
            max: 100,
          });
          expect(error.payload[0].extensions.requestId).to.be.a('string');
        }
        // The first hundred were taken: each gets the next change.
        expect(refused.some((m) => Number(m.id) < 100)).to.equal(false);
        await mutate(server.url, projects(round, 1));
        version++;
        const delivered = await client.waitFor(isNext, 100);
        expect(new Set(delivered.map((m) => m.id)).size).to.equal(100);
        expect(delivered.every((m) => m.payload.data.registryChanged.version === version)).to.equal(true);
      } finally {
        await client.close();
      }
      expect(residentBytes(server.pid), `RSS after round ${round + 1}`).to.be.below(RSS_CAP);
    }
    expect((await fetch(`${server.origin}/healthz`)).status).to.equal(200);
  });
});

describe('live updates, bounded: closed sockets free their subscriptions (case 2)', function () {
  this.timeout(240_000);

  it('frees a closed socket’s subscriptions at once, with no write to wake them', async () => {
    const server = await startServer(sqlite, { maxSubscriptionsPerConnection: 3000 });
    try {
      const feed = server.app.services.feed;
      for (let round = 0; round < 2; round++) {
        const client = await rawSubscriber(server.url);
        for (let id = 0; id < 1000; id++) client.subscribe(String(id), VERSIONS);
        await until(() => feed.size === 1000);
        await client.close();
        // No write happens: the subscriptions end because their socket closed.
        await until(() => feed.size === 0);
      }
    } finally {
      await server.close();
    }
  });

  it('stays under its memory cap over 10 rounds of 3,000 subscribes and a close, with no write between', async () => {
    const server = await spawnServer(
      {
        DATABASE_URL: 'sqlite::memory:',
        MALLOC_ARENA_MAX: '2',
        WS_MAX_SUBSCRIPTIONS_PER_CONNECTION: '3000',
        LOG_LEVEL: 'info',
      },
      PRODUCTION_START,
    );
    try {
      for (let round = 0; round < 10; round++) {
        const client = await rawSubscriber(server.url);
        for (let id = 0; id < 3000; id++) client.subscribe(String(id), VERSIONS);
        // A ping answered after the subscribes: the server has read them all.
        client.socket.send(JSON.stringify({ type: 'ping' }));
        await client.waitFor((m) => m.type === 'pong', 1, 120_000);
        await client.close();
        expect(residentBytes(server.pid), `RSS after round ${round + 1}`).to.be.below(RSS_CAP);
      }
      // Every place was given back: a new socket may take its full share again.
      const client = await rawSubscriber(server.url);
      try {
        // No token: this server has none configured, so writes are open.
        await mutate(server.url, projects(0, 1), {});
        // From the log, so that each sees the change whenever the server gets to its subscribe.
        for (let id = 0; id < 3000; id++) client.subscribe(String(id), VERSIONS, { after: 0 });
        expect(await client.waitFor(isNext, 3000, 120_000)).to.have.length(3000);
        expect(client.messages.filter(isError)).to.deep.equal([]);
      } finally {
        await client.close();
      }
    } finally {
      await server.stop();
    }
  });
});

describe('live updates, bounded: replay to clients that do not read (case 3)', function () {
  this.timeout(300_000);
  let server: ServerProcess;

  before(async () => {
    server = await spawnServer(
      { DATABASE_URL: 'sqlite::memory:', MALLOC_ARENA_MAX: '2', ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'info' },
      PRODUCTION_START,
    );
    // 200 entries with 600 binding changes each: a tool whose slot flips between failed and optional in 600 projects.
    await mutate(server.url, [`registerResourceType(input: { name: "vcs" }) { registryVersion }`]);
    await mutate(server.url, projects(0, 600));
    const tool = (required: boolean) =>
      `registerTool(input: { name: "t", resourceSlots: [{ name: "x", resourceType: "vcs", required: ${required} }] }) { registryVersion }`;
    await mutate(server.url, [tool(true)]);
    const update = (required: boolean) =>
      `updateTool(input: { name: "t", resourceSlots: [{ name: "x", resourceType: "vcs", required: ${required} }] }) { registryVersion }`;
    await mutate(
      server.url,
      Array.from({ length: 200 }, (_, i) => update(i % 2 === 1)),
    );
  });
  after(() => server?.stop());

  for (const [what, selection] of [
    ['their versions', '{ version }'],
    ['their binding changes', '{ version bindingChanges { toolName projectName before { status } after { status } } }'],
  ] as const) {
    it(`holds back the replay of ${what} while two clients do not read, under its memory cap, and sends it all once they do`, async () => {
      const first = 602;
      const clients = await Promise.all([rawSubscriber(server.url), rawSubscriber(server.url)]);
      try {
        for (const client of clients) {
          client.pause();
          client.subscribe('1', `subscription($after: Int) { registryChanged(afterVersion: $after) ${selection} }`, {
            after: first,
          });
        }
        for (let i = 0; i < 10; i++) {
          await sleep(400);
          expect(residentBytes(server.pid), 'RSS while the clients do not read').to.be.below(RSS_CAP);
        }
        for (const client of clients) client.resume();
        for (const client of clients) {
          const entries = await client.waitFor(isNext, 200, 120_000);
          expect(entries.map((m) => m.payload.data.registryChanged.version)).to.deep.equal(
            Array.from({ length: 200 }, (_, i) => first + 1 + i),
          );
          if (selection.includes('bindingChanges'))
            expect(entries.every((m) => m.payload.data.registryChanged.bindingChanges.length === 600)).to.equal(true);
        }
        expect(residentBytes(server.pid)).to.be.below(RSS_CAP);
      } finally {
        await Promise.all(clients.map((client) => client.close()));
      }
    });
  }

  it('holds back the replay to two event streams (Server-Sent Events) whose clients do not read, under its memory cap', async () => {
    const first = 602;
    const streams = await Promise.all([0, 1].map(() => pausedEventStream(server.origin, first)));
    try {
      for (let i = 0; i < 10; i++) {
        await sleep(400);
        expect(residentBytes(server.pid), 'RSS while the clients do not read').to.be.below(RSS_CAP);
      }
      for (const stream of streams) {
        const versions = await stream.readAll(200);
        expect(versions).to.deep.equal(Array.from({ length: 200 }, (_, i) => first + 1 + i));
      }
    } finally {
      for (const stream of streams) stream.close();
    }
  });
});

/**
 * An event stream of the replay after `after` (with every binding change), whose client reads nothing until
 * readAll: its socket is paused, so the server's writes back up.
 */
async function pausedEventStream(
  origin: string,
  after: number,
): Promise<{ readAll(count: number): Promise<number[]>; close(): void }> {
  const body = JSON.stringify({
    query: `subscription($after: Int) { registryChanged(afterVersion: $after) { version bindingChanges { toolName projectName before { status } after { status } } } }`,
    variables: { after },
  });
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = httpRequest(`${origin}/graphql/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    });
    request.on('response', resolve);
    request.on('error', reject);
    request.end(body);
  });
  expect(response.statusCode).to.equal(200);
  response.pause();
  return {
    async readAll(count) {
      const versions: number[] = [];
      let text = '';
      for await (const chunk of response) {
        text += String(chunk);
        let end: number;
        while ((end = text.indexOf('\n\n')) >= 0) {
          const event = text.slice(0, end);
          text = text.slice(end + 2);
          const data = /^event: next\ndata: (.*)$/s.exec(event);
          if (data) versions.push(JSON.parse(data[1]).data.registryChanged.version);
        }
        if (versions.length >= count) break;
      }
      return versions;
    },
    close: () => response.destroy(),
  };
}

describe('live updates, bounded: a long replay shares the thread (case 4)', function () {
  this.timeout(300_000);
  let server: TestServer;

  before(async function () {
    server = await startServer(sqlite, { database: { kind: 'sqlite', path: ':memory:' } });
    const fields = Array.from(
      { length: 10_000 },
      (_, i) => `createProject(input: { name: "q${i}" }) { registryVersion }`,
    );
    for (let i = 0; i < fields.length; i += 15) {
      const document = `mutation { ${fields
        .slice(i, i + 15)
        .map((field, k) => `m${k}: ${field}`)
        .join(' ')} }`;
      await server.data(document);
    }
  });
  after(() => server?.close());

  it('answers a trivial query and acknowledges a new connection while it replays 10,000 entries', async () => {
    const replaying = await rawSubscriber(server.url);
    try {
      replaying.subscribe('1', VERSIONS, { after: 0 });
      await replaying.waitFor(isNext, 1);
      // Asked once the replay has begun: answered between its slices, long before it ends.
      const answered = await server.gql('{ __typename }');
      expect(answered.body.data).to.deep.equal({ __typename: 'Query' });
      const deliveredByThen = replaying.messages.filter(isNext).length;
      const other = await rawSubscriber(server.url);
      const deliveredByAck = replaying.messages.filter(isNext).length;
      await other.close();
      expect(deliveredByThen, 'entries delivered before the trivial query was answered').to.be.below(2_000);
      expect(deliveredByAck, 'entries delivered before the second connection was acknowledged').to.be.below(4_000);
      const all = await replaying.waitFor(isNext, 10_000, 120_000);
      expect(all.map((m) => m.payload.data.registryChanged.version)).to.deep.equal(
        Array.from({ length: 10_000 }, (_, i) => i + 1),
      );
    } finally {
      await replaying.close();
    }
  });
});

describe('live updates, bounded: bad input, origins and the end of the log (cases 5–7)', function () {
  this.timeout(60_000);
  let server: TestServer;
  const logs = capturedLogger();

  before(async () => {
    server = await startServer(sqlite, { corsOrigins: ['https://app.example.com'] }, { logger: logs.logger });
    await server.data(`mutation { createProject(input: { name: "shop" }) { registryVersion } }`);
  });
  after(() => server?.close());

  it('answers bad subscription variables with BAD_USER_INPUT and a request id, as over HTTP, and logs it (case 5)', async () => {
    const client = await rawSubscriber(server.url);
    try {
      const KINDS = `subscription($after: Int, $kinds: [ChangeKind!]) { registryChanged(afterVersion: $after, kinds: $kinds) { version } }`;
      client.subscribe('big', KINDS, { after: 1e10 });
      client.subscribe('text', KINDS, { after: 'abc' });
      client.subscribe('kind', KINDS, { kinds: ['NOT_A_KIND'] });
      const errors = await client.waitFor(isError, 3);
      for (const error of errors) {
        expect(error.payload[0].extensions.code, JSON.stringify(error)).to.equal('BAD_USER_INPUT');
        expect(error.payload[0].extensions.requestId).to.match(/^[0-9a-f-]{36}$/);
        expect(logs.lines().some((line) => line.requestId === error.payload[0].extensions.requestId)).to.equal(true);
      }
      // Over HTTP the same variables are BAD_USER_INPUT too.
      const overHttp = await server.gql(
        `query($after: Int) { changes(first: 1, filter: { sinceVersion: $after }) { totalCount } }`,
        {
          after: 1e10,
        },
      );
      expect(overHttp.body.errors?.[0]?.extensions?.code).to.equal('BAD_USER_INPUT');
    } finally {
      await client.close();
    }
  });

  it('refuses a WebSocket from a browser on another origin with 403, and takes its own origin, an allowed one, or none (case 6)', async () => {
    const upgrade = (origin?: string) =>
      new Promise<number>((resolve) => {
        const headers: Record<string, string> = origin ? { origin } : {};
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const WebSocket = require('ws') as typeof import('ws');
        const socket = new WebSocket(server.url.replace(/^http/, 'ws'), 'graphql-transport-ws', { headers });
        socket.on('unexpected-response', (_request, response) => {
          resolve(response.statusCode ?? 0);
          socket.terminate();
        });
        socket.on('open', () => {
          resolve(101);
          socket.close();
        });
        socket.on('error', () => undefined);
      });
    expect(await upgrade('https://evil.example')).to.equal(403);
    expect(await upgrade('null')).to.equal(403);
    expect(await upgrade(server.origin)).to.equal(101);
    expect(await upgrade('https://app.example.com')).to.equal(101);
    expect(await upgrade()).to.equal(101);
    const stream = await fetch(`${server.origin}/graphql/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', origin: 'https://evil.example' },
      body: JSON.stringify({ query: VERSIONS }),
    });
    expect(stream.status).to.equal(403);
  });

  it('refuses afterVersion past the end of the log with BAD_USER_INPUT, saying where it ends (case 7)', async () => {
    const client = await rawSubscriber(server.url);
    try {
      client.subscribe('1', VERSIONS, { after: 999_999 });
      const [answer] = await client.waitFor((m) => m.id === '1' && m.type !== 'complete', 1);
      const error = answer.payload.errors?.[0] ?? answer.payload[0];
      expect(error.extensions.code).to.equal('BAD_USER_INPUT');
      expect(error.message).to.include('the log ends at 1');
      expect(error.extensions.requestId).to.be.a('string');
      expect(server.app.services.feed.size).to.equal(0);
    } finally {
      await client.close();
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

describe('live updates, bounded: writers go at the pace of the fan-out', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(sqlite);
  });
  after(() => server?.close());

  it('while anyone subscribes, commits one write at a time, each after the one before it was settled by the fan-out; with nobody, does not wait', async () => {
    const version = async () => (await server.app.versioning.current()).version;
    const start = await version();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let active = true;
    const settling: number[] = [];
    // The feed's pacer, standing in for subscribers who are slow to take the first write's events.
    server.app.services.writes.paceBy({
      active: () => active,
      settled: (v) => {
        settling.push(v);
        return held;
      },
    });
    try {
      const first = server.data(`mutation { createProject(input: { name: "paced-1" }) { registryVersion } }`);
      while (settling.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const second = server.data(`mutation { createProject(input: { name: "paced-2" }) { registryVersion } }`);
      // However long the first write's fan-out takes, the second does not commit.
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await version()).to.equal(start + 1);
      expect(settling).to.deep.equal([start + 1]);
      release();
      const answers = await Promise.all([first, second]);
      expect(answers.map((a) => a.createProject.registryVersion)).to.deep.equal([start + 1, start + 2]);
      expect(settling).to.deep.equal([start + 1, start + 2]);
      // Nobody subscribed: not paced at all.
      active = false;
      await server.data(`mutation { createProject(input: { name: "paced-3" }) { registryVersion } }`);
      expect(settling).to.have.length(2);
    } finally {
      release();
      server.app.services.writes.paceBy({ active: () => false, settled: async () => {} });
    }
  });
});
