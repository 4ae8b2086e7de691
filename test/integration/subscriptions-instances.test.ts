import { expect } from 'chai';
import { Client } from 'pg';
import { LISTENER_APPLICATION_NAME } from '../../src/persistence/change-listener';
import { postgres, POSTGRES_ADMIN_URL, requirePostgres, sqlite } from '../support/backends';
import { gqlAt, spawnServer, type ServerProcess } from '../support/process-server';
import { collect, subscriptionClient } from '../support/subscriptions';

const CHANGES = `subscription($after: Int) { registryChanged(afterVersion: $after) { version entityName } }`;

/** Subscribe on one instance, write on another: PostgreSQL NOTIFY carries the version, each instance reads the log. */
describe('subscriptions across two instances on one PostgreSQL (real processes)', function () {
  this.timeout(120_000);
  let a: ServerProcess;
  let b: ServerProcess;
  let database: string;

  before(async function () {
    await requirePostgres(this);
    const config = await postgres.freshDatabase();
    if (config.kind !== 'postgres') throw new Error('expected PostgreSQL');
    database = new URL(config.url).pathname.slice(1);
    [a, b] = await Promise.all([spawnServer({ DATABASE_URL: config.url }), spawnServer({ DATABASE_URL: config.url })]);
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
  });

  it('delivers on B what commits through A, in order', async () => {
    const client = subscriptionClient(b.url);
    try {
      const received = collect<{ version: number; entityName: string }>(
        client,
        CHANGES,
        {},
        (items) => items.length >= 3,
      );
      await sleep(300);
      for (const name of ['one', 'two', 'three'])
        await gqlAt(a.url, `mutation { createProject(input: { name: "${name}" }) { dryRun } }`);
      const { items, errors } = await received;
      expect(errors).to.deep.equal([]);
      expect(items.map((e) => e.entityName)).to.deep.equal(['one', 'two', 'three']);
    } finally {
      await client.dispose();
    }
  });

  it('catches up from the log after its LISTEN connection drops: nothing committed meanwhile is lost', async () => {
    const client = subscriptionClient(b.url);
    try {
      const received = collect<{ version: number; entityName: string }>(
        client,
        CHANGES,
        {},
        (items) => items.length >= 4,
      );
      await sleep(300);
      await gqlAt(a.url, `mutation { createProject(input: { name: "before-drop" }) { dryRun } }`);
      // Cut every LISTEN connection to this database, as a network failure would.
      const admin = new Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      try {
        const cut = await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = $2',
          [LISTENER_APPLICATION_NAME, database],
        );
        expect(cut.rowCount).to.equal(2);
      } finally {
        await admin.end();
      }
      // Written while B has no LISTEN connection.
      for (const name of ['during-1', 'during-2'])
        await gqlAt(a.url, `mutation { createProject(input: { name: "${name}" }) { dryRun } }`);
      await sleep(1500);
      await gqlAt(a.url, `mutation { createProject(input: { name: "after" }) { dryRun } }`);
      const { items, errors } = await received;
      expect(errors).to.deep.equal([]);
      expect(items.map((e) => e.entityName)).to.deep.equal(['before-drop', 'during-1', 'during-2', 'after']);
      const versions = items.map((e) => e.version);
      expect(versions).to.deep.equal([...versions].sort((x, y) => x - y));
    } finally {
      await client.dispose();
    }
  });
});

describe('subscriptions at shutdown (real process)', function () {
  this.timeout(60_000);
  it('SIGTERM closes open subscriptions cleanly with 1001 (going away), inside the drain', async () => {
    const config = await sqlite.freshDatabase();
    if (config.kind !== 'sqlite') throw new Error('expected SQLite');
    const server = await spawnServer({ DATABASE_URL: `sqlite:${config.path}` });
    const client = subscriptionClient(server.url);
    const received = collect(client, CHANGES, {}, () => false, 20_000);
    await sleep(500);
    const exit = server.stop('SIGTERM');
    await received;
    expect((await exit).code).to.equal(0);
    expect(client.closes.map((c) => c.code)).to.deep.equal([1001]);
    await client.dispose();
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
