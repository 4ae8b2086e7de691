import { expect } from 'chai';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { bootstrap } from '../../src/main';
import { postgres, POSTGRES_ADMIN_URL, requirePostgres, sqlite } from '../support/backends';
import { runToExit, spawnServer } from '../support/process-server';
import { startServer, type TestServer } from '../support/server';
import pino from 'pino';

/**
 * Permissions do not bind root, so as root the server runs as `nobody`
 * (the files it must not write stay root's); as anyone else, modes suffice.
 */
const NOBODY = { uid: 65534, gid: 65534 };
const asRoot = process.getuid?.() === 0;

describe('a database the server cannot write [sqlite, real process]', function () {
  // A process that starts does not exit: it is killed after 20 s, and the test fails.
  this.timeout(40_000);
  let folder: string;
  let home: string;
  let path: string;

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'registry-read-only-'));
    home = mkdtempSync(join(tmpdir(), 'registry-home-'));
    chmodSync(folder, 0o755);
    chmodSync(home, 0o777);
    path = join(folder, 'registry.sqlite');
    // A real, migrated database, as a server left it.
    const server = await startServer(sqlite, { database: { kind: 'sqlite', path }, demoData: true });
    await server.close();
  });
  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  const start = () =>
    runToExit({ DATABASE_URL: `sqlite:${path}`, HOME: home, DEMO_DATA: 'false' }, 20_000, asRoot ? NOBODY : undefined);

  function expectOneLine(result: { code: number | null; stderr: string; stdout: string }, pattern: RegExp): void {
    expect(result.code, result.stderr + result.stdout).to.equal(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines, result.stderr).to.have.length(1);
    expect(lines[0]).to.match(pattern);
  }

  it('refuses to start, in one line, when the database file is read-only', async () => {
    if (asRoot)
      chownSync(folder, NOBODY.uid, NOBODY.gid); // the folder is writable, the file (root's, 0644) is not
    else chmodSync(path, 0o444);
    expectOneLine(
      await start(),
      /^registry: cannot start: the database file .*registry\.sqlite is not writable \(check its owner and permissions\)$/,
    );
  });

  it('refuses to start, in one line, when the folder of the database file is read-only', async () => {
    if (asRoot)
      chownSync(path, NOBODY.uid, NOBODY.gid); // the file is writable, the folder (root's, 0755) is not
    else chmodSync(folder, 0o555);
    try {
      expectOneLine(
        await start(),
        /^registry: cannot start: the folder .*registry-read-only-\w+ is not writable, and SQLite writes its -wal and -shm files there \(check its owner and permissions\)$/,
      );
    } finally {
      chmodSync(folder, 0o755);
    }
  });
});

describe('a database file that becomes read-only while the server runs [sqlite, real process]', () => {
  it('is reported at /readyz (503, with the reason, no path) until it is writable again', async function () {
    this.timeout(40_000);
    const folder = mkdtempSync(join(tmpdir(), 'registry-read-only-'));
    chmodSync(folder, 0o777);
    const path = join(folder, 'registry.sqlite');
    const server = await spawnServer(
      { DATABASE_URL: `sqlite:${path}`, HOME: folder },
      { user: asRoot ? NOBODY : undefined },
    );
    const readiness = async () => {
      const response = await fetch(`${server.origin}/readyz`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    try {
      expect((await readiness()).status).to.equal(200);
      chmodSync(path, 0o444);
      expect(await readiness()).to.deep.equal({
        status: 503,
        body: { status: 'unavailable', reason: 'the database file is not writable' },
      });
      chmodSync(path, 0o644);
      expect((await readiness()).status).to.equal(200);
    } finally {
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('a database that refuses writes [postgres]', () => {
  let admin: Client;

  before(async function () {
    await requirePostgres(this);
    admin = new Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
  });
  after(() => admin?.end());

  /** Makes a database read-only (or writable again) for new sessions, and ends the sessions it has. */
  async function setReadOnly(url: string, readOnly: boolean): Promise<void> {
    const name = new URL(url).pathname.slice(1);
    await admin.query(
      readOnly
        ? `ALTER DATABASE ${name} SET default_transaction_read_only = on`
        : `ALTER DATABASE ${name} RESET default_transaction_read_only`,
    );
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
  }

  it('refuses to start, in one line, on a read-only database', async () => {
    const database = await postgres.freshDatabase();
    if (database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    await (await startServer(postgres, { database })).close();
    await setReadOnly(database.url, true);
    let refused: Error | null = null;
    try {
      const app = await bootstrap(
        {
          port: 0,
          host: '127.0.0.1',
          database,
          adminToken: null,
          readToken: null,
          demoData: false,
          production: false,
          logLevel: 'silent',
          introspection: true,
          execution: 'fast',
          responseCache: true,
          recordCache: true,
        },
        { logger: pino({ level: 'silent' }) },
      );
      await app.close();
    } catch (error) {
      refused = error as Error;
    }
    expect(refused?.message).to.match(
      /^the database refuses writes \(cannot execute UPDATE in a read-only transaction\); check that the user of DATABASE_URL may write and that the database is not read-only$/,
    );
  });

  it('reports a database that became read-only at /readyz (503, with the reason), answers writes 503, and recovers', async function () {
    this.timeout(30_000);
    const server: TestServer = await startServer(postgres);
    const url = (server.config.database as { url: string }).url;
    const readiness = async () => {
      const response = await fetch(`${server.origin}/readyz`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    /**
     * Polls /readyz until it gives `status` (and `reason`, when given): the pools reconnect at their own pace
     * after their sessions end, and until they have, /readyz rightly says the database is unavailable.
     */
    const readinessBecomes = async (status: number, reason?: string) => {
      const deadline = Date.now() + 10_000;
      let last = await readiness();
      while (
        (last.status !== status || (reason !== undefined && last.body.reason !== reason)) &&
        Date.now() < deadline
      ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        last = await readiness();
      }
      return last;
    };
    try {
      expect((await readiness()).status).to.equal(200);
      await setReadOnly(url, true);
      expect(await readinessBecomes(503, 'the database refuses writes')).to.deep.equal({
        status: 503,
        body: { status: 'unavailable', reason: 'the database refuses writes' },
      });
      const write = await server.gql(`mutation { createProject(input: { name: "read-only" }) { project { id } } }`);
      expect(write.status).to.equal(503);
      expect(write.body.errors?.[0].extensions?.code).to.equal('SERVICE_UNAVAILABLE');
      await setReadOnly(url, false);
      expect((await readinessBecomes(200)).status).to.equal(200);
      expect(
        (await server.gql(`mutation { createProject(input: { name: "read-only" }) { project { id } } }`)).status,
      ).to.equal(200);
    } finally {
      await server.close();
    }
  });
});
