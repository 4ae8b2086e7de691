import { DataSource, type DataSourceOptions, type Logger } from 'typeorm';
import type { DatabaseConfig } from '../config';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { configureSqliteConnection, SQLITE_BUSY_TIMEOUT_MS } from './read-connection';

/** Options for TypeORM's DataSource on the configured database: migrations and write transactions. */
export function dataSourceOptions(database: DatabaseConfig, options: { logger?: Logger } = {}): DataSourceOptions {
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
  return {
    ...common,
    type: 'better-sqlite3',
    database: database.path,
    // A crash of the process never loses an acknowledged write: WAL with synchronous=FULL syncs the log on every commit.
    enableWAL: database.path !== ':memory:',
    timeout: SQLITE_BUSY_TIMEOUT_MS,
    statementCacheSize: 200,
    prepareDatabase: (db: { pragma(source: string): unknown }) => {
      configureSqliteConnection(db);
      db.pragma('synchronous = FULL');
    },
  };
}

/** A DataSource for the TypeORM CLI and tools. */
export function createDataSource(database: DatabaseConfig, logger?: Logger): DataSource {
  return new DataSource(dataSourceOptions(database, { logger }));
}
