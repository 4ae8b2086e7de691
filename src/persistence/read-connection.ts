import BetterSqlite3 from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { Pool, type QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import { toDialect, type QueryFn } from './sql';
import type { StatementCounter } from './statement-counter';
import type { StatementTracer } from './statement-tracing';

/**
 * The connections the read path owns, opened through the drivers' public
 * APIs. Hot reads are hand-written, batched SQL sent straight to the driver:
 * TypeORM's query runner costs more per statement than the statements
 * themselves. Every statement is counted.
 */
export interface ReadConnection {
  readonly query: QueryFn;
  close(): Promise<void>;
  /** Its pool's connections (open, idle) and waiting queries, where it has a pool (PostgreSQL). */
  pool?(): PoolFigures;
}

/** A connection pool's figures, for the metrics. */
export interface PoolFigures {
  readonly size: number;
  readonly idle: number;
  readonly waiting: number;
}

/** How long a SQLite connection waits for a lock held by another connection. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * Each SQLite connection's page cache, in KiB (`PRAGMA cache_size` takes it
 * negative). better-sqlite3 builds SQLite with 16 MB a connection instead of
 * SQLite's own 2 MB; with a writer and a reader on a 33 MB registry (the
 * benchmark's default size) that was up to 32 MB of the process's memory,
 * outside the JavaScript heap, holding pages that the record cache and the
 * operating system's file cache hold as well. A page read past it is a copy
 * from the file cache.
 */
export const SQLITE_CACHE_KIB = 4096;

/** The settings every SQLite connection of the server gets: lock wait and page cache. */
export function configureSqliteConnection(connection: { pragma(source: string): unknown }): void {
  connection.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  connection.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
}

/**
 * Bytes of prepared statements kept per SQLite reader. Our SQL has a few dozen
 * texts, times the batch sizes of its `IN (?, …)` lists.
 */
const STATEMENT_CACHE_BYTES = 4 * 1024 * 1024;

/**
 * What a prepared statement is counted as beyond its SQL text (at two bytes a
 * character): SQLite's compiled program, outside the JavaScript heap, which
 * grows with the statement.
 */
const STATEMENT_OVERHEAD_BYTES = 4096;

/** Prepared statements by SQL text, within a budget of bytes; least recently used out first. */
export function statementCache(maxBytes = STATEMENT_CACHE_BYTES): LRUCache<string, BetterSqlite3.Statement> {
  return new LRUCache<string, BetterSqlite3.Statement>({
    maxSize: maxBytes,
    maxEntrySize: maxBytes / 8,
    sizeCalculation: (_statement, sql) => STATEMENT_OVERHEAD_BYTES + 2 * sql.length,
  });
}

/**
 * A second connection to the SQLite file, set `query_only`: WAL lets it read
 * the last committed state while a write transaction is in progress on the
 * writer's connection. It is opened read-write but query_only, because a
 * SQLITE_OPEN_READONLY connection cannot share the WAL index (-shm) and may
 * rebuild it from the log on every read transaction, which is many times slower.
 */
export function openSqliteReader(
  path: string,
  counter: StatementCounter,
  tracer: StatementTracer | null = null,
): ReadConnection {
  const connection = new BetterSqlite3(path, { fileMustExist: true, timeout: SQLITE_BUSY_TIMEOUT_MS });
  configureSqliteConnection(connection);
  connection.pragma('foreign_keys = ON');
  connection.pragma('query_only = ON');
  const statements = statementCache();
  return {
    query: async <Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> => {
      if (!connection.open) throw new Error('the database connection is closed');
      let statement = statements.get(sql);
      if (!statement) {
        statement = connection.prepare(sql);
        statements.set(sql, statement);
      }
      counter.logQuery(sql);
      const prepared = statement;
      return (tracer ? tracer.statement(sql, () => prepared.all(...params)) : statement.all(...params)) as Row[];
    },
    close: async () => {
      statements.clear();
      if (connection.open) connection.close();
    },
  };
}

/** A pool of its own for reads on PostgreSQL, with `?` placeholders rewritten to `$n`. */
export function openPostgresReader(
  url: string,
  counter: StatementCounter,
  onIdleError: (error: Error) => void,
  tracer: StatementTracer | null = null,
): ReadConnection {
  const pool = new Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5000,
    // Each named statement planned once per connection and kept (see StatementNames). With PostgreSQL's default
    // (auto), a statement with a list parameter (`= ANY($1)`) kept being planned at every execution: its generic
    // plan's estimate (ten rows from an unknown list) loses to the custom plans' (one), so the cached plan was never
    // used, and planning a resolve's tool-with-slots join took about 1 ms of PostgreSQL's CPU, against 0.1 to run it.
    options: '-c plan_cache_mode=force_generic_plan',
  });
  const statementNames = new StatementNames();
  // An idle client that loses its connection must not crash the process; the next query reconnects.
  pool.on('error', onIdleError);
  let closed = false;
  return {
    query: async <Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> => {
      if (closed) throw new Error('the database connection is closed');
      const text = toDialect('postgres', sql);
      counter.logQuery(text);
      const name = statementNames.nameOf(text);
      const run = () =>
        pool.query<QueryResultRow>(
          name === undefined ? { text, values: params as unknown[] } : { name, text, values: params as unknown[] },
        );
      const result = await (tracer ? tracer.statement(text, run) : run());
      return result.rows as Row[];
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
    pool: () => poolFigures(pool),
  };
}

/**
 * Names for the read path's statements, so that each connection prepares a
 * statement once and PostgreSQL plans it from then on from its cache instead
 * of at every execution (planning a resolve's three-table join took about
 * 0.4 ms of the server's CPU, its execution 0.05). A name is given to each
 * distinct text, up to `limit` of them (the read path's texts are a fixed set
 * of shapes, lists being one array parameter); a text past that runs unnamed.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly limit = 1000) {}

  nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.limit) {
      name = `r${this.names.size}`;
      this.names.set(text, name);
    }
    return name;
  }

  /** Texts named so far (for tests). */
  get size(): number {
    return this.names.size;
  }
}

/** A pg Pool's connections (open, idle) and the queries waiting for one. */
export function poolFigures(pool: Pool): PoolFigures {
  return { size: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

/**
 * Reads through TypeORM's public `DataSource.query`, for `sqlite::memory:`,
 * whose one connection cannot be shared with a second one. (TypeORM logs, and
 * so counts, these statements itself.)
 */
export function typeormReader(dataSource: DataSource): ReadConnection {
  return {
    query: async <Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> => {
      if (!dataSource.isInitialized) throw new Error('the database connection is closed');
      return dataSource.query<Row[]>(sql, params as unknown[]);
    },
    close: async () => {},
  };
}
