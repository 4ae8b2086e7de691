/** Reads of access: role grants and API tokens (never their secrets: only the digest is stored, and only matched). */
import { isIdRef } from '../../core/grammar';
import type { Role } from '../../core/access';
import type { AccessVisibility, ApiTokenRecord, GrantFilter, GrantRecord, Page, Window } from '../records';
import { API_TOKEN, columnList, ROLE_GRANT, type ApiTokenRow, type RoleGrantRow } from '../tables';
import { keysetPage } from './keyset-page';
import type { ReadContext } from './read-context';

const G = ROLE_GRANT.columns;
const K = API_TOKEN.columns;
const TOKEN_COLUMNS = `${K.id}, ${K.name}, ${K.createdBy}, ${K.createdAt}, ${K.expiresAt}, ${K.lastUsedAt}, ${K.revokedAt}`;

/** Every grant held by any of these principals (a principal and its groups). */
export async function grantsOf(db: ReadContext, principals: readonly string[]): Promise<GrantRecord[]> {
  if (principals.length === 0) return [];
  const rows = await db.query<RoleGrantRow>(
    `SELECT ${columnList(G)} FROM ${ROLE_GRANT.name} WHERE ${db.sql.inList(G.principal)} ORDER BY ${G.id}`,
    [db.sql.listParam(principals)],
  );
  return rows.map(toGrant);
}

/** Grants by id. */
export async function grantsByIds(db: ReadContext, ids: readonly string[]): Promise<GrantRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<RoleGrantRow>(
    `SELECT ${columnList(G)} FROM ${ROLE_GRANT.name} WHERE ${db.sql.inList(G.id)}`,
    [db.sql.listParam(ids)],
  );
  return rows.map(toGrant);
}

/** A principal's grant on a namespace, if it has one (there is at most one). */
export async function grantOn(db: ReadContext, principal: string, namespace: string): Promise<GrantRecord | undefined> {
  const [row] = await db.query<RoleGrantRow>(
    `SELECT ${columnList(G)} FROM ${ROLE_GRANT.name} WHERE ${G.principal} = ? AND ${G.namespace} = ?`,
    [principal, namespace],
  );
  return row ? toGrant(row) : undefined;
}

/** A page of grants by id (oldest first), filtered, of those the asker may see. */
export async function pageGrants(
  db: ReadContext,
  filter: GrantFilter,
  window: Window<string>,
): Promise<Page<GrantRecord>> {
  const conditions: { sql: string; params: unknown[] }[] = [];
  if (filter.namespace !== null) conditions.push({ sql: `${G.namespace} = ?`, params: [filter.namespace] });
  if (filter.principal !== null) conditions.push({ sql: `${G.principal} = ?`, params: [filter.principal] });
  const visible = visibleAccess(db, filter.visible, G.namespace, db.sql.inList(G.principal));
  if (visible) conditions.push(visible);
  return keysetPage<RoleGrantRow, GrantRecord, string>(db, {
    from: ROLE_GRANT.name,
    columns: columnList(G),
    key: [G.id],
    values: (id) => [id],
    conditions,
    window,
    map: toGrant,
  });
}

/** The API token whose secret has this SHA-256 digest (hex), if any. */
export async function apiTokenByDigest(db: ReadContext, digest: string): Promise<ApiTokenRecord | undefined> {
  const [row] = await db.query<ApiTokenRow>(
    `SELECT ${TOKEN_COLUMNS} FROM ${API_TOKEN.name} WHERE ${K.secretDigest} = ?`,
    [digest],
  );
  return row ? toApiToken(row) : undefined;
}

/** The API token a ref names: its id, or its name ignoring case. */
export async function apiTokenByRef(db: ReadContext, ref: string): Promise<ApiTokenRecord | undefined> {
  const [row] = await db.query<ApiTokenRow>(
    `SELECT ${TOKEN_COLUMNS} FROM ${API_TOKEN.name} WHERE ${isIdRef(ref) ? K.id : K.nameKey} = ?`,
    [isIdRef(ref) ? ref : ref.toLowerCase()],
  );
  return row ? toApiToken(row) : undefined;
}

/** API tokens by id. */
export async function apiTokensByIds(db: ReadContext, ids: readonly string[]): Promise<ApiTokenRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<ApiTokenRow>(
    `SELECT ${TOKEN_COLUMNS} FROM ${API_TOKEN.name} WHERE ${db.sql.inList(K.id)}`,
    [db.sql.listParam(ids)],
  );
  return rows.map(toApiToken);
}

/** API tokens by name, ignoring case (names are unique that way, revoked tokens included). */
export async function apiTokensByNames(db: ReadContext, names: readonly string[]): Promise<ApiTokenRecord[]> {
  if (names.length === 0) return [];
  const rows = await db.query<ApiTokenRow>(
    `SELECT ${TOKEN_COLUMNS} FROM ${API_TOKEN.name} WHERE ${db.sql.inList(K.nameKey)}`,
    [db.sql.listParam(names.map((n) => n.toLowerCase()))],
  );
  return rows.map(toApiToken);
}

/**
 * A page of API tokens by id (oldest first) of those the asker may see: the
 * ones it made, and those with a grant on a namespace it owns.
 */
export async function pageApiTokens(
  db: ReadContext,
  visible: AccessVisibility,
  window: Window<string>,
): Promise<Page<ApiTokenRecord>> {
  const ownGrant =
    `EXISTS (SELECT 1 FROM ${ROLE_GRANT.name} g WHERE g.${G.principal} = 'token:' || ${API_TOKEN.name}.${K.name} ` +
    `AND ${db.sql.inList(`g.${G.namespace}`)})`;
  const condition = visibleAccess(db, visible, null, db.sql.inList(K.createdBy), ownGrant);
  return keysetPage<ApiTokenRow, ApiTokenRecord, string>(db, {
    from: API_TOKEN.name,
    columns: TOKEN_COLUMNS,
    key: [K.id],
    values: (id) => [id],
    conditions: condition ? [condition] : [],
    window,
    map: toApiToken,
  });
}

/**
 * The condition "visible to this asker": its own (`own` on its principals), or
 * on a namespace it owns (`namespaceColumn IN …`, or `ownedCondition` with the
 * owned namespaces as its one list parameter). Null: everything is visible.
 */
function visibleAccess(
  db: ReadContext,
  visible: AccessVisibility,
  namespaceColumn: string | null,
  own: string,
  ownedCondition?: string,
): { sql: string; params: unknown[] } | null {
  if (visible.namespaces === null) return null;
  const owned = ownedCondition ?? db.sql.inList(namespaceColumn!);
  return {
    sql: `(${own} OR ${owned})`,
    params: [db.sql.listParam(visible.principals), db.sql.listParam(visible.namespaces)],
  };
}

function toGrant(row: RoleGrantRow): GrantRecord {
  return {
    id: row.id,
    principal: row.principal,
    role: row.role as Role,
    namespace: row.namespace,
    grantedBy: row.granted_by,
    createdAt: row.created_at,
  };
}

function toApiToken(row: ApiTokenRow): ApiTokenRecord {
  return {
    id: row.id,
    name: row.name,
    createdBy: row.created_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}
