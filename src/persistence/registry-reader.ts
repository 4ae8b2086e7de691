import type { BindingChange } from '../core/binding-impact';
import { isIdRef } from '../core/grammar';
import type { Access, BindingMode } from '../core/model';
import type { ChangeKind } from '../core/registry-edit';
import type {
  AccessVisibility,
  ApiTokenRecord,
  ChangeFilter,
  ChangePageRequest,
  ChangePosition,
  ChangeRecord,
  GrantFilter,
  GrantRecord,
  LinkRecord,
  NamedItem,
  Page,
  PageRequest,
  ProjectRecord,
  RegistryState,
  ResourceRecord,
  SlotRecord,
  ToolRecord,
  TypeRecord,
  Window,
} from './records';
import type { QueryFn, SqlDialect } from './sql';
import {
  API_TOKEN,
  columnList,
  PROJECT,
  PROJECT_RESOURCE,
  REGISTRY_CHANGE,
  REGISTRY_STATE,
  RESOURCE,
  RESOURCE_SLOT,
  RESOURCE_TYPE,
  RESOURCE_TYPE_PARENT,
  ROLE_GRANT,
  TOOL,
  type ApiTokenRow,
  type ProjectResourceRow,
  type ProjectRow,
  type RegistryChangeRow,
  type RegistryStateRow,
  type ResourceRow,
  type ResourceSlotRow,
  type ResourceTypeRow,
  type RoleGrantRow,
  type ToolRow,
} from './tables';
import type { Role } from '../core/access';

const R = RESOURCE.columns;
const S = RESOURCE_SLOT.columns;
const L = PROJECT_RESOURCE.columns;
const C = REGISTRY_CHANGE.columns;
const G = ROLE_GRANT.columns;
const K = API_TOKEN.columns;
const TOKEN_COLUMNS = `${K.id}, ${K.name}, ${K.createdBy}, ${K.createdAt}, ${K.expiresAt}, ${K.lastUsedAt}, ${K.revokedAt}`;
const RESOURCE_COLUMNS = columnList(R, 'r');

/** The tables that hold named things, with their row types. */
interface NamedTables {
  resource_type: ResourceTypeRow;
  resource: ResourceRow;
  project: ProjectRow;
  tool: ToolRow;
}
/** A table that holds named things. */
export type NamedTable = keyof NamedTables;
const NAMED = { resource_type: RESOURCE_TYPE, resource: RESOURCE, project: PROJECT, tool: TOOL } as const;

/**
 * Batched reads of the registry. Every method is one SQL statement (two for a
 * page: the rows and the total), whatever the number of keys, so callers and
 * DataLoaders get fixed statement counts.
 *
 * Outside a write transaction, only the versioning module holds a reader
 * (src/application/versioning): every read there goes through a request's
 * read session, which pins the registry version first.
 */
export class RegistryReader {
  constructor(
    private readonly query: QueryFn,
    private readonly sql: SqlDialect,
  ) {}

  /** The change counters. */
  async registryState(): Promise<RegistryState> {
    const V = REGISTRY_STATE.columns;
    const [row] = await this.query<RegistryStateRow>(
      `SELECT ${V.version}, ${V.typesVersion} FROM ${REGISTRY_STATE.name} WHERE ${V.id} = 1`,
    );
    return { version: Number(row.version), typesVersion: Number(row.types_version) };
  }

  /** Every type with its parents in declaration order. */
  async allTypes(): Promise<TypeRecord[]> {
    const T = RESOURCE_TYPE.columns;
    const P = RESOURCE_TYPE_PARENT.columns;
    const rows = await this.query<ResourceTypeRow & { parent_id: string | null }>(
      `SELECT ${columnList(T, 't')}, p.${P.parentId} FROM ${RESOURCE_TYPE.name} t ` +
        `LEFT JOIN ${RESOURCE_TYPE_PARENT.name} p ON p.${P.typeId} = t.${T.id} ORDER BY t.${T.id}, p.${P.ordinal}`,
    );
    const types: TypeRecord[] = [];
    let current: (TypeRecord & { parentIds: string[] }) | null = null;
    for (const row of rows) {
      if (!current || current.id !== row.id) {
        current = { ...toNamed(row), parentIds: [] };
        types.push(current);
      }
      if (row.parent_id !== null) current.parentIds.push(row.parent_id);
    }
    return types;
  }

  /** Resources by id. */
  async resourcesByIds(ids: readonly string[]): Promise<ResourceRecord[]> {
    return (await this.byIds('resource', RESOURCE_COLUMNS, ids)).map(toResource);
  }

  /** Resources by ref (id or name). */
  async resourcesByRefs(refs: readonly string[]): Promise<ResourceRecord[]> {
    return (await this.byRefs('resource', RESOURCE_COLUMNS, refs)).map(toResource);
  }

  /** Tools by id. */
  async toolsByIds(ids: readonly string[]): Promise<ToolRecord[]> {
    return (await this.byIds('tool', columnList(TOOL.columns, 'r'), ids)).map(toNamed);
  }

  /** Tools by ref. */
  async toolsByRefs(refs: readonly string[]): Promise<ToolRecord[]> {
    return (await this.byRefs('tool', columnList(TOOL.columns, 'r'), refs)).map(toNamed);
  }

  /** Projects by id. */
  async projectsByIds(ids: readonly string[]): Promise<ProjectRecord[]> {
    return (await this.byIds('project', columnList(PROJECT.columns, 'r'), ids)).map(toNamed);
  }

  /** Projects by ref. */
  async projectsByRefs(refs: readonly string[]): Promise<ProjectRecord[]> {
    return (await this.byRefs('project', columnList(PROJECT.columns, 'r'), refs)).map(toNamed);
  }

  /** The slots of many tools, each tool's in declaration order. */
  async slotsByToolIds(toolIds: readonly string[]): Promise<SlotRecord[]> {
    if (toolIds.length === 0) return [];
    const rows = await this.query<ResourceSlotRow>(
      `SELECT ${columnList(S)} FROM ${RESOURCE_SLOT.name} WHERE ${this.sql.inList(S.toolId)} ORDER BY ${S.toolId}, ${S.ordinal}`,
      [this.sql.listParam(toolIds)],
    );
    return rows.map((row) => ({
      toolId: row.tool_id,
      ordinal: Number(row.ordinal),
      name: row.name,
      typeId: row.resource_type_id,
      access: row.access as Access,
      binding: row.binding as BindingMode,
      staticResourceId: row.static_resource_id,
      required: this.sql.bool(row.required),
    }));
  }

  /** The linked resources of many projects, each project's ordered by resource name. */
  async linksByProjectIds(projectIds: readonly string[]): Promise<LinkRecord[]> {
    if (projectIds.length === 0) return [];
    const rows = await this.query<ResourceRow & Pick<ProjectResourceRow, 'project_id' | 'alias'>>(
      `SELECT l.${L.projectId}, l.${L.alias}, ${RESOURCE_COLUMNS} FROM ${PROJECT_RESOURCE.name} l ` +
        `JOIN ${RESOURCE.name} r ON r.${R.id} = l.${L.resourceId} WHERE ${this.sql.inList(`l.${L.projectId}`)} ORDER BY l.${L.projectId}, r.${R.name}`,
      [this.sql.listParam(projectIds)],
    );
    return rows.map((row) => ({ projectId: row.project_id, alias: row.alias, resource: toResource(row) }));
  }

  /** Tool slots that statically bind a resource, as (tool, slot) names. */
  async staticUsesOf(resourceId: string, limit: number): Promise<{ tool: string; slot: string }[]> {
    return this.slotUses(S.staticResourceId, resourceId, limit);
  }

  /** Tool slots that require a type, as (tool, slot) names. */
  async slotUsesOfType(typeId: string, limit: number): Promise<{ tool: string; slot: string }[]> {
    return this.slotUses(S.resourceTypeId, typeId, limit);
  }

  /** Names of resources of a type. */
  async resourceNamesOfType(typeId: string, limit: number): Promise<string[]> {
    const rows = await this.query<Pick<ResourceRow, 'name'>>(
      `SELECT ${R.name} FROM ${RESOURCE.name} WHERE ${R.typeId} = ? ORDER BY ${R.name} LIMIT ?`,
      [typeId, limit],
    );
    return rows.map((r) => r.name);
  }

  /** For many resources: the tool slots that bind each statically. */
  async staticSlotsByResourceIds(
    resourceIds: readonly string[],
  ): Promise<{ resourceId: string; toolId: string; slot: string }[]> {
    if (resourceIds.length === 0) return [];
    const rows = await this.query<Pick<ResourceSlotRow, 'static_resource_id' | 'tool_id' | 'name'>>(
      `SELECT ${S.staticResourceId}, ${S.toolId}, ${S.name} FROM ${RESOURCE_SLOT.name} WHERE ${this.sql.inList(S.staticResourceId)} ` +
        `ORDER BY ${S.staticResourceId}, ${S.toolId}, ${S.ordinal}`,
      [this.sql.listParam(resourceIds)],
    );
    return rows.map((r) => ({ resourceId: r.static_resource_id ?? '', toolId: r.tool_id, slot: r.name }));
  }

  /** For many resources: the projects that link each, with the alias. */
  async linksByResourceIds(
    resourceIds: readonly string[],
  ): Promise<{ resourceId: string; projectId: string; alias: string | null }[]> {
    if (resourceIds.length === 0) return [];
    const rows = await this.query<ProjectResourceRow>(
      `SELECT ${columnList(L)} FROM ${PROJECT_RESOURCE.name} WHERE ${this.sql.inList(L.resourceId)} ORDER BY ${L.resourceId}, ${L.projectId}`,
      [this.sql.listParam(resourceIds)],
    );
    return rows.map((r) => ({ resourceId: r.resource_id, projectId: r.project_id, alias: r.alias }));
  }

  /** The projects that link a resource, with the alias, ordered by project name. */
  async linkingProjects(resourceId: string): Promise<{ project: ProjectRecord; alias: string | null }[]> {
    const P = PROJECT.columns;
    const rows = await this.query<ProjectRow & Pick<ProjectResourceRow, 'alias'>>(
      `SELECT ${columnList(P, 'p')}, l.${L.alias} FROM ${PROJECT_RESOURCE.name} l JOIN ${PROJECT.name} p ON p.${P.id} = l.${L.projectId} ` +
        `WHERE l.${L.resourceId} = ? ORDER BY p.${P.name}`,
      [resourceId],
    );
    return rows.map((row) => ({ project: toNamed(row), alias: row.alias }));
  }

  /** The thing whose name is `name` ignoring case, if any (names are unique ignoring case). */
  async byNameKey(table: Exclude<NamedTable, 'resource_type'>, nameKey: string): Promise<NamedItem | undefined> {
    const { id, name } = NAMED[table].columns;
    const [row] = await this.query<NamedItem>(
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
  async nameCandidates(table: NamedTable, ref: string, around = 25): Promise<string[]> {
    const { name } = NAMED[table].columns;
    const key = ref.toLowerCase();
    const prefix = key.includes('/') ? key.slice(0, key.indexOf('/') + 1) : key.slice(0, 3);
    const keyColumn = table === 'resource_type' ? name : NAMED[table].columns.nameKey;
    const rows = await this.query<{ name: string }>(
      `SELECT ${name} FROM (SELECT ${name} FROM ${table} WHERE ${keyColumn} >= ? ORDER BY ${keyColumn} LIMIT ?) a ` +
        `UNION SELECT ${name} FROM (SELECT ${name} FROM ${table} WHERE ${keyColumn} < ? ORDER BY ${keyColumn} DESC LIMIT ?) b ` +
        `UNION SELECT ${name} FROM (SELECT ${name} FROM ${table} WHERE ${keyColumn} >= ? AND ${keyColumn} < ? ORDER BY ${keyColumn} LIMIT ?) c`,
      [key, around, key, around, prefix, `${prefix}\u007f`, around * 4],
    );
    return rows.map((r) => r.name);
  }

  // --- what a change can reach (binding impact) ---------------------------------

  /** The tools with a CONTEXTUAL slot of one of the types. */
  async toolsWithContextualSlotsOf(typeIds: readonly string[]): Promise<NamedItem[]> {
    if (typeIds.length === 0) return [];
    const T = TOOL.columns;
    return this.query<NamedItem>(
      `SELECT t.${T.id}, t.${T.name} FROM ${TOOL.name} t WHERE t.${T.id} IN (SELECT s.${S.toolId} FROM ${RESOURCE_SLOT.name} s ` +
        `WHERE s.${S.binding} = 'CONTEXTUAL' AND ${this.sql.inList(`s.${S.resourceTypeId}`)})`,
      [this.sql.listParam(typeIds)],
    );
  }

  /** The projects that link a resource of one of the types. */
  async projectsLinkingTypes(typeIds: readonly string[]): Promise<NamedItem[]> {
    if (typeIds.length === 0) return [];
    const P = PROJECT.columns;
    return this.query<NamedItem>(
      `SELECT p.${P.id}, p.${P.name} FROM ${PROJECT.name} p WHERE p.${P.id} IN (SELECT l.${L.projectId} FROM ${PROJECT_RESOURCE.name} l ` +
        `JOIN ${RESOURCE.name} r ON r.${R.id} = l.${L.resourceId} WHERE ${this.sql.inList(`r.${R.typeId}`)})`,
      [this.sql.listParam(typeIds)],
    );
  }

  /** The tools with a STATIC slot bound to one of the resources, or to a resource of one of the types. */
  async staticBinders(resourceIds: readonly string[], typeIds: readonly string[]): Promise<NamedItem[]> {
    if (resourceIds.length === 0 && typeIds.length === 0) return [];
    const T = TOOL.columns;
    return this.query<NamedItem>(
      `SELECT t.${T.id}, t.${T.name} FROM ${TOOL.name} t WHERE t.${T.id} IN (SELECT s.${S.toolId} FROM ${RESOURCE_SLOT.name} s ` +
        `JOIN ${RESOURCE.name} r ON r.${R.id} = s.${S.staticResourceId} WHERE ${this.sql.inList(`r.${R.id}`)} OR ${this.sql.inList(`r.${R.typeId}`)})`,
      [this.sql.listParam(resourceIds), this.sql.listParam(typeIds)],
    );
  }

  /** The STATIC slots bound to one of the resources, or to a resource of one of the types, with what they need. */
  async staticSlotsOn(
    resourceIds: readonly string[],
    typeIds: readonly string[],
  ): Promise<{ tool: string; slot: string; slotTypeId: string; resource: string; resourceTypeId: string }[]> {
    if (resourceIds.length === 0 && typeIds.length === 0) return [];
    const T = TOOL.columns;
    return this.query(
      `SELECT t.${T.name} AS tool, s.${S.name} AS slot, s.${S.resourceTypeId} AS "slotTypeId", r.${R.name} AS resource, r.${R.typeId} AS "resourceTypeId" ` +
        `FROM ${RESOURCE_SLOT.name} s JOIN ${RESOURCE.name} r ON r.${R.id} = s.${S.staticResourceId} JOIN ${TOOL.name} t ON t.${T.id} = s.${S.toolId} ` +
        `WHERE ${this.sql.inList(`r.${R.id}`)} OR ${this.sql.inList(`r.${R.typeId}`)} ORDER BY t.${T.name}, s.${S.ordinal}`,
      [this.sql.listParam(resourceIds), this.sql.listParam(typeIds)],
    );
  }

  /** Every project's id and name. */
  async allProjects(): Promise<NamedItem[]> {
    const P = PROJECT.columns;
    return this.query<NamedItem>(`SELECT ${P.id}, ${P.name} FROM ${PROJECT.name}`);
  }

  // --- the change log ----------------------------------------------------------------

  /** A page of the change log, oldest first, and the number of entries the filter matches. */
  async pageChanges(filter: ChangeFilter, request: ChangePageRequest): Promise<Page<ChangeRecord>> {
    const { where, params } = this.changeFilter(filter);
    return this.keysetPage<RegistryChangeRow, ChangeRecord, ChangePosition>({
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
  async changesByIds(ids: readonly string[]): Promise<ChangeRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.query<RegistryChangeRow>(
      `SELECT ${columnList(C)} FROM ${REGISTRY_CHANGE.name} WHERE ${this.sql.inList(C.id)}`,
      [this.sql.listParam(ids)],
    );
    return rows.map(toChange);
  }

  /** Change-log entries after a position (version, seq), up to a version, oldest first; at most `limit`. */
  async changesAfter(
    after: { readonly version: number; readonly seq: number },
    upToVersion: number,
    limit: number,
  ): Promise<ChangeRecord[]> {
    const rows = await this.query<RegistryChangeRow>(
      `SELECT ${columnList(C)} FROM ${REGISTRY_CHANGE.name} WHERE (${C.version} > ? OR (${C.version} = ? AND ${C.seq} > ?)) ` +
        `AND ${C.version} <= ? ORDER BY ${C.version}, ${C.seq} LIMIT ?`,
      [after.version, after.version, Math.min(after.seq, 2_147_483_647), upToVersion, limit],
    );
    return rows.map(toChange);
  }

  /** The entity of this kind last renamed away from `name`, if the log knows one. */
  async renamedFrom(kind: ChangeKind, name: string): Promise<string | undefined> {
    const [row] = await this.query<{ entity_id: string }>(
      `SELECT ${C.entityId} FROM ${REGISTRY_CHANGE.name} WHERE ${C.previousName} = ? AND ${C.kind} = ? ORDER BY ${C.version} DESC, ${C.seq} DESC LIMIT 1`,
      [name, kind],
    );
    return row?.entity_id;
  }

  /** The conditions of a change filter, joined (null when it has none). */
  private changeFilter(filter: ChangeFilter): { where: string | null; params: unknown[] } {
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
        conditions.push(`(${hidden} OR ${this.sql.inList(C.namespace)})`);
        params.push(this.sql.listParam(filter.accessNamespaces));
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

  // --- access: grants and API tokens -------------------------------------------------

  /** Every grant held by any of these principals (a principal and its groups). */
  async grantsOf(principals: readonly string[]): Promise<GrantRecord[]> {
    if (principals.length === 0) return [];
    const rows = await this.query<RoleGrantRow>(
      `SELECT ${columnList(G)} FROM ${ROLE_GRANT.name} WHERE ${this.sql.inList(G.principal)} ORDER BY ${G.id}`,
      [this.sql.listParam(principals)],
    );
    return rows.map(toGrant);
  }

  /** Grants by id. */
  async grantsByIds(ids: readonly string[]): Promise<GrantRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.query<RoleGrantRow>(
      `SELECT ${columnList(G)} FROM ${ROLE_GRANT.name} WHERE ${this.sql.inList(G.id)}`,
      [this.sql.listParam(ids)],
    );
    return rows.map(toGrant);
  }

  /** A principal's grant on a namespace, if it has one (there is at most one). */
  async grantOn(principal: string, namespace: string): Promise<GrantRecord | undefined> {
    const [row] = await this.query<RoleGrantRow>(
      `SELECT ${columnList(G)} FROM ${ROLE_GRANT.name} WHERE ${G.principal} = ? AND ${G.namespace} = ?`,
      [principal, namespace],
    );
    return row ? toGrant(row) : undefined;
  }

  /** A page of grants by id (oldest first), filtered, of those the asker may see. */
  async pageGrants(filter: GrantFilter, window: Window<string>): Promise<Page<GrantRecord>> {
    const conditions: { sql: string; params: unknown[] }[] = [];
    if (filter.namespace !== null) conditions.push({ sql: `${G.namespace} = ?`, params: [filter.namespace] });
    if (filter.principal !== null) conditions.push({ sql: `${G.principal} = ?`, params: [filter.principal] });
    const visible = this.visibleAccess(filter.visible, G.namespace, this.sql.inList(G.principal));
    if (visible) conditions.push(visible);
    return this.keysetPage<RoleGrantRow, GrantRecord, string>({
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
  async apiTokenByDigest(digest: string): Promise<ApiTokenRecord | undefined> {
    const [row] = await this.query<ApiTokenRow>(
      `SELECT ${TOKEN_COLUMNS} FROM ${API_TOKEN.name} WHERE ${K.secretDigest} = ?`,
      [digest],
    );
    return row ? toApiToken(row) : undefined;
  }

  /** The API token a ref names: its id, or its name ignoring case. */
  async apiTokenByRef(ref: string): Promise<ApiTokenRecord | undefined> {
    const [row] = await this.query<ApiTokenRow>(
      `SELECT ${TOKEN_COLUMNS} FROM ${API_TOKEN.name} WHERE ${isIdRef(ref) ? K.id : K.nameKey} = ?`,
      [isIdRef(ref) ? ref : ref.toLowerCase()],
    );
    return row ? toApiToken(row) : undefined;
  }

  /** API tokens by id. */
  async apiTokensByIds(ids: readonly string[]): Promise<ApiTokenRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.query<ApiTokenRow>(
      `SELECT ${TOKEN_COLUMNS} FROM ${API_TOKEN.name} WHERE ${this.sql.inList(K.id)}`,
      [this.sql.listParam(ids)],
    );
    return rows.map(toApiToken);
  }

  /** API tokens by name, ignoring case (names are unique that way, revoked tokens included). */
  async apiTokensByNames(names: readonly string[]): Promise<ApiTokenRecord[]> {
    if (names.length === 0) return [];
    const rows = await this.query<ApiTokenRow>(
      `SELECT ${TOKEN_COLUMNS} FROM ${API_TOKEN.name} WHERE ${this.sql.inList(K.nameKey)}`,
      [this.sql.listParam(names.map((n) => n.toLowerCase()))],
    );
    return rows.map(toApiToken);
  }

  /**
   * A page of API tokens by id (oldest first) of those the asker may see: the
   * ones it made, and those with a grant on a namespace it owns.
   */
  async pageApiTokens(visible: AccessVisibility, window: Window<string>): Promise<Page<ApiTokenRecord>> {
    const ownGrant =
      `EXISTS (SELECT 1 FROM ${ROLE_GRANT.name} g WHERE g.${G.principal} = 'token:' || ${API_TOKEN.name}.${K.name} ` +
      `AND ${this.sql.inList(`g.${G.namespace}`)})`;
    const condition = this.visibleAccess(visible, null, this.sql.inList(K.createdBy), ownGrant);
    return this.keysetPage<ApiTokenRow, ApiTokenRecord, string>({
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
  private visibleAccess(
    visible: AccessVisibility,
    namespaceColumn: string | null,
    own: string,
    ownedCondition?: string,
  ): { sql: string; params: unknown[] } | null {
    if (visible.namespaces === null) return null;
    const owned = ownedCondition ?? this.sql.inList(namespaceColumn!);
    return {
      sql: `(${own} OR ${owned})`,
      params: [this.sql.listParam(visible.principals), this.sql.listParam(visible.namespaces)],
    };
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
  async resourcePagesByTypeSets(
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
        const ofTypes = this.ofTypes(`r.${R.typeId}`, set.typeIds, typeCount);
        params.push(...ofTypes.params, ...bounds.params, window.size + 1);
        return (
          `SELECT * FROM (SELECT ${from + i} AS k, ${RESOURCE_COLUMNS} FROM ${RESOURCE.name} r ` +
          `WHERE ${[ofTypes.sql, ...bounds.where].join(' AND ')} ORDER BY r.${R.name}${direction} LIMIT ?) x${i}`
        );
      });
      statements.push(this.query<ResourceRow & { k: number }>(parts.join(' UNION ALL '), params));
    }
    const counting = window.count === false ? null : this.countByTypeSets(ordered, bounds.beyondStart);
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
  private async countByTypeSets(
    sets: readonly { key: string; typeIds: readonly string[] }[],
    beyondStart: { sql: string; params: unknown[] } | null,
  ): Promise<Map<string, { n: number | string; outside: number | string }>> {
    const pairs = sets.flatMap((set) => set.typeIds.map((typeId) => [set.key, typeId] as const));
    const { cte, params } = this.sql.pairsTable('m', 'k', 't', pairs);
    const counts = await this.query<{ k: string; n: number | string; outside: number | string }>(
      `WITH ${cte} SELECT m.k, COUNT(*) AS n, ${beyondStart ? `COUNT(CASE WHEN ${beyondStart.sql} THEN 1 END)` : '0'} AS outside ` +
        `FROM m JOIN ${RESOURCE.name} r ON r.${R.typeId} = m.t GROUP BY m.k`,
      [...params, ...(beyondStart?.params ?? [])],
    );
    return new Map(counts.map((row) => [row.k, row] as const));
  }

  /** Every tool, project or resource by name (ids and names, from the name index alone), in name order. */
  async allNames(table: Exclude<NamedTable, 'resource_type'>): Promise<NamedItem[]> {
    const { id, name } = NAMED[table].columns;
    const rows = await this.query<{ id: string; name: string }>(`SELECT ${id}, ${name} FROM ${table} ORDER BY ${name}`);
    return rows.map(namedItem);
  }

  /** A page of types by name. */
  async pageTypes(request: PageRequest): Promise<Page<Omit<TypeRecord, 'parentIds'>>> {
    return this.page('resource_type', columnList(RESOURCE_TYPE.columns), request, [], toNamed);
  }

  /** A page of resources by name (ids and names), optionally only of the given types. */
  async pageResourceNames(
    request: PageRequest,
    typeIds: readonly string[] | null,
    typeCount = 0,
  ): Promise<Page<NamedItem>> {
    const where = typeIds === null ? [] : [this.ofTypes(R.typeId, typeIds, typeCount)];
    return this.page('resource', `${R.id}, ${R.name}`, request, where, namedItem);
  }

  /**
   * `column` is one of `typeIds`, for a page by name: a broad set of types (see
   * scansByName) written so that the name index serves the page, a narrow one by the type index.
   */
  private ofTypes(column: string, typeIds: readonly string[], typeCount: number): { sql: string; params: unknown[] } {
    const sql = scansByName(typeIds.length, typeCount) ? this.sql.inListUnindexed(column) : this.sql.inList(column);
    return { sql, params: [this.sql.listParam(typeIds)] };
  }

  /** A page of projects by name (ids and names), optionally only those linking a resource. */
  async pageProjectNames(request: PageRequest, linksResourceId: string | null = null): Promise<Page<NamedItem>> {
    const where =
      linksResourceId === null
        ? []
        : [
            {
              sql: `${PROJECT.columns.id} IN (SELECT ${L.projectId} FROM ${PROJECT_RESOURCE.name} WHERE ${L.resourceId} = ?)`,
              params: [linksResourceId],
            },
          ];
    return this.page('project', `${PROJECT.columns.id}, ${PROJECT.columns.name}`, request, where, namedItem);
  }

  /** A page of tools by name (ids and names), optionally only those with a slot of one of the types. */
  async pageToolNames(request: PageRequest, slotTypeIds: readonly string[] | null = null): Promise<Page<NamedItem>> {
    const where =
      slotTypeIds === null
        ? []
        : [
            {
              sql: `${TOOL.columns.id} IN (SELECT ${S.toolId} FROM ${RESOURCE_SLOT.name} WHERE ${this.sql.inList(S.resourceTypeId)})`,
              params: [this.sql.listParam(slotTypeIds)],
            },
          ];
    return this.page('tool', `${TOOL.columns.id}, ${TOOL.columns.name}`, request, where, namedItem);
  }

  private async slotUses(column: string, value: string, limit: number): Promise<{ tool: string; slot: string }[]> {
    const rows = await this.query<{ tool: string; slot: string }>(
      `SELECT t.${TOOL.columns.name} AS tool, s.${S.name} AS slot FROM ${RESOURCE_SLOT.name} s JOIN ${TOOL.name} t ON t.${TOOL.columns.id} = s.${S.toolId} ` +
        `WHERE s.${column} = ? ORDER BY t.${TOOL.columns.name}, s.${S.ordinal} LIMIT ?`,
      [value, limit],
    );
    return rows.map((r) => ({ tool: r.tool, slot: r.slot }));
  }

  private async byIds<K extends NamedTable>(
    table: K,
    columns: string,
    ids: readonly string[],
  ): Promise<NamedTables[K][]> {
    if (ids.length === 0) return [];
    const { id } = NAMED[table].columns;
    return this.query<NamedTables[K]>(`SELECT ${columns} FROM ${table} r WHERE ${this.sql.inList(`r.${id}`)}`, [
      this.sql.listParam(ids),
    ]);
  }

  private async byRefs<K extends NamedTable>(
    table: K,
    columns: string,
    refs: readonly string[],
  ): Promise<NamedTables[K][]> {
    if (refs.length === 0) return [];
    const ids = refs.filter(isIdRef);
    const names = refs.filter((ref) => !isIdRef(ref));
    const { id, name } = NAMED[table].columns;
    // One index lookup per list; an OR of both would make the planner do more work for the usual case of names only.
    const where = [
      ids.length > 0 ? this.sql.inList(`r.${id}`) : null,
      names.length > 0 ? this.sql.inList(`r.${name}`) : null,
    ]
      .filter(Boolean)
      .join(' OR ');
    const params = [
      ...(ids.length > 0 ? [this.sql.listParam(ids)] : []),
      ...(names.length > 0 ? [this.sql.listParam(names)] : []),
    ];
    return this.query<NamedTables[K]>(`SELECT ${columns} FROM ${table} r WHERE ${where}`, params);
  }

  private async page<K extends NamedTable, T>(
    table: K,
    columns: string,
    request: PageRequest,
    conditions: readonly { sql: string; params: readonly unknown[] }[],
    map: (row: NamedTables[K]) => T,
  ): Promise<Page<T>> {
    const { name } = NAMED[table].columns;
    const filters = request.nameContains
      ? [
          { sql: this.sql.containsIgnoringCase(name), params: [this.sql.containsParam(request.nameContains)] },
          ...conditions,
        ]
      : conditions;
    return this.keysetPage<NamedTables[K], T, string>({
      from: table,
      columns,
      key: [name],
      values: (value) => [value],
      conditions: filters,
      window: request,
      map,
    });
  }

  /**
   * A keyset page in two statements, sent together: the rows of the window,
   * from whichever end it is taken (one more than asked, to know whether more
   * follow), and the total with the number of rows outside the window on the
   * far side of the cursor the page starts from (to know whether more precede
   * it: 1 or 0). The second only when the window asks for the count.
   */
  private async keysetPage<Row, T, K>(page: {
    from: string;
    columns: string;
    key: readonly string[];
    values: (bound: K) => unknown[];
    conditions: readonly { sql: string; params: readonly unknown[] }[];
    window: Window<K>;
    map: (row: Row) => T;
  }): Promise<Page<T>> {
    const { window } = page;
    const filters = page.conditions.map((condition) => condition.sql);
    const params = page.conditions.flatMap((condition) => condition.params);
    const bounds = windowBounds(page.key, page.values, window);
    const where = (list: readonly string[]) => (list.length > 0 ? ` WHERE ${list.join(' AND ')}` : '');
    const direction = window.fromEnd ? ' DESC' : '';
    // Whether any row lies on the far side of the cursor: an EXISTS stops at the first (an index seek), where a
    // count of them read every row of the filter (on 5,000 tools, 0.4 ms of a dashboard page's statement).
    const beyondStart = bounds.beyondStart;
    const outside = beyondStart
      ? {
          sql: `EXISTS (SELECT 1 FROM ${page.from}${where([...filters, beyondStart.sql])})`,
          params: [...params, ...beyondStart.params],
        }
      : { sql: '0', params: [] };
    // The rows and the count go out together; the count only when the caller reads what it answers.
    const [rows, counted] = await Promise.all([
      this.query<Row>(
        `SELECT ${page.columns} FROM ${page.from}${where([...filters, ...bounds.where])} ` +
          `ORDER BY ${page.key.map((column) => column + direction).join(', ')} LIMIT ?`,
        [...params, ...bounds.params, window.size + 1],
      ),
      window.count === false
        ? null
        : this.query<{ n: number | string; outside: number | string }>(
            // Each its own subquery: SQLite answers a bare COUNT(*) of a table from the b-tree (5 µs on 5,000
            // tools), but scans every row once anything else shares its SELECT (70–90 µs).
            `SELECT (SELECT COUNT(*) FROM ${page.from}${where(filters)}) AS n, ${outside.sql} AS outside`,
            [...params, ...outside.params],
          ),
    ]);
    const count = counted?.[0] ?? { n: -1, outside: 0 };
    const ascending = window.fromEnd ? rows.reverse() : rows;
    return pageOf(ascending.map(page.map), window, Number(count.n), Number(count.outside));
  }
}

/**
 * The conditions of a keyset window on a (compound) key, and the condition of
 * the rows beyond the cursor the page starts from (at or before `after` for a
 * page from the start, at or after `before` for a page from the end), or null
 * when the page starts at an end.
 */
function windowBounds<K>(
  key: readonly string[],
  values: (bound: K) => unknown[],
  window: Window<K>,
): { where: string[]; params: unknown[]; beyondStart: { sql: string; params: unknown[] } | null } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (window.after !== null) {
    const beyond = keyBeyond(key, '>', values(window.after));
    where.push(beyond.sql);
    params.push(...beyond.params);
  }
  if (window.before !== null) {
    const beyond = keyBeyond(key, '<', values(window.before));
    where.push(beyond.sql);
    params.push(...beyond.params);
  }
  const start = window.fromEnd ? window.before : window.after;
  return {
    where,
    params,
    beyondStart: start === null ? null : keyBeyond(key, window.fromEnd ? '>=' : '<=', values(start)),
  };
}

/**
 * key > values (or <, <=, >=), in the key's lexicographic order: one column,
 * or a (major, minor) pair. Written as ranges the planner can seek, never as
 * a NOT of one (SQLite scans for `NOT (name > ?)`).
 */
function keyBeyond(
  key: readonly string[],
  op: '>' | '<' | '<=' | '>=',
  values: readonly unknown[],
): { sql: string; params: unknown[] } {
  if (key.length === 1) return { sql: `(${key[0]} ${op} ?)`, params: [values[0]] };
  const [major, minor] = key;
  const strict = op.startsWith('<') ? '<' : '>';
  return {
    sql: `(${major} ${strict} ? OR (${major} = ? AND ${minor} ${op} ?))`,
    params: [values[0], values[0], values[1]],
  };
}

/**
 * A page from the rows a window query returned, in ascending order: at most
 * size + 1, the extra one past the end the page is taken from. With the
 * total, and how many rows lie beyond the cursor the page starts from.
 */
export function pageOf<T>(
  ascending: readonly T[],
  window: Window<unknown>,
  totalCount: number,
  outside: number,
): Page<T> {
  const more = ascending.length > window.size;
  if (!window.fromEnd) {
    return { items: ascending.slice(0, window.size), totalCount, hasNextPage: more, hasPreviousPage: outside > 0 };
  }
  const items = ascending.slice(Math.max(0, ascending.length - window.size));
  return { items, totalCount, hasNextPage: outside > 0, hasPreviousPage: more };
}

/** A resource row as a record. */
export function toResource(row: ResourceRow): ResourceRecord {
  return {
    id: row.id,
    name: row.name,
    shortName: row.short_name,
    typeId: row.type_id,
    description: row.description,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * A row's id and name: a page of these reads the name index alone (it holds
 * both), and whatever else is shown of the items comes from the record cache.
 */
function namedItem(row: { id: string; name: string }): NamedItem {
  return { id: row.id, name: row.name };
}

function toNamed(row: {
  id: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}): ProjectRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toChange(row: RegistryChangeRow): ChangeRecord {
  return {
    id: row.id,
    version: Number(row.version),
    seq: Number(row.seq),
    at: row.at,
    actor: row.actor,
    operation: row.operation,
    kind: row.kind as ChangeKind,
    entityId: row.entity_id,
    entityName: row.entity_name,
    previousName: row.previous_name,
    relatedId: row.related_id,
    relatedName: row.related_name,
    summary: row.summary,
    impactCount: Number(row.impact_count),
    bindingChanges: row.binding_changes ? (JSON.parse(row.binding_changes) as BindingChange[]) : [],
    namespace: row.namespace,
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
