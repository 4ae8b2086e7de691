import { DataSource, type EntityManager, type QueryRunner } from 'typeorm';
import type { DatabaseConfig } from '../config';
import { dataSourceOptions } from './data-source';
import { isTransientConflict } from './sql-errors';
import { SqlDialect, toDialect, type QueryFn } from './sql';
import { StatementCounter, type PersistenceLog } from './statement-counter';

/** What a write transaction can do: raw statements and TypeORM entity writes, on one connection. */
export interface WriteTransaction {
  readonly query: QueryFn;
  readonly manager: EntityManager;
  readonly sql: SqlDialect;
}

/** How often a PostgreSQL serialization failure or deadlock is retried before it is reported. */
const TRANSIENT_RETRIES = 5;

/**
 * The open database. On SQLite it holds two connections to the same file: a
 * writer, used only inside serialized write transactions, and a read-only
 * reader, so that a read never sees a write that is still in progress (WAL lets
 * them run side by side). `sqlite::memory:` cannot be shared between
 * connections, so there the one connection does both. On PostgreSQL, one pool
 * serves both; each transaction gets its own connection.
 */
export class Database {
  readonly sql: SqlDialect;
  /** Runs a read statement outside any transaction. */
  readonly read: QueryFn;
  private writeChain: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly writer: DataSource,
    private readonly reader: DataSource,
    readonly counter: StatementCounter,
  ) {
    this.sql = new SqlDialect(writer.options.type === 'postgres' ? 'postgres' : 'sqlite');
    this.read = this.sql.dialect === 'postgres' ? postgresReads(reader, counter) : sqliteReads(reader, counter);
  }

  /** Opens the connections. Nothing is migrated yet. */
  static async open(config: DatabaseConfig, log?: PersistenceLog): Promise<Database> {
    const counter = new StatementCounter(log);
    const writer = new DataSource(dataSourceOptions(config, { logger: counter, role: 'writer' }));
    await writer.initialize();
    let reader = writer;
    if (config.kind === 'sqlite' && config.path !== ':memory:') {
      reader = new DataSource(dataSourceOptions(config, { logger: counter, role: 'reader' }));
      try {
        await reader.initialize();
      } catch (error) {
        await writer.destroy();
        throw error;
      }
    }
    return new Database(writer, reader, counter);
  }

  /** The SQL dialect in use. */
  get dialect() {
    return this.sql.dialect;
  }

  /** Runs pending migrations; on PostgreSQL under an advisory lock, so that of several instances starting at once exactly one migrates. */
  async migrate(): Promise<string[]> {
    if (this.dialect !== 'postgres') {
      return (await this.writer.runMigrations({ transaction: 'all' })).map((m) => m.name);
    }
    const runner = this.writer.createQueryRunner();
    try {
      await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      try {
        return (await this.writer.runMigrations({ transaction: 'all' })).map((m) => m.name);
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      }
    } finally {
      await runner.release();
    }
  }

  /** True when every migration has been applied. */
  async isMigrated(): Promise<boolean> {
    return !(await this.writer.showMigrations());
  }

  /**
   * Runs `work` in one transaction and commits it, or rolls it back when it
   * throws. Writes in this process run one at a time (TypeORM's SQLite driver
   * shares one connection, so concurrent transactions would collide). On
   * PostgreSQL a serialization failure or deadlock is retried.
   */
  write<T>(work: (tx: WriteTransaction) => Promise<T>): Promise<T> {
    if (this.dialect === 'postgres') return this.withRetry(() => this.transaction(work));
    const result = this.writeChain.then(() => this.transaction(work));
    this.writeChain = result.catch(() => undefined);
    return result;
  }

  /** Checks that the database answers. */
  async ping(): Promise<void> {
    await this.read('SELECT 1 AS ok');
  }

  /** Waits for queued writes, then closes every connection. */
  async close(): Promise<void> {
    await this.writeChain.catch(() => undefined);
    if (this.reader !== this.writer && this.reader.isInitialized) await this.reader.destroy();
    if (this.writer.isInitialized) await this.writer.destroy();
  }

  private async transaction<T>(work: (tx: WriteTransaction) => Promise<T>): Promise<T> {
    const runner: QueryRunner = this.writer.createQueryRunner();
    const sqlite = this.dialect === 'sqlite';
    const dialect = this.dialect;
    try {
      // IMMEDIATE takes SQLite's write lock up front, so a read-then-write transaction never fails to upgrade.
      if (sqlite) await runner.query('BEGIN IMMEDIATE');
      else await runner.startTransaction();
      let result: T;
      try {
        result = await work({
          query: (sql, params = []) => runner.query(toDialect(dialect, sql), params as unknown[]),
          manager: runner.manager,
          sql: this.sql,
        });
      } catch (error) {
        if (sqlite) await runner.query('ROLLBACK');
        else await runner.rollbackTransaction();
        throw error;
      }
      if (sqlite) await runner.query('COMMIT');
      else await runner.commitTransaction();
      return result;
    } finally {
      await runner.release();
    }
  }

  private async withRetry<T>(attempt: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      try {
        return await attempt();
      } catch (error) {
        if (!isTransientConflict(error) || tries > TRANSIENT_RETRIES) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * tries));
      }
    }
  }
}

/** An arbitrary, fixed key for the migration advisory lock. */
const MIGRATION_LOCK_KEY = 7_214_003_117;

/**
 * Reads go straight to the driver connection TypeORM opened, bypassing its
 * query runner: on the hot path its per-statement events and promises cost
 * more than the statement itself. Every statement is still counted.
 */
function sqliteReads(reader: DataSource, counter: StatementCounter): QueryFn {
  const statements = new Map<string, { all(...params: unknown[]): unknown[] }>();
  return async <Row>(sql: string, params: readonly unknown[] = []) => {
    const connection = (
      reader.driver as unknown as {
        databaseConnection?: { prepare(sql: string): { all(...p: unknown[]): unknown[] }; open: boolean };
      }
    ).databaseConnection;
    if (!connection?.open) throw new Error('the database connection is closed');
    let statement = statements.get(sql);
    if (!statement) {
      statement = connection.prepare(sql);
      if (statements.size >= 500) statements.clear();
      statements.set(sql, statement);
    }
    counter.logQuery(sql);
    return statement.all(...params) as Row[];
  };
}

/** PostgreSQL reads on TypeORM's pool, with `?` placeholders rewritten to `$n`. */
function postgresReads(reader: DataSource, counter: StatementCounter): QueryFn {
  return async <Row>(sql: string, params: readonly unknown[] = []) => {
    const pool = (
      reader.driver as unknown as { master?: { query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> } }
    ).master;
    if (!pool || !reader.isInitialized) throw new Error('the database connection is closed');
    const text = toDialect('postgres', sql);
    counter.logQuery(text);
    return (await pool.query(text, params as unknown[])).rows as Row[];
  };
}
