/**
 * The benchmark on PostgreSQL (`--backend postgres`): the generated SQLite
 * registry copied once into a template database (migrated by the server's
 * own code, then filled table by table), kept between runs like the SQLite
 * cache, and a fresh database made from it for each server run (CREATE
 * DATABASE … TEMPLATE copies files, in seconds even at 1M resources).
 */
import BetterSqlite3 from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { Client } from 'pg';
import { Database } from '../../src/persistence/database';

/** Where the benchmark's PostgreSQL is: BENCH_POSTGRES_URL, else the local server (trust auth, as in the tests). */
export const DEFAULT_POSTGRES_URL = process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** Tables the copy leaves alone: the migrations' own (the template's are the server's). */
const NOT_COPIED = new Set(['migrations', 'typeorm_metadata']);
/** Rows per INSERT of the copy (PostgreSQL takes at most 65,535 parameters a statement). */
const ROWS_PER_INSERT = 1000;

/** A database URL on the same server as `adminUrl`, for `database`. */
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The template database holding the registry of `sqlitePath` (a cached file, named after its generator version,
 * migrations, size and seed): made on first use, then reused. `regenerate` makes it again.
 */
export async function postgresTemplate(
  adminUrl: string,
  sqlitePath: string,
  options: { regenerate?: boolean; log?: (message: string) => void } = {},
): Promise<string> {
  const name = `bench_tpl_${createHash('sha1').update(basename(sqlitePath)).digest('hex').slice(0, 16)}`;
  const building = `${name}_building`;
  const exists = await withClient(adminUrl, async (admin) => {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount && !options.regenerate) return true;
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`DROP DATABASE IF EXISTS ${building}`);
    await admin.query(`CREATE DATABASE ${building}`);
    return false;
  });
  if (exists) return name;
  const started = performance.now();
  const url = databaseUrl(adminUrl, building);
  // The server's own migrations make the schema (and the access rows they seed).
  const db = await Database.open({ kind: 'postgres', url });
  try {
    await db.migrate();
  } finally {
    await db.close();
  }
  const rows = await copyTables(sqlitePath, url);
  await withClient(adminUrl, (admin) => admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`));
  options.log?.(
    `PostgreSQL template ${name}: ${rows} rows copied in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return name;
}

/** Copies every table of the SQLite file into the PostgreSQL database (emptied first); returns the rows copied. */
async function copyTables(sqlitePath: string, url: string): Promise<number> {
  const source = new BetterSqlite3(sqlitePath, { readonly: true });
  try {
    const tables = (
      source.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as {
        name: string;
      }[]
    )
      .map((t) => t.name)
      .filter((name) => !NOT_COPIED.has(name));
    return await withClient(url, async (target) => {
      await target.query('BEGIN');
      // Foreign keys are not checked while loading (the tables go in any order); the source was checked.
      await target.query('SET LOCAL session_replication_role = replica');
      await target.query(`TRUNCATE ${tables.join(', ')}`);
      let copied = 0;
      for (const table of tables) copied += await copyTable(source, target, table);
      await target.query('COMMIT');
      await target.query('ANALYZE');
      return copied;
    });
  } finally {
    source.close();
  }
}

async function copyTable(source: BetterSqlite3.Database, target: Client, table: string): Promise<number> {
  const types = new Map(
    (
      await target.query<{ column_name: string; data_type: string }>(
        'SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1',
        [table],
      )
    ).rows.map((c) => [c.column_name, c.data_type]),
  );
  const columns = (source.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[])
    .map((c) => c.name)
    .filter((c) => types.has(c));
  // SQLite keeps booleans as 0 and 1.
  const convert = columns.map((c) =>
    types.get(c) === 'boolean' ? (v: unknown) => (v === null ? null : v === 1) : null,
  );
  const perInsert = Math.max(1, Math.min(ROWS_PER_INSERT, Math.floor(60_000 / columns.length)));
  let batch: unknown[][] = [];
  let copied = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const params: unknown[] = [];
    const tuples = batch.map((row) => {
      const places = row.map((value, i) => {
        params.push(convert[i] ? convert[i](value) : value);
        return `$${params.length}`;
      });
      return `(${places.join(', ')})`;
    });
    await target.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, params);
    copied += batch.length;
    batch = [];
  };
  const select = source.prepare(`SELECT ${columns.join(', ')} FROM ${table}`).raw(true);
  for (const row of select.iterate() as Iterable<unknown[]>) {
    batch.push(row);
    if (batch.length >= perInsert) await flush();
  }
  await flush();
  return copied;
}

/** A fresh database made from the template, for one server run; `drop` removes it. */
let workingDatabases = 0;

/** An empty database (the server migrates it when it starts); `drop` removes it. */
export async function emptyDatabase(adminUrl: string): Promise<{ readonly url: string; drop(): Promise<void> }> {
  workingDatabases += 1;
  const name = `bench_empty_${process.pid}_${Date.now().toString(36)}_${workingDatabases}`;
  await withClient(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  return {
    url: databaseUrl(adminUrl, name),
    drop: () =>
      withClient(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

export async function workingDatabase(
  adminUrl: string,
  template: string,
): Promise<{ readonly url: string; drop(): Promise<void> }> {
  workingDatabases += 1;
  const name = `bench_run_${process.pid}_${Date.now().toString(36)}_${workingDatabases}`;
  await withClient(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return {
    url: databaseUrl(adminUrl, name),
    drop: () =>
      withClient(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}
