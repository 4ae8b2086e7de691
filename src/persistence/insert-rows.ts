/** The INSERT statements of a write transaction, with every value a parameter. */
import type { WriteTransaction } from './database';
import type { SlotDefinition } from '../core/model';
import { columnList, RESOURCE_SLOT, type TableDefinition } from './tables';

/** Rows per INSERT statement of `insertRows`: a longer list takes several statements. */
const ROWS_PER_INSERT = 100;

/**
 * Inserts rows with every value bound as a parameter, so that a statement's
 * text depends only on the table and the number of rows. (TypeORM's
 * `insert` on SQLite writes numbers into the text: each change-log entry,
 * with its version, was a statement of its own, prepared for one use; the
 * evicted statements held about 40 MB of SQLite's memory outside the
 * JavaScript heap until they were collected, and it stayed with the
 * process.)
 */
export async function insertRows<C extends Record<string, string>>(
  tx: WriteTransaction,
  table: TableDefinition<C>,
  rows: readonly { readonly [K in keyof C]: unknown }[],
): Promise<void> {
  const keys = Object.keys(table.columns) as (keyof C & string)[];
  const columns = columnList(table.columns);
  const row = `(${keys.map(() => '?').join(', ')})`;
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const chunk = rows.slice(start, start + ROWS_PER_INSERT);
    const params = chunk.flatMap((r) => keys.map((key) => tx.sql.param(r[key])));
    await tx.query(`INSERT INTO ${table.name} (${columns}) VALUES ${chunk.map(() => row).join(', ')}`, params);
  }
}

/**
 * Inserts named things' rows, each unless its name (its name_key, unique) is
 * taken, by a row already stored or by an earlier row of the list, in
 * statements of up to ROWS_PER_INSERT: the check the unique constraint makes
 * anyway, without a read before it. Gives the ids of the rows inserted; the
 * caller reads who holds a name only when one was not (CONFLICT's message).
 */
export async function insertManyIfNamesFree<C extends Record<string, string> & { nameKey: string; id: string }>(
  tx: WriteTransaction,
  table: TableDefinition<C>,
  rows: readonly { readonly [K in keyof C]: unknown }[],
): Promise<Set<string>> {
  const keys = Object.keys(table.columns) as (keyof C & string)[];
  const columns = columnList(table.columns);
  const row = `(${keys.map(() => '?').join(', ')})`;
  const inserted = new Set<string>();
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const chunk = rows.slice(start, start + ROWS_PER_INSERT);
    const params = chunk.flatMap((r) => keys.map((key) => tx.sql.param(r[key])));
    const found = await tx.query<Record<string, string>>(
      `INSERT INTO ${table.name} (${columns}) VALUES ${chunk.map(() => row).join(', ')} ` +
        `ON CONFLICT (${table.columns.nameKey}) DO NOTHING RETURNING ${table.columns.id}`,
      params,
    );
    for (const r of found) inserted.add(r[table.columns.id]);
  }
  return inserted;
}

/** The slots of tools, in their order (a slot's ordinal is its place in its tool). */
export async function insertSlots(
  tx: WriteTransaction,
  tools: readonly { readonly tool: { readonly id: string }; readonly slots: readonly SlotDefinition[] }[],
): Promise<void> {
  await insertRows(
    tx,
    RESOURCE_SLOT,
    tools.flatMap(({ tool, slots }) =>
      slots.map((slot, ordinal) => ({
        toolId: tool.id,
        ordinal,
        name: slot.name,
        resourceTypeId: slot.typeId,
        access: slot.access,
        binding: slot.binding,
        staticResourceId: slot.staticResourceId,
        required: slot.required,
      })),
    ),
  );
}
