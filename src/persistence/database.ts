import type { Pool } from 'pg';
import { DataSource, type EntityManager, type QueryRunner } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { DatabaseConfig } from '../config';
import { dataSourceOptions } from './data-source';
import { isDatabaseUnavailable, isTransientConflict } from './sql-errors';
import { SqlDialect, toDialect, type QueryFn } from './sql';
import { StatementCounter, type PersistenceLog } from './statement-counter';
import {
  openPostgresReader,
  openSqliteReader,
  typeormReader,
  poolFigures,
  type PoolFigures,
  type ReadConnection,
} from './read-connection';
import { traceTypeormStatements, type StatementTracer } from './statement-tracing';
import { GroupCommit } from './group-commit';
import { realFileOf, unwritablePart } from './sqlite-file';
import { REGISTRY_STATE } from './tables';

/** What a write transaction can do: raw statements and TypeORM entity writes, on one connection. */
export interface WriteTransaction {
  /** Runs a statement and returns the rows it gives (for INSERT, UPDATE and DELETE: those of RETURNING). */
  readonly query: QueryFn;
  readonly manager: EntityManager;
  readonly sql: SqlDialect;
}

/** How often a PostgreSQL serialization failure or deadlock is retried before it is reported. */
const TRANSIENT_RETRIES = 5;

/**
 * The open database. Writes, migrations and the schema belong to TypeORM (one
 * DataSource). Reads run on connections of their own, opened through the
 * drivers' public APIs (see ./read-connection.ts): on SQLite a second,
 * query-only connection to the same file, so that a read never sees a write
 * that is still in progress (WAL lets them run side by side); on PostgreSQL a
 * pool of its own. `sqlite::memory:` cannot be shared between connections, so
 * there reads go through TypeORM's one connection.
 */
export class Database {
  readonly sql: SqlDialect;
  /** Runs a read statement outside any transaction. */
  readonly read: QueryFn;
  /** The writes, one at a time, sharing commits (./group-commit.ts). */
  private readonly writes: GroupCommit;
  /** PostgreSQL: the connection of the group's transaction, while one is open. */
  private groupRunner: QueryRunner | null = null;

  private constructor(
    private readonly writer: DataSource,
    private readonly reads: ReadConnection,
    readonly counter: StatementCounter,
    /** The SQLite file, for the readiness check; null for PostgreSQL and `:memory:`. */
    private readonly sqliteFile: string | null,
  ) {
    this.sql = new SqlDialect(writer.options.type === 'postgres' ? 'postgres' : 'sqlite');
    this.read = reads.query;
    if (this.sql.dialect === 'postgres') {
      this.writes = new GroupCommit({ run: (sql) => this.runOnGroupConnection(sql) }, { begin: 'BEGIN' });
    } else {
      // TypeORM's SQLite driver has one connection, which every query runner shares.
      const connection = {
        run: async (sql: string) => {
          await writer.createQueryRunner().query(sql);
        },
      };
      // In memory, reads go through the writer's connection: they must not run while a group is open.
      this.writes = new GroupCommit(connection, { waitForJoiners: sqliteFile !== null });
    }
  }

  /**
   * PostgreSQL: a group's statements, on one connection of TypeORM's pool, taken at BEGIN and given back after
   * COMMIT or ROLLBACK (whether it succeeds or not).
   */
  private async runOnGroupConnection(sql: string): Promise<void> {
    if (sql === 'BEGIN') {
      const runner = this.writer.createQueryRunner();
      try {
        await runner.query(sql);
      } catch (error) {
        await runner.release();
        throw error;
      }
      this.groupRunner = runner;
      return;
    }
    const runner = this.groupRunner;
    const ends = sql === 'COMMIT' || sql === 'ROLLBACK';
    // (A rollback after a failed COMMIT: the connection is given back already, with nothing open on it.)
    if (!runner) {
      if (ends) return;
      throw new Error(`${sql}: no transaction is open`);
    }
    try {
      await runner.query(sql);
    } finally {
      if (ends) {
        this.groupRunner = null;
        await runner.release();
      }
    }
  }

  /**
   * Opens the connections. Nothing is migrated yet. `wrapReads` wraps the read connection (the benchmark's
   * server entry uses it: scripts/bench/server-main.ts). `tracer` (when tracing is on) sees every statement.
   */
  static async open(
    config: DatabaseConfig,
    log?: PersistenceLog,
    options: {
      readonly wrapReads?: (reads: ReadConnection) => ReadConnection;
      readonly tracer?: StatementTracer | null;
    } = {},
  ): Promise<Database> {
    const counter = new StatementCounter(log);
    const tracer = options.tracer ?? null;
    const writer = new DataSource(dataSourceOptions(config, { logger: counter }));
    await writer.initialize();
    // After initialize, which sets the DataSource's subscribers from its options.
    if (tracer) traceTypeormStatements(writer, tracer);
    try {
      const sqliteFile = config.kind === 'sqlite' && config.path !== ':memory:' ? realFileOf(config.path) : null;
      const reads = openReads(config, writer, counter, log, tracer);
      return new Database(writer, options.wrapReads ? options.wrapReads(reads) : reads, counter, sqliteFile);
    } catch (error) {
      await writer.destroy();
      throw error;
    }
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
   * Runs `work` in a transaction and commits it, or rolls it back when it
   * throws; settles after the commit. A server's writes run one at a time (on
   * SQLite TypeORM's driver shares one connection; on PostgreSQL each write
   * takes the version row's lock first, so they would wait for each other
   * anyway), and those that wait while one runs share its transaction and
   * commit (./group-commit.ts), where `work` may run more than once before
   * its commit: it must read and write through `tx` only. `rollsBack`: the
   * work is expected to throw so as to roll itself back (a dry run). On
   * PostgreSQL a serialization failure or deadlock is retried.
   */
  write<T>(work: (tx: WriteTransaction) => Promise<T>, options: { rollsBack?: boolean } = {}): Promise<T> {
    const attempt = () => this.writes.write(() => work(this.transactionOn(this.groupConnection())), options.rollsBack);
    return this.dialect === 'postgres' ? this.withRetry(attempt) : attempt();
  }

  /** The connection the open group's transaction runs on (TypeORM's SQLite driver has one, shared by every runner). */
  private groupConnection(): QueryRunner {
    if (this.dialect !== 'postgres') return this.writer.createQueryRunner();
    if (!this.groupRunner) throw new Error('no write transaction is open');
    return this.groupRunner;
  }

  /** The commits so far, the writes they carried, and the writes run again because a write after them in their group failed (group commit). */
  groupCommits(): { commits: number; writes: number; rerun: number } {
    return { ...this.writes.figures };
  }

  /** The connection pools' figures (PostgreSQL: the read path's pool and TypeORM's for writes); none on SQLite. */
  poolFigures(): (PoolFigures & { pool: 'read' | 'write' })[] {
    const figures: (PoolFigures & { pool: 'read' | 'write' })[] = [];
    const read = this.reads.pool?.();
    if (read) figures.push({ pool: 'read', ...read });
    const { driver } = this.writer;
    if (driver instanceof PostgresDriver && driver.master)
      figures.push({ pool: 'write', ...poolFigures(driver.master as Pool) });
    return figures;
  }

  /** Checks that the database answers. */
  async ping(): Promise<void> {
    await this.read('SELECT 1 AS ok');
  }

  /**
   * Throws unless the database accepts writes: an UPDATE of the version row
   * that changes nothing, in a transaction that is always rolled back. It
   * fails on a read-only SQLite file or PostgreSQL database (a standby,
   * default_transaction_read_only, a user without the right to write).
   */
  async probeWrite(): Promise<void> {
    const rollBack = new Error('write probe: roll back');
    const { name, columns } = REGISTRY_STATE;
    try {
      await this.write(
        async (tx) => {
          await tx.query(`UPDATE ${name} SET ${columns.version} = ${columns.version} WHERE ${columns.id} = 1`);
          throw rollBack;
        },
        { rollsBack: true },
      );
    } catch (error) {
      if (error !== rollBack) throw error;
    }
  }

  /**
   * Start-up's check that the database accepts writes (after the migrations):
   * refused in one line that says why, rather than every write failing later.
   */
  async requireWritable(): Promise<void> {
    try {
      await this.probeWrite();
    } catch (error) {
      const reason = String((error as { message?: unknown })?.message ?? error).split('\n')[0];
      const hint =
        this.dialect === 'postgres'
          ? 'check that the user of DATABASE_URL may write and that the database is not read-only'
          : 'check the owner and permissions of the database file and its folder';
      throw new Error(`the database refuses writes (${reason}); ${hint}`, { cause: error });
    }
  }

  /**
   * Why the database cannot serve requests now, in a few words for /readyz
   * (no paths, no driver text), or null when it can: it answers, is fully
   * migrated, and accepts writes.
   */
  async unreadiness(): Promise<string | null> {
    try {
      await this.ping();
      if (!(await this.isMigrated())) return 'the database is not fully migrated';
    } catch (error) {
      return isDatabaseUnavailable(error) ? 'the database is unavailable' : 'the database does not answer';
    }
    // The open connections may still write a file whose permissions changed; the next start would not.
    const unwritable = this.sqliteFile ? unwritablePart(this.sqliteFile) : null;
    if (unwritable === 'file') return 'the database file is not writable';
    if (unwritable === 'folder') return 'the folder of the database file is not writable';
    try {
      await this.probeWrite();
    } catch {
      return 'the database refuses writes';
    }
    return null;
  }

  /** Waits for queued writes, then closes every connection. */
  async close(): Promise<void> {
    await this.writes.idle();
    await this.reads.close();
    if (this.writer.isInitialized) await this.writer.destroy();
  }

  /** What a write's work is given: the runner's connection, in the transaction open on it. */
  private transactionOn(runner: QueryRunner): WriteTransaction {
    const dialect = this.dialect;
    return {
      // Structured results give the rows the same way on both drivers, RETURNING included.
      query: async <Row>(sql: string, params: readonly unknown[] = []) =>
        (await runner.query(toDialect(dialect, sql), params as unknown[], true)).records as Row[],
      manager: runner.manager,
      sql: this.sql,
    };
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

/** The read connections for a database: see ./read-connection.ts. */
function openReads(
  config: DatabaseConfig,
  writer: DataSource,
  counter: StatementCounter,
  log: PersistenceLog | undefined,
  tracer: StatementTracer | null,
) {
  if (config.kind === 'postgres') {
    return openPostgresReader(
      config.url,
      counter,
      (error) => log?.warn(`an idle database connection was lost: ${error.message}`),
      tracer,
    );
  }
  // In memory, reads go through TypeORM, whose statements the tracer already sees.
  return config.path === ':memory:' ? typeormReader(writer) : openSqliteReader(config.path, counter, tracer);
}
