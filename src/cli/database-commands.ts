/**
 * The commands that work on the database itself, not through a server:
 * `tool-registry backup`, `restore` and `migrate`. The database is
 * DATABASE_URL's (as the server reads it), or --database.
 */
import { parseArgs } from 'node:util';
import { VARIABLES, type DatabaseConfig } from '../config';
import { BackupError, backupSqlite, restoreSqlite } from '../persistence/sqlite-backup';
import { UsageError } from './args';
import { progressBar } from './progress';
import { serverModules } from './server-modules';

const DATABASE_OPTION = `  --database <url>  The database (default: $DATABASE_URL, else ${VARIABLES.database.default})`;

export const BACKUP_USAGE = `Usage: tool-registry backup --out <file> [options]

Copies the SQLite registry database to <file> with SQLite's online backup API:
safe while the server runs and writes; the copy is the registry as it stood at
one committed version, in one file. On PostgreSQL use pg_dump instead (see
docs/operations.md).

Options:
  --out <file>      Where to write the copy (refused if it exists, unless --force)
${DATABASE_OPTION}
  --force           Replace <file> if it exists
  --no-progress     No progress bar, even on a terminal
  -h, --help        Show this help

Exit codes: 0 written, 1 the copy failed, 2 usage error.`;

export const RESTORE_USAGE = `Usage: tool-registry restore <file> [options]

Restores a backup made by tool-registry backup into the SQLite database.
Refused while a server holds that database (stop it first), and refused over
an existing database unless --force. On PostgreSQL use pg_restore or psql.

Options:
${DATABASE_OPTION}
  --force           Replace the existing database
  --no-progress     No progress bar, even on a terminal
  -h, --help        Show this help

Exit codes: 0 restored, 1 refused or failed, 2 usage error.`;

export const MIGRATE_USAGE = `Usage: tool-registry migrate [options]

Applies the pending database migrations and exits (a server also applies them
when it starts; on PostgreSQL under a lock, so one of many instances does it).
On SQLite it is refused while a server holds the database.

Options:
${DATABASE_OPTION}
  -h, --help        Show this help

Exit codes: 0 migrated (or already current), 1 failed, 2 usage error.`;

/** `tool-registry backup --out <file>`. */
export async function backupCommand(argv: string[]): Promise<number> {
  const parsed = parse('backup', BACKUP_USAGE, argv, ['out', 'force']);
  if (typeof parsed === 'number') return parsed;
  const { values, database } = parsed;
  if (typeof values.out !== 'string' || values.out === '')
    return usage('backup', BACKUP_USAGE, 'name the copy with --out <file>');
  if (database.kind !== 'sqlite' || database.path === ':memory:') return notSqlite('backup', 'pg_dump');
  const progress = progressBar('backup', 'pages', !values['no-progress']);
  try {
    const copy = await backupSqlite(database.path, values.out, {
      replace: values.force === true,
      progress: (done, total) => progress.update(done, total),
    });
    progress.stop();
    console.log(`backed up registry version ${copy.version} (${copy.pages} pages) to ${values.out}`);
    return 0;
  } catch (error) {
    progress.stop();
    return failed('backup', error);
  }
}

/** `tool-registry restore <file>`. */
export async function restoreCommand(argv: string[]): Promise<number> {
  const parsed = parse('restore', RESTORE_USAGE, argv, ['force']);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals, database } = parsed;
  if (positionals.length !== 1) return usage('restore', RESTORE_USAGE, 'name one backup file to restore');
  if (database.kind !== 'sqlite' || database.path === ':memory:') return notSqlite('restore', 'pg_restore or psql');
  const progress = progressBar('restore', 'pages', !values['no-progress']);
  try {
    const copy = await restoreSqlite(positionals[0], database.path, {
      replace: values.force === true,
      progress: (done, total) => progress.update(done, total),
    });
    progress.stop();
    console.log(`restored registry version ${copy.version} (${copy.pages} pages) into ${database.path}`);
    return 0;
  } catch (error) {
    progress.stop();
    return failed('restore', error);
  }
}

/** `tool-registry migrate`. */
export async function migrateCommand(argv: string[]): Promise<number> {
  const parsed = parse('migrate', MIGRATE_USAGE, argv, []);
  if (typeof parsed === 'number') return parsed;
  try {
    const applied = await serverModules().migrateDatabase(parsed.database);
    console.log(applied.length === 0 ? 'the database is current' : `applied ${applied.join(', ')}`);
    return 0;
  } catch (error) {
    console.error(`migrate: ${serverModules().describeStartupError(error)}`);
    return 1;
  }
}

/** The options of these commands; each takes --database, --no-progress and --help, and some of --out and --force. */
const OPTIONS = {
  out: { type: 'string' },
  force: { type: 'boolean' },
  database: { type: 'string' },
  'no-progress': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The command line, or the exit code when there is nothing to run (help, or a usage error). */
function parse(command: string, text: string, argv: string[], own: readonly (keyof typeof OPTIONS)[]) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    return usage(command, text, (error as Error).message);
  }
  for (const name of ['out', 'force'] as const) {
    if (parsed.values[name] !== undefined && !own.includes(name))
      return usage(command, text, `${command} takes no --${name}`);
  }
  if (command !== 'restore' && parsed.positionals.length > 0) {
    return usage(command, text, `unexpected argument ${JSON.stringify(parsed.positionals[0])}`);
  }
  if (parsed.values.help) {
    console.log(text);
    return 0;
  }
  const url = typeof parsed.values.database === 'string' ? parsed.values.database : process.env.DATABASE_URL;
  let database: DatabaseConfig;
  try {
    database = VARIABLES.database.parse(url?.trim() ? url : undefined, 'DATABASE_URL', process.env);
  } catch (error) {
    return usage(command, text, (error as Error).message);
  }
  return { values: parsed.values, positionals: parsed.positionals, database };
}

function usage(command: string, text: string, message: string): number {
  console.error(`${command}: ${message}\n\n${text}`);
  return 2;
}

function notSqlite(command: string, instead: string): number {
  console.error(`${command}: the database is not a SQLite file; on PostgreSQL use ${instead} (see docs/operations.md)`);
  return 1;
}

function failed(command: string, error: unknown): number {
  if (error instanceof BackupError || error instanceof UsageError) {
    console.error(`${command}: ${error.message}`);
    return 1;
  }
  console.error(`${command}: ${String((error as Error)?.message ?? error).split('\n')[0]}`);
  return 1;
}
