import { expect } from 'chai';
import WebSocket from 'ws';
import { describeEachBackend, sqlite } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';
import { collect, subscriptionClient, wsUrl } from '../support/subscriptions';

const CHANGES = `subscription($after: Int, $kinds: [ChangeKind!]) {
  registryChanged(afterVersion: $after, kinds: $kinds) { version kind operation entityName summary impactCount actor }
}`;
const BINDINGS = `subscription($project: String, $tool: String, $after: Int) {
  bindingsChanged(project: $project, tool: $tool, afterVersion: $after) {
    toolName projectName slotName before { status resourceName } after { status resourceName }
  }
}`;

interface Entry {
  version: number;
  kind: string;
  operation: string;
  entityName: string;
  summary: string;
}

describeEachBackend('subscriptions (graphql-ws over WebSocket on /graphql)', (backend) => {
  let server: TestServer;
  const version = async (): Promise<number> => {
    const d = await server.data(`{ changes(first: 1, filter: { sinceVersion: 0 }) { totalCount } }`);
    void d;
    const all = await server.data(`{ changes(first: 100) { edges { node { version } } pageInfo { hasNextPage } } }`);
    return Math.max(0, ...all.changes.edges.map((e: any) => e.node.version));
  };

  beforeEach(async () => {
    server = await startServer(backend);
  });
  afterEach(() => server.close());

  it('sends each change-log entry as it commits, in order', async () => {
    const client = subscriptionClient(server.url);
    try {
      const received = collect<Entry>(client, CHANGES, {}, (items) => items.length >= 3);
      await waitForSubscribers(server, 1);
      const r = registryOf(server);
      await r.type('vcs');
      await r.resource('acme/repo', 'vcs');
      await r.project('shop');
      const { items, errors } = await received;
      expect(errors).to.deep.equal([]);
      expect(items.map((e) => [e.kind, e.operation, e.entityName])).to.deep.equal([
        ['RESOURCE_TYPE', 'registerResourceType', 'vcs'],
        ['RESOURCE', 'registerResource', 'acme/repo'],
        ['PROJECT', 'createProject', 'shop'],
      ]);
      expect(items.map((e) => e.version)).to.deep.equal([1, 2, 3]);
    } finally {
      await client.dispose();
    }
  });

  it('replays from afterVersion, then goes on live, with no gap and no duplicate, while writes go on', async function () {
    this.timeout(60_000);
    const r = registryOf(server);
    await r.type('vcs');
    const writes = 60;
    // A writer that never pauses; clients subscribe at different points, each from an earlier version.
    let written = 0;
    const writer = (async () => {
      for (; written < writes; written++) await r.project(`p${written}`);
    })();
    const clients = Array.from({ length: 6 }, () => subscriptionClient(server.url));
    try {
      const runs = clients.map(async (client, i) => {
        // Stagger the subscriptions across the writes.
        while (written < i * 8) await sleep(5);
        const from = Math.max(0, (await version()) - 5 - i);
        const { items, errors } = await collect<Entry>(
          client,
          CHANGES,
          { after: from },
          (got) => got.length > 0 && got[got.length - 1].version === writes + 1,
          45_000,
        );
        expect(errors, `client ${i}`).to.deep.equal([]);
        return { from, versions: items.map((e) => e.version) };
      });
      await writer;
      for (const { from, versions } of await Promise.all(runs)) {
        // Every version after `from`, each once, in order (one entry per mutation here).
        expect(versions).to.deep.equal(Array.from({ length: writes + 1 - from }, (_, k) => from + 1 + k));
      }
    } finally {
      await Promise.all(clients.map(async (c) => c.dispose()));
    }
  });

  it('filters by kind; bindingsChanged sends the binding changes, filtered to a project or a tool', async () => {
    const r = registryOf(server);
    await r.type('database');
    await r.resource('prod/orders-db', 'database');
    await r.resource('prod/users-db', 'database');
    await r.project('shop');
    await r.project('other');
    await r.link('shop', 'prod/orders-db', 'db');
    await r.link('shop', 'prod/users-db');
    await r.tool('acme/migrate', [{ name: 'db', resourceType: 'database' }]);
    const from = await version();
    const links = subscriptionClient(server.url);
    const shop = subscriptionClient(server.url);
    const elsewhere = subscriptionClient(server.url);
    try {
      const linkEntries = collect<Entry>(
        links,
        CHANGES,
        { after: from, kinds: ['LINK'] },
        (items) => items.length >= 2,
      );
      const shopChanges = collect<any>(shop, BINDINGS, { project: 'shop', after: from }, (items) => items.length >= 1);
      const otherChanges = collect<any>(elsewhere, BINDINGS, { project: 'other', after: from }, () => false, 3000);
      await server.data(`mutation { createProject(input: { name: "third" }) { dryRun } }`);
      await server.data(`mutation { deleteResource(ref: "prod/orders-db", force: true) { dryRun } }`);
      await server.data(`mutation { linkResource(input: { project: "third", resource: "prod/users-db" }) { dryRun } }`);
      const l = await linkEntries;
      expect(l.items.map((e) => e.summary)).to.deep.equal([
        'unlinked prod/orders-db from project shop',
        'linked prod/users-db to project third',
      ]);
      expect((await shopChanges).items).to.deep.equal([
        {
          toolName: 'acme/migrate',
          projectName: 'shop',
          slotName: 'db',
          before: { status: 'BOUND', resourceName: 'prod/orders-db' },
          after: { status: 'BOUND', resourceName: 'prod/users-db' },
        },
      ]);
      expect((await otherChanges).items).to.deep.equal([]);
    } finally {
      await Promise.all([links.dispose(), shop.dispose(), elsewhere.dispose()]);
    }
  });

  it('applies the query limits and refuses queries and mutations over the socket', async () => {
    const client = subscriptionClient(server.url);
    try {
      const deep = `subscription { registryChanged { ${'summary '.repeat(1)} } }`;
      expect((await collect(client, deep, {}, () => true, 500)).errors).to.deep.equal([]);
      const aliases = `subscription { ${Array.from({ length: 16 }, (_, i) => `a${i}: registryChanged { version }`).join(' ')} }`;
      const refused = await collect(client, aliases, {}, () => true, 3000);
      expect((refused.errors[0] as any)[0]?.extensions?.code ?? (refused.errors[0] as any).extensions?.code).to.equal(
        'GRAPHQL_VALIDATION_FAILED',
      );
      const query = await collect(client, `{ tools { totalCount } }`, {}, () => true, 3000);
      expect(JSON.stringify(query.errors)).to.include('only subscriptions are served over WebSocket');
      const badArg = await collect(client, CHANGES, { after: -1 }, () => true, 3000);
      expect(JSON.stringify(badArg.errors)).to.include('BAD_USER_INPUT');
    } finally {
      await client.dispose();
    }
  });
});

describe('subscriptions: tokens, consumers that do not read', () => {
  it('with READ_TOKEN set, refuses a connection without a token (4403), and takes one from connection_init or the upgrade header', async () => {
    const server = await startServer(sqlite, {
      adminToken: 'admin-token-0123456789',
      readToken: 'read-token-0123456789',
    });
    const anonymous = subscriptionClient(server.url);
    const viaParams = subscriptionClient(server.url, {
      connectionParams: { authorization: 'Bearer read-token-0123456789' },
    });
    const viaHeader = subscriptionClient(server.url, { headers: { authorization: 'Bearer read-token-0123456789' } });
    try {
      const refused = await collect(anonymous, CHANGES, {}, () => true, 3000);
      expect(refused.errors).to.have.length(1);
      expect(anonymous.closes.map((c) => c.code)).to.include(4403);
      await server.data(`mutation { createProject(input: { name: "shop" }) { dryRun } }`, undefined, {
        authorization: 'Bearer admin-token-0123456789',
      });
      for (const client of [viaParams, viaHeader]) {
        const { items, errors } = await collect<Entry>(client, CHANGES, { after: 0 }, (got) => got.length >= 1);
        expect(errors, JSON.stringify(errors)).to.deep.equal([]);
        expect(items.map((e) => e.entityName)).to.deep.equal(['shop']);
      }
    } finally {
      await Promise.all([anonymous.dispose(), viaParams.dispose(), viaHeader.dispose()]);
      await server.close();
    }
  });

  it('sends a consumer that stops reading nothing more until it reads, holding nothing for it, then every entry in order', async function () {
    this.timeout(120_000);
    const server = await startServer(sqlite);
    const r = registryOf(server);
    try {
      await r.type('vcs');
      await r.resource('r/one', 'vcs');
      // Large entries: each re-registration of the tool changes its slot in 300 projects (300 binding changes).
      for (let i = 0; i < 300; i++) await r.project(`p${i}`);
      await r.tool('t', [{ name: 'x', resourceType: 'vcs', required: true }]);
      // A raw socket that stops reading after the handshake: the server's sends back up.
      const socket = new WebSocket(wsUrl(server.url), 'graphql-transport-ws');
      const versions: number[] = [];
      await new Promise((resolve) => socket.once('open', resolve));
      socket.send(JSON.stringify({ type: 'connection_init' }));
      await new Promise((resolve) => socket.once('message', resolve));
      socket.on('message', (data) => {
        const message = JSON.parse((data as Buffer).toString()) as { type: string; payload?: any };
        if (message.type === 'next') versions.push(message.payload.data.registryChanged.version);
      });
      socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: CHANGES_WITH_IMPACT } }));
      await waitForSubscribers(server, 1);
      (socket as unknown as { _socket: { pause(): void } })._socket.pause();
      const feed = server.app.services.feed;
      const deliveredBefore = feed.delivered;
      const toggles = 150;
      for (let i = 0; i < toggles; i++) {
        await server.data(
          `mutation($r: Boolean!) { updateTool(input: { name: "t", resourceSlots: [{ name: "x", resourceType: "vcs", required: $r }] }) { dryRun } }`,
          { r: i % 2 === 1 },
        );
      }
      await sleep(200);
      // What the socket's buffers took, and no more: the rest waits in the log, not in the server's memory.
      expect(feed.delivered - deliveredBefore).to.be.below(toggles / 2);
      expect(feed.size).to.equal(1);
      expect(feed.held.entries).to.be.at.most(2_000);
      (socket as unknown as { _socket: { resume(): void } })._socket.resume();
      for (let i = 0; i < 2000 && versions.length < toggles; i++) await sleep(10);
      expect(versions).to.deep.equal(Array.from({ length: toggles }, (_, k) => 304 + k));
      socket.close();
    } finally {
      await server.close();
    }
  });
});

/**
 * Large messages, so that the socket's buffers fill after few writes (well within the keep-alive interval, after
 * which a client that does not answer pings is dropped with 1006): the binding changes, selected under 6 aliases
 * (each costs 1,000 binding changes, so 6 is what the cost limit allows).
 */
const IMPACT_SELECTION = `{ toolName projectName slotName before { status } after { status } }`;
const CHANGES_WITH_IMPACT = `subscription { registryChanged { version summary ${Array.from(
  { length: 6 },
  (_, i) => `c${i}: bindingChanges ${IMPACT_SELECTION}`,
).join(' ')} } }`;

async function waitForSubscribers(server: TestServer, count: number): Promise<void> {
  for (let i = 0; i < 400 && server.app.services.feed.size < count; i++) await sleep(5);
  expect(server.app.services.feed.size).to.be.at.least(count);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
