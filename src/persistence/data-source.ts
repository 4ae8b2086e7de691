import { DataSource, type DataSourceOptions, type Logger } from 'typeorm';
import type { DatabaseConfig } from '../config';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/** How long a SQLite connection waits for a lock held by another connection. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/** Options for a DataSource on the configured database. `role: 'reader'` opens SQLite read-only. */
export function dataSourceOptions(
  database: DatabaseConfig,
  options: { logger?: Logger; role?: 'writer' | 'reader' } = {},
): DataSourceOptions {
  const common = {
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logger: options.logger,
    logging: options.logger ? true : false,
  } as const;
  if (database.kind === 'postgres') {
    return { ...common, type: 'postgres', url: database.url, extra: { max: 10, connectionTimeoutMillis: 5000 } };
  }
  const reader = options.role === 'reader';
  return {
    ...common,
    type: 'better-sqlite3',
    database: database.path,
    // A crash of the process never loses an acknowledged write: WAL with synchronous=FULL syncs the log on every commit.
    enableWAL: !reader && database.path !== ':memory:',
    // The reader is opened read-write but set query_only: a SQLITE_OPEN_READONLY connection cannot share the
    // WAL index (-shm) and may rebuild it from the log on every read transaction, which is many times slower.
    readonly: false,
    timeout: SQLITE_BUSY_TIMEOUT_MS,
    statementCacheSize: 200,
    prepareDatabase: (db: { pragma(source: string): unknown }) => {
      db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
      if (reader) db.pragma('query_only = ON');
      else db.pragma('synchronous = FULL');
    },
  };
}

/** A DataSource for the TypeORM CLI and tools. */
export function createDataSource(database: DatabaseConfig, logger?: Logger): DataSource {
  return new DataSource(dataSourceOptions(database, { logger }));
}
