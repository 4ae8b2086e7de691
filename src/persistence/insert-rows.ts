/** The INSERT statements of a write transaction, with every value a parameter. */
import type { WriteTransaction } from './database';
import type { SlotDefinition } from '../core/model';
import { columnList, RESOURCE_SLOT, type TableDefinition } from './tables';

/**
 * Rows per INSERT statement: a longer list takes several statements. On
 * SQLite each row is a VALUES tuple of parameters; on PostgreSQL the rows go
 * as one JSON parameter, so a statement can carry more of them (parsing and
 * binding a VALUES list of 1,700 parameters cost PostgreSQL about 3 ms a
 * statement, most of a bulk registration's change log).
 */
const ROWS_PER_INSERT = { sqlite: 100, postgres: 1000 } as const;

/**
 * The INSERT statements for `rows`, with every value bound as a parameter, so
 * that a statement's text depends only on the table and the number of rows
 * (on PostgreSQL, only on the table). (TypeORM's `insert` on SQLite writes
 * numbers into the text: each change-log entry, with its version, was a
 * statement of its own, prepared for one use; the evicted statements held
 * about 40 MB of SQLite's memory outside the JavaScript heap until they were
 * collected, and it stayed with the process.) `tail` follows the rows
 * (ON CONFLICT, RETURNING).
 */
function* insertStatements<C extends Record<string, string>>(
  tx: WriteTransaction,
  table: TableDefinition<C>,
  rows: readonly { readonly [K in keyof C]: unknown }[],
  tail = '',
): Generator<{ sql: string; params: unknown[] }> {
  const keys = Object.keys(table.columns) as (keyof C & string)[];
  const columns = columnList(table.columns);
  const { dialect } = tx.sql;
  const size = ROWS_PER_INSERT[dialect];
  for (let start = 0; start < rows.length; start += size) {
    const chunk = rows.slice(start, start + size);
    if (dialect === 'postgres') {
      // Each row as a JSON object keyed by column name, typed by the table's own row type.
      const json = chunk.map((r) => {
        const object: Record<string, unknown> = {};
        for (const key of keys) object[table.columns[key]] = r[key];
        return object;
      });
      yield {
        sql:
          `INSERT INTO ${table.name} (${columns}) SELECT ${columns} ` +
          `FROM json_populate_recordset(NULL::${table.name}, ?::json)${tail}`,
        params: [JSON.stringify(json)],
      };
    } else {
      const row = `(${keys.map(() => '?').join(', ')})`;
      yield {
        sql: `INSERT INTO ${table.name} (${columns}) VALUES ${chunk.map(() => row).join(', ')}${tail}`,
        params: chunk.flatMap((r) => keys.map((key) => tx.sql.param(r[key]))),
      };
    }
  }
}

/** Inserts rows, in statements of up to ROWS_PER_INSERT. */
export async function insertRows<C extends Record<string, string>>(
  tx: WriteTransaction,
  table: TableDefinition<C>,
  rows: readonly { readonly [K in keyof C]: unknown }[],
): Promise<void> {
  for (const { sql, params } of insertStatements(tx, table, rows)) await tx.query(sql, params);
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
  const inserted = new Set<string>();
  const tail = ` ON CONFLICT (${table.columns.nameKey}) DO NOTHING RETURNING ${table.columns.id}`;
  for (const { sql, params } of insertStatements(tx, table, rows, tail)) {
    for (const r of await tx.query<Record<string, string>>(sql, params)) inserted.add(r[table.columns.id]);
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
