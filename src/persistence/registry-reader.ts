import { isIdRef } from '../core/grammar';
import type { Access, BindingMode, ResourceInfo, TypeNode } from '../core/model';
import type { LinkRecord, Page, PageRequest, ProjectRecord, RegistryState, SlotRecord, ToolRecord } from './records';
import type { QueryFn, SqlDialect } from './sql';
import {
  columnList,
  PROJECT,
  PROJECT_RESOURCE,
  REGISTRY_STATE,
  RESOURCE,
  RESOURCE_SLOT,
  RESOURCE_TYPE,
  RESOURCE_TYPE_PARENT,
  TOOL,
  type ProjectResourceRow,
  type ProjectRow,
  type RegistryStateRow,
  type ResourceRow,
  type ResourceSlotRow,
  type ResourceTypeRow,
  type ToolRow,
} from './tables';

const R = RESOURCE.columns;
const S = RESOURCE_SLOT.columns;
const L = PROJECT_RESOURCE.columns;
const RESOURCE_COLUMNS = columnList(R, 'r');

/** The tables that hold named things, with their row types. */
interface NamedTables {
  resource_type: ResourceTypeRow;
  resource: ResourceRow;
  project: ProjectRow;
  tool: ToolRow;
}
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
    const C = REGISTRY_STATE.columns;
    const [row] = await this.query<RegistryStateRow>(
      `SELECT ${C.version}, ${C.typesVersion} FROM ${REGISTRY_STATE.name} WHERE ${C.id} = 1`,
    );
    return { version: Number(row.version), typesVersion: Number(row.types_version) };
  }

  /** Every type with its parents in declaration order. */
  async allTypes(): Promise<TypeNode[]> {
    const T = RESOURCE_TYPE.columns;
    const P = RESOURCE_TYPE_PARENT.columns;
    const rows = await this.query<ResourceTypeRow & { parent_id: string | null }>(
      `SELECT t.${T.id}, t.${T.name}, t.${T.description}, p.${P.parentId} FROM ${RESOURCE_TYPE.name} t ` +
        `LEFT JOIN ${RESOURCE_TYPE_PARENT.name} p ON p.${P.typeId} = t.${T.id} ORDER BY t.${T.id}, p.${P.ordinal}`,
    );
    const types: TypeNode[] = [];
    let current: { id: string; name: string; description: string | null; parentIds: string[] } | null = null;
    for (const row of rows) {
      if (!current || current.id !== row.id) {
        current = { id: row.id, name: row.name, description: row.description, parentIds: [] };
        types.push(current);
      }
      if (row.parent_id !== null) current.parentIds.push(row.parent_id);
    }
    return types;
  }

  /** Resources by id. */
  async resourcesByIds(ids: readonly string[]): Promise<ResourceInfo[]> {
    if (ids.length === 0) return [];
    const rows = await this.query<ResourceRow>(
      `SELECT ${RESOURCE_COLUMNS} FROM ${RESOURCE.name} r WHERE ${this.sql.inList(`r.${R.id}`)}`,
      [this.sql.listParam(ids)],
    );
    return rows.map(toResource);
  }

  /** Resources by ref (id or name). */
  async resourcesByRefs(refs: readonly string[]): Promise<ResourceInfo[]> {
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

  /** The projects (id and name) that link a resource, with the alias. */
  async linkingProjects(resourceId: string): Promise<{ project: ProjectRecord; alias: string | null }[]> {
    const P = PROJECT.columns;
    const rows = await this.query<ProjectRow & Pick<ProjectResourceRow, 'alias'>>(
      `SELECT ${columnList(P, 'p')}, l.${L.alias} FROM ${PROJECT_RESOURCE.name} l JOIN ${PROJECT.name} p ON p.${P.id} = l.${L.projectId} ` +
        `WHERE l.${L.resourceId} = ? ORDER BY p.${P.name}`,
      [resourceId],
    );
    return rows.map((row) => ({ project: toNamed(row), alias: row.alias }));
  }

  /**
   * One page of resources for each of many keys, each key standing for a set
   * of type ids (a type and its sub-types), in two statements whatever the
   * number of keys: the pages (a window function numbers rows per key) and the totals.
   */
  async resourcePagesByTypeSets(
    sets: readonly { key: string; typeIds: readonly string[] }[],
    first: number,
    afterName: string | null,
  ): Promise<Map<string, Page<ResourceInfo>>> {
    const pairs = sets.flatMap((set) => set.typeIds.map((typeId) => [set.key, typeId] as const));
    const pages = new Map<string, Page<ResourceInfo>>(
      sets.map((set) => [set.key, { items: [], totalCount: 0, hasNextPage: false }]),
    );
    if (pairs.length === 0) return pages;
    const { cte, params } = this.sql.pairsTable('m', 'k', 't', pairs);
    const after = afterName === null ? '' : ` WHERE r.${R.name} > ?`;
    const rows = await this.query<ResourceRow & { k: string }>(
      `WITH ${cte} SELECT k, ${columnList(R)} FROM (` +
        `SELECT m.k, ${RESOURCE_COLUMNS}, ROW_NUMBER() OVER (PARTITION BY m.k ORDER BY r.${R.name}) AS rn FROM m JOIN ${RESOURCE.name} r ON r.${R.typeId} = m.t${after}` +
        `) x WHERE rn <= ? ORDER BY k, ${R.name}`,
      [...params, ...(afterName === null ? [] : [afterName]), first + 1],
    );
    const counts = await this.query<{ k: string; n: number | string }>(
      `WITH ${cte} SELECT m.k, COUNT(*) AS n FROM m JOIN ${RESOURCE.name} r ON r.${R.typeId} = m.t GROUP BY m.k`,
      params,
    );
    const items = new Map<string, ResourceInfo[]>();
    for (const row of rows) {
      const list = items.get(row.k) ?? [];
      list.push(toResource(row));
      items.set(row.k, list);
    }
    const totals = new Map(counts.map((row) => [row.k, Number(row.n)]));
    for (const set of sets) {
      const list = items.get(set.key) ?? [];
      pages.set(set.key, {
        items: list.slice(0, first),
        totalCount: totals.get(set.key) ?? 0,
        hasNextPage: list.length > first,
      });
    }
    return pages;
  }

  /** A page of types by name. */
  async pageTypes(request: PageRequest): Promise<Page<{ id: string; name: string; description: string | null }>> {
    return this.page('resource_type', columnList(RESOURCE_TYPE.columns), request, null, toNamed);
  }

  /** A page of resources by name, optionally only of the given types. */
  async pageResources(request: PageRequest, typeIds: readonly string[] | null): Promise<Page<ResourceInfo>> {
    return this.page('resource', columnList(R), request, typeIds, toResource);
  }

  /** A page of projects by name. */
  async pageProjects(request: PageRequest): Promise<Page<ProjectRecord>> {
    return this.page('project', columnList(PROJECT.columns), request, null, toNamed);
  }

  /** A page of tools by name. */
  async pageTools(request: PageRequest): Promise<Page<ToolRecord>> {
    return this.page('tool', columnList(TOOL.columns), request, null, toNamed);
  }

  private async slotUses(column: string, value: string, limit: number): Promise<{ tool: string; slot: string }[]> {
    const rows = await this.query<{ tool: string; slot: string }>(
      `SELECT t.${TOOL.columns.name} AS tool, s.${S.name} AS slot FROM ${RESOURCE_SLOT.name} s JOIN ${TOOL.name} t ON t.${TOOL.columns.id} = s.${S.toolId} ` +
        `WHERE s.${column} = ? ORDER BY t.${TOOL.columns.name}, s.${S.ordinal} LIMIT ?`,
      [value, limit],
    );
    return rows.map((r) => ({ tool: r.tool, slot: r.slot }));
  }

  private async byIds<K extends keyof NamedTables>(
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

  private async byRefs<K extends keyof NamedTables>(
    table: K,
    columns: string,
    refs: readonly string[],
  ): Promise<NamedTables[K][]> {
    if (refs.length === 0) return [];
    const ids = refs.filter(isIdRef);
    const names = refs.filter((ref) => !isIdRef(ref));
    // One index lookup per list; an OR of both would make the planner do more work for the usual case of names only.
    const { id, name } = NAMED[table].columns;
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

  private async page<K extends keyof NamedTables, T>(
    table: K,
    columns: string,
    request: PageRequest,
    typeIds: readonly string[] | null,
    map: (row: NamedTables[K]) => T,
  ): Promise<Page<T>> {
    const { name } = NAMED[table].columns;
    const filters: string[] = [];
    const params: unknown[] = [];
    if (request.nameContains) {
      filters.push(this.sql.containsIgnoringCase(name));
      params.push(this.sql.containsParam(request.nameContains));
    }
    if (typeIds) {
      filters.push(this.sql.inList(R.typeId));
      params.push(this.sql.listParam(typeIds));
    }
    const where = (extra: string[]) => (extra.length > 0 ? ` WHERE ${extra.join(' AND ')}` : '');
    const pageFilters = request.afterName === null ? filters : [...filters, `${name} > ?`];
    const pageParams = request.afterName === null ? params : [...params, request.afterName];
    const rows = await this.query<NamedTables[K]>(
      `SELECT ${columns} FROM ${table}${where(pageFilters)} ORDER BY ${name} LIMIT ?`,
      [...pageParams, request.first + 1],
    );
    const [count] = await this.query<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM ${table}${where(filters)}`,
      params,
    );
    return {
      items: rows.slice(0, request.first).map(map),
      totalCount: Number(count.n),
      hasNextPage: rows.length > request.first,
    };
  }
}

/** A resource row as the core's ResourceInfo. */
export function toResource(row: ResourceRow): ResourceInfo {
  return {
    id: row.id,
    name: row.name,
    shortName: row.short_name,
    typeId: row.type_id,
    description: row.description,
  };
}

function toNamed(row: { id: string; name: string; description: string | null }): {
  id: string;
  name: string;
  description: string | null;
} {
  return { id: row.id, name: row.name, description: row.description };
}
