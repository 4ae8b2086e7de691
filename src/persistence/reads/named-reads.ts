/** Reads of the tables of named things (types, resources, projects, tools): by id, by ref, by name, pages. */
import { isIdRef } from '../../core/grammar';
import { nameKey } from '../../core/names';
import type { NamedItem, Page, PageRequest } from '../records';
import {
  PROJECT,
  RESOURCE,
  RESOURCE_TYPE,
  TOOL,
  type ProjectRow,
  type ResourceRow,
  type ResourceTypeRow,
  type ToolRow,
} from '../tables';
import { keysetPage, type Condition } from './keyset-page';
import type { ReadContext } from './read-context';
import { namedItem } from './rows';

/** The tables that hold named things, with their row types. */
export interface NamedTables {
  resource_type: ResourceTypeRow;
  resource: ResourceRow;
  project: ProjectRow;
  tool: ToolRow;
}
/** A table that holds named things. */
export type NamedTable = keyof NamedTables;
export const NAMED = { resource_type: RESOURCE_TYPE, resource: RESOURCE, project: PROJECT, tool: TOOL } as const;

/** Rows of `table` by id, in no order. */
export async function byIds<K extends NamedTable>(
  db: ReadContext,
  table: K,
  columns: string,
  ids: readonly string[],
): Promise<NamedTables[K][]> {
  if (ids.length === 0) return [];
  const { id } = NAMED[table].columns;
  return db.query<NamedTables[K]>(`SELECT ${columns} FROM ${table} r WHERE ${db.sql.inList(`r.${id}`)}`, [
    db.sql.listParam(ids),
  ]);
}

/** Rows of `table` by ref (id or name), in no order. */
export async function byRefs<K extends NamedTable>(
  db: ReadContext,
  table: K,
  columns: string,
  refs: readonly string[],
): Promise<NamedTables[K][]> {
  if (refs.length === 0) return [];
  const named: { id: string; name: string; nameKey?: string } = NAMED[table].columns;
  const { sql, params } = refCondition(
    db,
    { id: `r.${named.id}`, name: `r.${named.name}`, nameKey: named.nameKey && `r.${named.nameKey}` },
    refs,
  );
  return db.query<NamedTables[K]>(`SELECT ${columns} FROM ${table} r WHERE ${sql}`, params);
}

/**
 * The condition that a named row (its `id` and `name` columns) is one of `refs`
 * (ids and names). One list for each kind of ref given, and so one index
 * lookup each; an OR of both lists would make the planner do more work for
 * the usual case of names only.
 *
 * Where the table has a `name_key` (the name lowercased, unique), names are
 * looked up by it too (the same rows: a row whose name is a ref has that
 * ref's key): a unique index tells PostgreSQL's planner that each key is at
 * most one row even before the table has statistics. Without them (a table
 * filled since its last ANALYZE, as a bulk registration into a new database
 * leaves it) it took `name = ANY(64 names)` for a third of the table and
 * scanned all of it: 6.4 ms a lookup at 50,000 resources, against 0.26 ms.
 */
export function refCondition(
  db: ReadContext,
  columns: { readonly id: string; readonly name: string; readonly nameKey?: string },
  refs: readonly string[],
): Condition {
  const ids = refs.filter(isIdRef);
  const names = refs.filter((ref) => !isIdRef(ref));
  const byName = columns.nameKey
    ? `(${db.sql.inList(columns.nameKey)} AND ${db.sql.inList(columns.name)})`
    : db.sql.inList(columns.name);
  const sql = [ids.length > 0 ? db.sql.inList(columns.id) : null, names.length > 0 ? byName : null]
    .filter(Boolean)
    .join(' OR ');
  return {
    sql,
    params: [
      ...(ids.length > 0 ? [db.sql.listParam(ids)] : []),
      ...(names.length > 0 && columns.nameKey ? [db.sql.listParam([...new Set(names.map(nameKey))])] : []),
      ...(names.length > 0 ? [db.sql.listParam(names)] : []),
    ],
  };
}

/** A page of `table` by name, with the request's name filter and `conditions`. */
export async function pageByName<K extends NamedTable, T>(
  db: ReadContext,
  table: K,
  columns: string,
  request: PageRequest,
  conditions: readonly Condition[],
  map: (row: NamedTables[K]) => T,
): Promise<Page<T>> {
  const { name } = NAMED[table].columns;
  const filters = request.nameContains
    ? [{ sql: db.sql.containsIgnoringCase(name), params: [db.sql.containsParam(request.nameContains)] }, ...conditions]
    : conditions;
  return keysetPage<NamedTables[K], T, string>(db, {
    from: table,
    columns,
    key: [name],
    values: (value) => [value],
    conditions: filters,
    window: request,
    map,
  });
}

/** Every tool, project or resource by name (ids and names, from the name index alone), in name order. */
export async function allNames(db: ReadContext, table: Exclude<NamedTable, 'resource_type'>): Promise<NamedItem[]> {
  const { id, name } = NAMED[table].columns;
  const rows = await db.query<{ id: string; name: string }>(`SELECT ${id}, ${name} FROM ${table} ORDER BY ${name}`);
  return rows.map(namedItem);
}

/** The thing whose name is `name` ignoring case, if any (names are unique ignoring case). */
export async function byNameKey(
  db: ReadContext,
  table: Exclude<NamedTable, 'resource_type'>,
  nameKey: string,
): Promise<NamedItem | undefined> {
  const { id, name } = NAMED[table].columns;
  const [row] = await db.query<NamedItem>(
    `SELECT ${id}, ${name} FROM ${table} WHERE ${NAMED[table].columns.nameKey} = ?`,
    [nameKey],
  );
  return row;
}

/**
 * Names that may be close to `ref`, for "did you mean": its neighbours in
 * name order, and the names sharing its first segment, each from an index
 * range (so the cost does not grow with the registry).
 */
export async function nameCandidates(db: ReadContext, table: NamedTable, ref: string, around = 25): Promise<string[]> {
  const { name } = NAMED[table].columns;
  const key = ref.toLowerCase();
  const prefix = key.includes('/') ? key.slice(0, key.indexOf('/') + 1) : key.slice(0, 3);
  const keyColumn = table === 'resource_type' ? name : NAMED[table].columns.nameKey;
  const rows = await db.query<{ name: string }>(
    `SELECT ${name} FROM (SELECT ${name} FROM ${table} WHERE ${keyColumn} >= ? ORDER BY ${keyColumn} LIMIT ?) a ` +
      `UNION SELECT ${name} FROM (SELECT ${name} FROM ${table} WHERE ${keyColumn} < ? ORDER BY ${keyColumn} DESC LIMIT ?) b ` +
      `UNION SELECT ${name} FROM (SELECT ${name} FROM ${table} WHERE ${keyColumn} >= ? AND ${keyColumn} < ? ORDER BY ${keyColumn} LIMIT ?) c`,
    [key, around, key, around, prefix, `${prefix}\u007f`, around * 4],
  );
  return rows.map((r) => r.name);
}
