/** Reads of the change log. */
import { isIdRef } from '../../core/grammar';
import type { ChangeKind } from '../../core/registry-edit';
import type { ChangeFilter, ChangeHead, ChangePageRequest, ChangePosition, ChangeRecord, Page } from '../records';
import { columnList, REGISTRY_CHANGE, type RegistryChangeRow } from '../tables';
import { keysetPage } from './keyset-page';
import type { ReadContext } from './read-context';
import { toChange, toChangeHead } from './rows';

const C = REGISTRY_CHANGE.columns;

/** A page of the change log, oldest first, and the number of entries the filter matches. */
export async function pageChanges(
  db: ReadContext,
  filter: ChangeFilter,
  request: ChangePageRequest,
): Promise<Page<ChangeRecord>> {
  const { where, params } = changeFilter(db, filter);
  return keysetPage<RegistryChangeRow, ChangeRecord, ChangePosition>(db, {
    from: REGISTRY_CHANGE.name,
    columns: columnList(C),
    key: [C.version, C.seq],
    values: (position) => [position.version, position.seq],
    conditions: where === null ? [] : [{ sql: where, params }],
    window: request,
    map: toChange,
  });
}

/** Change-log entries by id. */
export async function changesByIds(db: ReadContext, ids: readonly string[]): Promise<ChangeRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<RegistryChangeRow>(
    `SELECT ${columnList(C)} FROM ${REGISTRY_CHANGE.name} WHERE ${db.sql.inList(C.id)}`,
    [db.sql.listParam(ids)],
  );
  return rows.map(toChange);
}

/**
 * Past a position (version, seq): a row-value comparison, which both databases
 * take as a range of the (version, seq) index. Written as `version > ? OR
 * (version = ? AND seq > ?)`, PostgreSQL could bound the index scan only by the
 * upper version and filtered every entry before the position: 34 ms to read
 * the newest entries of a log of 107,500, against 0.1.
 */
const AFTER_POSITION = `(${C.version}, ${C.seq}) > (?, ?)`;

/** Change-log entries after a position (version, seq), up to a version, oldest first; at most `limit`. */
export async function changesAfter(
  db: ReadContext,
  after: { readonly version: number; readonly seq: number },
  upToVersion: number,
  limit: number,
): Promise<ChangeRecord[]> {
  const rows = await db.query<RegistryChangeRow>(
    `SELECT ${columnList(C)} FROM ${REGISTRY_CHANGE.name} WHERE ${AFTER_POSITION} ` +
      `AND ${C.version} <= ? ORDER BY ${C.version}, ${C.seq} LIMIT ?`,
    [after.version, Math.min(after.seq, 2_147_483_647), upToVersion, limit],
  );
  return rows.map(toChange);
}

/** Every column of a change-log row but its binding changes. */
const CHANGE_HEAD_COLUMNS = Object.values(C)
  .filter((column) => column !== C.bindingChanges)
  .join(', ');

/** Like changesAfter, without the binding changes: the small rows a reader that does not show them needs. */
export async function changeHeadsAfter(
  db: ReadContext,
  after: { readonly version: number; readonly seq: number },
  upToVersion: number,
  limit: number,
): Promise<ChangeHead[]> {
  const rows = await db.query<RegistryChangeRow>(
    `SELECT ${CHANGE_HEAD_COLUMNS} FROM ${REGISTRY_CHANGE.name} WHERE ${AFTER_POSITION} ` +
      `AND ${C.version} <= ? ORDER BY ${C.version}, ${C.seq} LIMIT ?`,
    [after.version, Math.min(after.seq, 2_147_483_647), upToVersion, limit],
  );
  return rows.map(toChangeHead);
}

/** The entity of this kind last renamed away from `name`, if the log knows one. */
export async function renamedFrom(db: ReadContext, kind: ChangeKind, name: string): Promise<string | undefined> {
  const [row] = await db.query<{ entity_id: string }>(
    `SELECT ${C.entityId} FROM ${REGISTRY_CHANGE.name} WHERE ${C.previousName} = ? AND ${C.kind} = ? ORDER BY ${C.version} DESC, ${C.seq} DESC LIMIT 1`,
    [name, kind],
  );
  return row?.entity_id;
}

/** The conditions of a change filter, joined (null when it has none). */
function changeFilter(db: ReadContext, filter: ChangeFilter): { where: string | null; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (filter.kind) {
    conditions.push(`${C.kind} = ?`);
    params.push(filter.kind);
  }
  if (filter.actor) {
    conditions.push(`${C.actor} = ?`);
    params.push(filter.actor);
  }
  if (filter.sinceVersion !== null) {
    conditions.push(`${C.version} > ?`);
    params.push(filter.sinceVersion);
  }
  if (filter.accessNamespaces !== null) {
    // Rule: access entries only for OWNERs of their namespace (core/access.ts, canSeeChange).
    const hidden = `${C.kind} NOT IN ('GRANT', 'API_TOKEN')`;
    if (filter.accessNamespaces.length === 0) conditions.push(hidden);
    else {
      conditions.push(`(${hidden} OR ${db.sql.inList(C.namespace)})`);
      params.push(db.sql.listParam(filter.accessNamespaces));
    }
  }
  if (filter.ref) {
    // Rule: a ref is an id, or any name the entity ever had (for a link: its project's or its resource's).
    if (isIdRef(filter.ref)) {
      conditions.push(`(${C.entityId} = ? OR ${C.relatedId} = ?)`);
      params.push(filter.ref, filter.ref);
    } else {
      const ids =
        `SELECT ${C.entityId} FROM ${REGISTRY_CHANGE.name} WHERE ${C.entityName} = ? OR ${C.previousName} = ? ` +
        `UNION SELECT ${C.relatedId} FROM ${REGISTRY_CHANGE.name} WHERE ${C.relatedName} = ?`;
      conditions.push(`(${C.entityId} IN (${ids}) OR ${C.relatedId} IN (${ids}))`);
      params.push(filter.ref, filter.ref, filter.ref, filter.ref, filter.ref, filter.ref);
    }
  }
  return { where: conditions.length > 0 ? conditions.join(' AND ') : null, params };
}
