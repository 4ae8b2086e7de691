import BetterSqlite3 from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** Held for the life of the process; the operating system releases it if the process dies. */
export interface OwnerLock {
  release(): void;
}

/**
 * Makes this process the one server on a SQLite database file: an exclusive
 * transaction held open on a small companion file (`<path>-server.lock`). A
 * second server on the same file is refused at start-up, so the in-memory
 * registry version (LocalClock) is always right. Several instances are what
 * PostgreSQL is for.
 */
export function acquireSqliteOwnerLock(path: string): OwnerLock {
  const lockPath = `${path}-server.lock`;
  // A new database's folder may not exist yet (TypeORM would create it a moment later).
  mkdirSync(dirname(lockPath), { recursive: true });
  const connection = new BetterSqlite3(lockPath, { timeout: 0 });
  try {
    connection.pragma('locking_mode = EXCLUSIVE');
    connection.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    connection.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new Error(
        `another registry server is already using ${path}; run one server per SQLite file, or use PostgreSQL for several instances`,
        { cause: error },
      );
    }
    throw error;
  }
  return {
    release() {
      if (connection.open) connection.close();
    },
  };
}
