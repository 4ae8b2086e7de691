import BetterSqlite3 from 'better-sqlite3';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { configureSqliteConnection } from './read-connection';
import { realFileOf } from './sqlite-file';
import { acquireSqliteOwnerLock } from './sqlite-owner-lock';
import { REGISTRY_STATE } from './tables';

/** Told after each step of a copy: pages copied so far of the database's pages. */
export type CopyProgress = (pagesCopied: number, totalPages: number) => void;

/** A copy of a registry database that came out whole. */
export interface CopiedRegistry {
  /** The registry version the copy holds. */
  readonly version: number;
  readonly pages: number;
}

/** A backup or restore that cannot be done, with a one-line reason. */
export class BackupError extends Error {}

/** Steps a copy is cut into while the source stays unchanged, so that progress can be shown. */
const COPY_STEPS = 50;

/**
 * Copies a live SQLite database to `out` with SQLite's online backup API
 * (better-sqlite3's `backup`), while a server may be writing to it: the copy
 * is the database as it stood at one committed moment. It is copied in steps
 * (for progress) as long as no write comes in between; a write from another
 * connection restarts SQLite's copy, and then the rest is copied in one step,
 * which reads one snapshot (WAL lets the server's writes go on meanwhile).
 * The copy is written beside `out` and renamed into place once it checks out,
 * so `out` is never a partial file. An existing `out` is refused unless `replace`.
 */
export async function backupSqlite(
  source: string,
  out: string,
  options: { replace?: boolean; progress?: CopyProgress } = {},
): Promise<CopiedRegistry> {
  if (!existsSync(source)) throw new BackupError(`no database at ${source}`);
  if (realFileOf(out) === realFileOf(source)) throw new BackupError('--out names the database itself');
  if (existsSync(out) && !options.replace) throw new BackupError(`${out} exists; pass --force to replace it`);
  const database = openExisting(source, false);
  try {
    registryVersionOf(database, source);
    const partial = `${out}.partial`;
    rmSync(partial, { force: true });
    try {
      const pages = await copyWithBackupApi(database, partial, options.progress);
      const copied = checkedCopy(partial, pages);
      renameSync(partial, out);
      return copied;
    } catch (error) {
      rmSync(partial, { force: true });
      throw error;
    }
  } finally {
    database.close();
  }
}

/**
 * Restores a backup into the SQLite database at `target`: refused while a
 * server holds that database (its owner lock, ./sqlite-owner-lock.ts, is held
 * here for the whole restore, so none can start meanwhile), and refused over
 * an existing database unless `replace`. The backup must be a registry
 * database that passes SQLite's quick check. It is copied beside the target,
 * the target's -wal and -shm files (which belong to the database being
 * replaced) are removed, and the copy is renamed into place.
 */
export async function restoreSqlite(
  backup: string,
  target: string,
  options: { replace?: boolean; progress?: CopyProgress } = {},
): Promise<CopiedRegistry> {
  if (!existsSync(backup)) throw new BackupError(`no backup at ${backup}`);
  const source = openExisting(backup, true);
  try {
    checkRegistry(source, backup);
    let lock;
    try {
      lock = acquireSqliteOwnerLock(target);
    } catch (error) {
      throw new BackupError(`refusing to restore: ${(error as Error).message}`);
    }
    try {
      if (existsSync(target) && !options.replace) {
        throw new BackupError(`${target} exists; pass --force to replace it (stop its server first)`);
      }
      const file = realFileOf(target);
      const partial = `${file}.restoring`;
      rmSync(partial, { force: true });
      try {
        const pages = await copyWithBackupApi(source, partial, options.progress);
        const copied = checkedCopy(partial, pages);
        for (const leftover of [`${file}-wal`, `${file}-shm`]) rmSync(leftover, { force: true });
        renameSync(partial, file);
        return copied;
      } catch (error) {
        rmSync(partial, { force: true });
        throw error;
      }
    } finally {
      lock.release();
    }
  } finally {
    source.close();
  }
}

/** Opens a database file that must exist (read-only for a backup being restored; a live one as the server's readers do). */
function openExisting(path: string, readonly: boolean): BetterSqlite3.Database {
  let database: BetterSqlite3.Database;
  try {
    database = new BetterSqlite3(path, { fileMustExist: true, readonly });
  } catch (error) {
    throw new BackupError(`cannot open ${path}: ${(error as Error).message}`);
  }
  if (!readonly) {
    configureSqliteConnection(database);
    database.pragma('query_only = ON');
  }
  return database;
}

/** Copies `database` into `destination` page by page (see backupSqlite); the number of pages copied. */
async function copyWithBackupApi(
  database: BetterSqlite3.Database,
  destination: string,
  progress: CopyProgress | undefined,
): Promise<number> {
  let remainingBefore = Number.POSITIVE_INFINITY;
  let restarted = false;
  const done = await database.backup(destination, {
    progress({ totalPages, remainingPages }) {
      progress?.(totalPages - remainingPages, totalPages);
      // A copy that went back up was restarted by a write: copy the rest in one step, one snapshot.
      if (remainingPages > remainingBefore) restarted = true;
      remainingBefore = remainingPages;
      return restarted ? 0x7fffffff : Math.max(100, Math.ceil(totalPages / COPY_STEPS));
    },
  });
  progress?.(done.totalPages, done.totalPages);
  return done.totalPages;
}

/**
 * Checks a finished copy (SQLite's quick check, and a registry version) and
 * makes it one self-contained file: rollback-journal mode, so no -wal or -shm
 * file goes with it (a server switches it back to WAL when it opens it).
 */
function checkedCopy(path: string, pages: number): CopiedRegistry {
  let copy: BetterSqlite3.Database;
  try {
    copy = new BetterSqlite3(path, { fileMustExist: true });
  } catch (error) {
    throw new BackupError(`cannot open the copy ${path}: ${(error as Error).message}`);
  }
  try {
    copy.pragma('journal_mode = DELETE');
    return { version: checkRegistry(copy, path), pages };
  } finally {
    copy.close();
  }
}

/** The registry version of a database that passes SQLite's quick check; a BackupError otherwise. */
function checkRegistry(database: BetterSqlite3.Database, path: string): number {
  let check: unknown;
  try {
    check = database.pragma('quick_check', { simple: true });
  } catch (error) {
    throw new BackupError(`${path} is not a usable SQLite database (${(error as Error).message})`);
  }
  if (check !== 'ok') throw new BackupError(`${path} fails SQLite's quick check: ${String(check)}`);
  return registryVersionOf(database, path);
}

function registryVersionOf(database: BetterSqlite3.Database, path: string): number {
  const { name, columns } = REGISTRY_STATE;
  try {
    const row = database.prepare(`SELECT ${columns.version} AS version FROM ${name} WHERE ${columns.id} = 1`).get() as
      { version: number } | undefined;
    if (row) return Number(row.version);
  } catch {
    // no such table: reported below
  }
  throw new BackupError(`${path} is not a registry database (no registry version in it)`);
}
