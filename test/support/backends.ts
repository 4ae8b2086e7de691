import { mkdtempSync, rmSync } from 'node:fs';
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
    return { kind: 'sqlite', path: join(scratch, `db-${++sqliteCount}.sqlite`) };
  },
};

/** Where PostgreSQL is: TEST_POSTGRES_URL, else the local server on 127.0.0.1:5432. */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const runId = `${process.pid}_${Date.now().toString(36)}`;
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

/** PostgreSQL, with a new database per server, all named after this run and dropped when it ends. */
export const postgres: Backend = {
  name: 'postgres',
  async freshDatabase() {
    const name = `registry_test_${runId}_${created.length + 1}`;
    await withAdmin((c) => c.query(`CREATE DATABASE ${name}`));
    created.push(name);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    return { kind: 'postgres', url: url.toString() };
  },
};

/** Drops this run's databases and files; called once after every test. */
export async function cleanUpBackends(): Promise<void> {
  rmSync(scratch, { recursive: true, force: true });
  if (created.length === 0) return;
  await withAdmin(async (c) => {
    for (const name of created.splice(0)) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}

/** Whether a run must fail rather than skip when PostgreSQL is missing (CI sets REQUIRE_POSTGRES=1). */
export const POSTGRES_REQUIRED = process.env.REQUIRE_POSTGRES === '1';

/**
 * Defines `suite` once per backend. The PostgreSQL copy is skipped, and says
 * so, when no PostgreSQL answers, unless REQUIRE_POSTGRES=1, where it fails.
 */
export function describeEachBackend(title: string, suite: (backend: Backend) => void): void {
  for (const backend of [sqlite, postgres]) {
    describe(`${title} [${backend.name}]`, function () {
      if (backend === postgres) {
        before(async function () {
          if (await postgresAvailable()) return;
          if (POSTGRES_REQUIRED)
            throw new Error(`PostgreSQL is required (REQUIRE_POSTGRES=1) but does not answer at ${POSTGRES_ADMIN_URL}`);
          this.skip();
        });
      }
      suite(backend);
    });
  }
}
