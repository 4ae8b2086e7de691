import BetterSqlite3 from 'better-sqlite3';
import { expect } from 'chai';
import { postgres, requirePostgres, sqlite } from '../support/backends';
import { startServer, type TestServer } from '../support/server';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

/** What an outage must look like to a client: 503, SERVICE_UNAVAILABLE, Retry-After, a request id, nothing else. */
async function expectUnavailable(response: Response): Promise<void> {
  expect(response.status).to.equal(503);
  expect(response.headers.get('retry-after')).to.match(/^\d+$/);
  const text = await response.text();
  const body = JSON.parse(text) as { errors: { message: string; extensions: Record<string, unknown> }[] };
  expect(body.errors).to.have.length.greaterThan(0);
  for (const error of body.errors) {
    expect(error.message).to.equal('the database is unavailable; try again shortly');
    expect(error.extensions.code).to.equal('SERVICE_UNAVAILABLE');
    expect(error.extensions.requestId).to.equal(response.headers.get('x-request-id'));
  }
  expect(text).to.not.match(/ECONNREFUSED|SQLITE_|terminated|127\.0\.0\.1|\bat .+:\d+:\d+/);
}

const post = (server: TestServer, query: string, token?: string) =>
  fetch(server.url, {
    method: 'POST',
    // Past the response cache, so every request asks the database.
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-cache',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query }),
  });

describe('a database outage [postgres, through a proxy that can be cut]', function () {
  let proxy: TcpProxy;
  let server: TestServer;

  before(async function () {
    await requirePostgres(this);
    const database = await postgres.freshDatabase();
    if (database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const url = new URL(database.url);
    proxy = await startTcpProxy(url.hostname, Number(url.port || 5432));
    url.port = String(proxy.port);
    server = await startServer(postgres, { database: { kind: 'postgres', url: url.toString() }, demoData: true });
  });
  after(async () => {
    await server?.close();
    await proxy?.close();
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After while the database is down, and recovers without a restart', async () => {
    expect((await post(server, '{ tools { totalCount } }')).status).to.equal(200);
    const token = (
      await server.data(
        `mutation { createApiToken(input: { name: "outage", grants: [{ role: VIEWER, namespace: "acme" }] }) { secret } }`,
      )
    ).createApiToken.secret as string;

    await proxy.cut();
    await expectUnavailable(await post(server, '{ tools { totalCount } }'));
    // An API token is looked up (at the registry version) before anything runs: that too is 503, not 500.
    await expectUnavailable(await post(server, '{ tools { totalCount } }', token));
    await expectUnavailable(
      await post(server, 'mutation { createProject(input: { name: "during-outage" }) { project { id } } }'),
    );
    const ready = await fetch(`${server.origin}/readyz`);
    expect(ready.status).to.equal(503);
    expect(await ready.json()).to.deep.equal({ status: 'unavailable', reason: 'the database is unavailable' });

    await proxy.restore();
    const after = await post(
      server,
      '{ tools { totalCount } projects(filter: { nameContains: "during-outage" }) { totalCount } }',
    );
    expect(after.status).to.equal(200);
    expect(((await after.json()) as any).data).to.deep.equal({ tools: { totalCount: 2 }, projects: { totalCount: 0 } });
    expect((await fetch(`${server.origin}/readyz`)).status).to.equal(200);
  });
});

describe('a database outage [sqlite, the file locked by another process past the busy timeout]', () => {
  it('answers a write 503 SERVICE_UNAVAILABLE with Retry-After, and the next write after the lock is gone succeeds', async function () {
    this.timeout(30_000);
    const server = await startServer(sqlite);
    const intruder = new BetterSqlite3((server.config.database as { path: string }).path);
    try {
      intruder.exec('BEGIN IMMEDIATE');
      // Reads go on (WAL); the write waits for SQLite's busy timeout (5 s), then gives up.
      expect((await post(server, '{ projects { totalCount } }')).status).to.equal(200);
      await expectUnavailable(
        await post(server, 'mutation { createProject(input: { name: "locked" }) { project { id } } }'),
      );
      intruder.exec('ROLLBACK');
      const retried = await post(server, 'mutation { createProject(input: { name: "locked" }) { project { name } } }');
      expect(retried.status).to.equal(200);
      expect(((await retried.json()) as any).data.createProject.project.name).to.equal('locked');
    } finally {
      intruder.close();
      await server.close();
    }
  });
});
