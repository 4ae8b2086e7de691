/**
 * Pages of resources by type, and the planning choice behind them: whether a
 * set of types is read by walking the name index or by the type index.
 */
import type { Page, ResourceRecord, Window } from '../records';
import { RESOURCE, type ResourceRow } from '../tables';
import { pageOf, windowBounds, type Condition } from './keyset-page';
import type { ReadContext } from './read-context';
import { RESOURCE_COLUMNS, toResource } from './rows';

const R = RESOURCE.columns;

/** How many keys' subqueries resourcePagesByTypeSets puts in one statement (SQLite allows 500 compound terms). */
export const TYPE_SETS_PER_STATEMENT = 100;

/**
 * The share of all types from which a set of types is read by walking the
 * resources in name order (stopping when the page is full) rather than by the
 * type index (reading every resource of the set, then sorting). With the
 * resources spread evenly over the types, walking reads about
 * (size + 1) / share rows and the type index share × resources; they cross
 * near share = √((size + 1) / resources), about 0.045 for pages of 100 among
 * 50,000 resources. Fixed, since either way stays within a few thousand rows
 * around there.
 */
export const NAME_SCAN_SHARE = 0.05;

/** Whether a set of `setSize` of the registry's `typeCount` types is read by walking names (see NAME_SCAN_SHARE). */
export function scansByName(setSize: number, typeCount: number): boolean {
  return setSize > 1 && typeCount > 0 && setSize >= NAME_SCAN_SHARE * typeCount;
}

/**
 * `column` is one of `typeIds`, for a page by name: a broad set of types (see
 * scansByName) written so that the name index serves the page, a narrow one by the type index.
 */
export function ofTypes(db: ReadContext, column: string, typeIds: readonly string[], typeCount: number): Condition {
  const sql = scansByName(typeIds.length, typeCount) ? db.sql.inListUnindexed(column) : db.sql.inList(column);
  return { sql, params: [db.sql.listParam(typeIds)] };
}

/**
 * One page of resources for each of many keys, each key standing for a set
 * of type ids (a type and its sub-types): the pages in one statement per
 * TYPE_SETS_PER_STATEMENT keys (one limited subquery per key), and the
 * totals in one more when the window asks for them.
 *
 * Each key's subquery reads only what its page needs. A set holding a large
 * share of all types (see `scansByName`) walks the name index and filters by
 * type, stopping after size + 1 rows (on SQLite; PostgreSQL's planner chooses for itself); a small set reads its types' rows by
 * the type index and sorts them. (A window function over every key's rows,
 * as before, read and sorted every resource of every set: for a root type
 * with a fifth of the registry under it, 30 ms of one synchronous statement.)
 */
export async function resourcePagesByTypeSets(
  db: ReadContext,
  sets: readonly { key: string; typeIds: readonly string[] }[],
  window: Window<string>,
  typeCount: number,
): Promise<Map<string, Page<ResourceRecord>>> {
  const pages = new Map<string, Page<ResourceRecord>>(
    sets.map((set) => [set.key, { items: [], totalCount: 0, hasNextPage: false, hasPreviousPage: false }]),
  );
  const nonEmpty = sets.filter((set) => set.typeIds.length > 0);
  if (nonEmpty.length === 0) return pages;
  // Broad sets first, so the statement's text depends only on how many of each kind there are.
  const broad = (set: { typeIds: readonly string[] }) => scansByName(set.typeIds.length, typeCount);
  const ordered = [...nonEmpty.filter(broad), ...nonEmpty.filter((set) => !broad(set))];
  const bounds = windowBounds([`r.${R.name}`], (name: string) => [name], window);
  const direction = window.fromEnd ? ' DESC' : '';
  const statements: Promise<(ResourceRow & { k: number })[]>[] = [];
  for (let from = 0; from < ordered.length; from += TYPE_SETS_PER_STATEMENT) {
    const chunk = ordered.slice(from, from + TYPE_SETS_PER_STATEMENT);
    const params: unknown[] = [];
    const parts = chunk.map((set, i) => {
      const types = ofTypes(db, `r.${R.typeId}`, set.typeIds, typeCount);
      params.push(...types.params, ...bounds.params, window.size + 1);
      return (
        `SELECT * FROM (SELECT ${from + i} AS k, ${RESOURCE_COLUMNS} FROM ${RESOURCE.name} r ` +
        `WHERE ${[types.sql, ...bounds.where].join(' AND ')} ORDER BY r.${R.name}${direction} LIMIT ?) x${i}`
      );
    });
    statements.push(db.query<ResourceRow & { k: number }>(parts.join(' UNION ALL '), params));
  }
  const counting = window.count === false ? null : countByTypeSets(db, ordered, bounds.beyondStart);
  const [chunks, counts] = await Promise.all([Promise.all(statements), counting]);
  const items = new Map<number, ResourceRecord[]>();
  for (const row of chunks.flat()) {
    const k = Number(row.k);
    const list = items.get(k) ?? [];
    list.push(toResource(row));
    items.set(k, list);
  }
  ordered.forEach((set, k) => {
    const rows = items.get(k) ?? [];
    const ascending = window.fromEnd ? rows.reverse() : rows;
    const total = counts?.get(set.key);
    pages.set(set.key, pageOf(ascending, window, counts ? Number(total?.n ?? 0) : -1, Number(total?.outside ?? 0)));
  });
  return pages;
}

/** The totals for resourcePagesByTypeSets, and the rows beyond the cursor each window starts from, in one statement. */
async function countByTypeSets(
  db: ReadContext,
  sets: readonly { key: string; typeIds: readonly string[] }[],
  beyondStart: { sql: string; params: unknown[] } | null,
): Promise<Map<string, { n: number | string; outside: number | string }>> {
  const pairs = sets.flatMap((set) => set.typeIds.map((typeId) => [set.key, typeId] as const));
  const { cte, params } = db.sql.pairsTable('m', 'k', 't', pairs);
  const counts = await db.query<{ k: string; n: number | string; outside: number | string }>(
    `WITH ${cte} SELECT m.k, COUNT(*) AS n, ${beyondStart ? `COUNT(CASE WHEN ${beyondStart.sql} THEN 1 END)` : '0'} AS outside ` +
      `FROM m JOIN ${RESOURCE.name} r ON r.${R.typeId} = m.t GROUP BY m.k`,
    [...params, ...(beyondStart?.params ?? [])],
  );
  return new Map(counts.map((row) => [row.k, row] as const));
}
