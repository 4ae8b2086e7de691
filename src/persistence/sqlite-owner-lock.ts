import BetterSqlite3 from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { realFileOf, refuseHardLinks, requireWritableFile } from './sqlite-file';

/** Held for the life of the process; the operating system releases it if the process dies. */
export interface OwnerLock {
  release(): void;
}

/**
 * Makes this process the one server on a SQLite database file: an exclusive
 * transaction held open on a small companion file beside the file itself
 * (`<real path>-server.lock`). A second server on the same file is refused at
 * start-up, so the in-memory registry version (LocalClock) is always right.
 * Several instances are what PostgreSQL is for.
 *
 * The lock belongs to the file, not to the name it was given: symbolic links
 * and `..` are resolved first, so every name that leads to the file leads to
 * the same lock. A hard link is a second real name, with no path in common,
 * so a file with more than one hard link is refused outright: SQLite keeps
 * its -wal and -shm files beside the name it was opened by, and a server on
 * another name (even one started after the first stopped or crashed) would
 * not see the writes in the first one's log. A file, or a folder, the
 * server cannot write is refused here too, before anything is written.
 */
export function acquireSqliteOwnerLock(path: string): OwnerLock {
  // A new database's folder may not exist yet (TypeORM would create it a moment later).
  mkdirSync(dirname(path), { recursive: true });
  const file = realFileOf(path);
  requireWritableFile(path, file);
  refuseHardLinks(path, file);
  const connection = new BetterSqlite3(`${file}-server.lock`, { timeout: 0 });
  try {
    connection.pragma('locking_mode = EXCLUSIVE');
    connection.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    connection.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      const which = file === resolve(path) ? path : `${path} (the file ${file})`;
      throw new Error(
        `another registry server is already using ${which}; run one server per SQLite file, or use PostgreSQL for several instances`,
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
