import { ConflictError } from '../core/errors';
import { nameKey } from '../core/names';
import { EntryFailure, type WriteReader } from './registry-writes';

/** The kinds of named thing whose names are unique ignoring case, by their table. */
const TABLES = { resource: 'resource', project: 'project', tool: 'tool' } as const;

/**
 * Rule: names that differ only by case are the same name for uniqueness.
 * A name held by another thing (other than `exceptId`) is CONFLICT, saying so
 * when only the case differs. The unique constraint on name_key backs this up
 * against races.
 */
export async function requireFreeName(
  reader: WriteReader,
  kind: keyof typeof TABLES,
  name: string,
  exceptId?: string,
): Promise<void> {
  const holder = await reader.byNameKey(TABLES[kind], nameKey(name));
  if (!holder || holder.id === exceptId) return;
  throw new ConflictError(
    holder.name === name
      ? `a ${kind} named '${name}' already exists`
      : `a ${kind} named '${holder.name}' already exists; names that differ only by case are the same name`,
  );
}

/** The message of a unique-name violation the database caught (a race the check above lost). */
export function nameTakenMessage(kind: keyof typeof TABLES, name: string): string {
  return `a ${kind} named '${name}' (or the same name in another case) already exists`;
}

/**
 * A new thing's record, as inserted unless its name was taken (the writer's
 * insert makes the check, in its own statement): then CONFLICT, saying who
 * holds the name, as `requireFreeName` does.
 */
export async function insertedUnlessTaken<T>(
  reader: WriteReader,
  kind: keyof typeof TABLES,
  name: string,
  inserted: T | null,
): Promise<T> {
  if (inserted !== null) return inserted;
  await requireFreeName(reader, kind, name);
  throw new ConflictError(nameTakenMessage(kind, name));
}

/**
 * insertedUnlessTaken for the records a run step inserted, in its entries' order (null: that name was taken):
 * all of them, or the EntryFailure of the first taken, its CONFLICT saying who holds the name.
 */
export async function allInsertedUnlessTaken<T>(
  reader: WriteReader,
  kind: keyof typeof TABLES,
  names: readonly string[],
  inserted: readonly (T | null)[],
): Promise<T[]> {
  const taken = inserted.indexOf(null);
  if (taken < 0) return inserted as T[];
  throw new EntryFailure(taken, await insertedUnlessTaken(reader, kind, names[taken], null).catch((e: unknown) => e));
}
