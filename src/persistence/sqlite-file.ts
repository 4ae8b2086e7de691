import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * What the server needs of a SQLite database file on disk, checked at
 * start-up (and by /readyz) so that a problem is one clear line rather than
 * a driver error on the first write.
 */

/** The file's one real path: symbolic links and `..` resolved; for a file not created yet, its folder's real path. */
export function realFileOf(path: string): string {
  try {
    return realpathSync(path);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
    return join(realpathSync(dirname(path)), basename(path));
  }
}

/**
 * Refuses a file with more than one hard link: SQLite keeps its -wal and
 * -shm files beside the name it was opened by, so a server on another name
 * (even one started after the first stopped or crashed) would not see the
 * writes in the first one's log.
 */
export function refuseHardLinks(path: string, file: string): void {
  let links: number;
  try {
    links = statSync(file).nlink;
  } catch {
    return; // not created yet
  }
  if (links > 1) {
    throw new Error(
      `the database file ${path} has ${links} hard links: SQLite keeps its -wal and -shm files beside each name, so a server on another name would lose writes; remove the other links`,
    );
  }
}

/** Why the server could not write the file (`file`) or create its -wal and -shm files (`folder`), or null. */
export function unwritablePart(file: string): 'file' | 'folder' | null {
  if (!writable(dirname(file))) return 'folder';
  try {
    accessSync(file, constants.W_OK);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') return 'file';
  }
  return null;
}

/** Refuses, in one line, a database file the server could not write, or whose folder it could not write. */
export function requireWritableFile(path: string, file: string): void {
  const part = unwritablePart(file);
  if (part === 'file') throw new Error(`the database file ${path} is not writable (check its owner and permissions)`);
  if (part === 'folder') {
    throw new Error(
      `the folder ${dirname(file)} is not writable, and SQLite writes its -wal and -shm files there (check its owner and permissions)`,
    );
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
