import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { DatabaseConfig } from '../../src/config';

/** A database engine the integration tests run against. */
export interface Backend {
  readonly name: 'sqlite' | 'postgres';
  /** A new, empty database for one test server. */
  freshDatabase(): Promise<DatabaseConfig>;
}

const scratch = mkdtempSync(join(tmpdir(), 'registry-test-'));
let sqliteCount = 0;

/** SQLite on a fresh temporary file per server (WAL, reader + writer connections, as in production). */
export const sqlite: Backend = {
  name: 'sqlite',
  async freshDatabase() {
    // Made again after cleanUpBackends, which runs after each file (a parallel worker runs several files).
    mkdirSync(scratch, { recursive: true });
    return { kind: 'sqlite', path: join(scratch, `db-${++sqliteCount}.sqlite`) };
  },
};

/** The environment variable that names the whole run (see RUN_ID). */
export const TEST_RUN_ID = 'REGISTRY_TEST_RUN_ID';

/** Where PostgreSQL is: TEST_POSTGRES_URL, else the local server on 127.0.0.1:5432. */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * The run's id, in every database name: one for the whole run (the global setup of test/hooks.ts sets it for the
 * parallel workers), else this process's own. The process id follows it, so two workers never pick one name.
 */
export const RUN_ID = process.env[TEST_RUN_ID] ?? `${process.pid}_${Date.now().toString(36)}`;
const created: string[] = [];
let available: Promise<boolean> | null = null;

async function withAdmin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** True when PostgreSQL answers (checked once per run). */
export function postgresAvailable(): Promise<boolean> {
  return (available ??= withAdmin((c) => c.query('SELECT 1')).then(
    () => true,
    () => false,
  ));
}

/**
 * PostgreSQL, with a new database per server, all named after this run and dropped when it ends. A test database
 * commits without waiting for its WAL to reach the disk (synchronous_commit off): no test crashes PostgreSQL, and
 * waiting on the disk for every commit made the PostgreSQL half of the suite slow whenever the disk was busy.
 */
export const postgres: Backend = {
  name: 'postgres',
  async freshDatabase() {
    const name = `registry_test_${RUN_ID}_${process.pid}_${created.length + 1}`;
    await withAdmin(async (c) => {
      await c.query(`CREATE DATABASE ${name}`);
      await c.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
    });
    created.push(name);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    return { kind: 'postgres', url: url.toString() };
  },
};

/**
 * Removes the SQLite files made so far; called after each file (test/hooks.ts). The PostgreSQL databases are
 * dropped at the end of the run (dropRunDatabases): each DROP DATABASE forces a checkpoint, which would stall
 * the files still running in other workers. Outside a run that drops them (no TEST_RUN_ID), they go here.
 */
export async function cleanUpBackends(): Promise<void> {
  rmSync(scratch, { recursive: true, force: true });
  if (process.env[TEST_RUN_ID] === undefined) await dropDatabases(created.splice(0));
}

/** Drops every database of the run, whichever worker made it (test/hooks.ts's global teardown). */
export async function dropRunDatabases(): Promise<void> {
  if (!(await postgresAvailable())) return;
  const names = await withAdmin(async (c) => {
    const rows = await c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `registry_test_${RUN_ID}_%`,
    ]);
    return rows.rows.map((row) => row.datname);
  });
  await dropDatabases(names);
}

async function dropDatabases(names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  await withAdmin(async (c) => {
    for (const name of names) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}

/** Whether a run must fail rather than skip when PostgreSQL is missing (CI sets REQUIRE_POSTGRES=1). */
export const POSTGRES_REQUIRED = process.env.REQUIRE_POSTGRES === '1';

/**
 * In a `before` hook of a suite that needs PostgreSQL: skips the suite, and
 * says so, when no PostgreSQL answers, unless REQUIRE_POSTGRES=1, where it fails.
 */
export async function requirePostgres(context: Mocha.Context): Promise<void> {
  if (await postgresAvailable()) return;
  if (POSTGRES_REQUIRED)
    throw new Error(`PostgreSQL is required (REQUIRE_POSTGRES=1) but does not answer at ${POSTGRES_ADMIN_URL}`);
  context.skip();
}

/**
 * Defines `suite` once per backend. The PostgreSQL copy is skipped, and says
 * so, when no PostgreSQL answers, unless REQUIRE_POSTGRES=1, where it fails.
 */
export function describeEachBackend(title: string, suite: (backend: Backend) => void): void {
  for (const backend of [sqlite, postgres]) {
    describe(`${title} [${backend.name}]`, function () {
      if (backend === postgres) {
        before(async function () {
          await requirePostgres(this);
        });
      }
      suite(backend);
    });
  }
}
