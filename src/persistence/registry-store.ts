import { isIdRef } from '../core/grammar';
import type { ResourceInfo, TypeNode } from '../core/model';
import type { WriteTransaction } from './database';
import {
  ProjectEntity,
  ProjectResourceEntity,
  ResourceEntity,
  ResourceSlotEntity,
  ResourceTypeEntity,
  ResourceTypeParentEntity,
  ToolEntity,
} from './entities';
import type { LinkRecord, Page, PageRequest, ProjectRecord, RegistryState, SlotRecord, ToolRecord } from './records';
import type { QueryFn, SqlDialect } from './sql';

type Row = Record<string, unknown>;
type NamedTable = 'resource_type' | 'resource' | 'project' | 'tool';

const RESOURCE_COLUMNS = 'r.id, r.name, r.short_name, r.type_id, r.description';

/**
 * Batched reads of the registry. Every method is one SQL statement (two for a
 * page: the rows and the total), whatever the number of keys, so callers and
 * DataLoaders get fixed statement counts.
 */
export class RegistryReader {
  constructor(
    private readonly query: QueryFn,
    private readonly sql: SqlDialect,
  ) {}

  /** The change counters. */
  async registryState(): Promise<RegistryState> {
    const [row] = await this.query('SELECT version, types_version FROM registry_state WHERE id = 1');
    return { version: Number(row.version), typesVersion: Number(row.types_version) };
  }

  /** Every type with its parents in declaration order. */
  async allTypes(): Promise<TypeNode[]> {
    const rows = await this.query(
      'SELECT t.id, t.name, t.description, p.parent_id FROM resource_type t LEFT JOIN resource_type_parent p ON p.type_id = t.id ORDER BY t.id, p.ordinal',
    );
    const types: TypeNode[] = [];
    let current: { id: string; name: string; description: string | null; parentIds: string[] } | null = null;
    for (const row of rows) {
      if (!current || current.id !== row.id) {
        current = {
          id: String(row.id),
          name: String(row.name),
          description: nullableString(row.description),
          parentIds: [],
        };
        types.push(current);
      }
      if (row.parent_id != null) current.parentIds.push(String(row.parent_id));
    }
    return types;
  }

  /** Resources by id. */
  async resourcesByIds(ids: readonly string[]): Promise<ResourceInfo[]> {
    if (ids.length === 0) return [];
    const rows = await this.query(`SELECT ${RESOURCE_COLUMNS} FROM resource r WHERE ${this.sql.inList('r.id')}`, [
      this.sql.listParam(ids),
    ]);
    return rows.map(toResource);
  }

  /** Resources by ref (id or name). */
  async resourcesByRefs(refs: readonly string[]): Promise<ResourceInfo[]> {
    return (await this.byRefs('resource', RESOURCE_COLUMNS, 'r', refs)).map(toResource);
  }

  /** Tools by id. */
  async toolsByIds(ids: readonly string[]): Promise<ToolRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.query(`SELECT r.id, r.name, r.description FROM tool r WHERE ${this.sql.inList('r.id')}`, [
      this.sql.listParam(ids),
    ]);
    return rows.map(toNamed);
  }

  /** Tools by ref. */
  async toolsByRefs(refs: readonly string[]): Promise<ToolRecord[]> {
    return (await this.byRefs('tool', 'r.id, r.name, r.description', 'r', refs)).map(toNamed);
  }

  /** Projects by id. */
  async projectsByIds(ids: readonly string[]): Promise<ProjectRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.query(
      `SELECT r.id, r.name, r.description FROM project r WHERE ${this.sql.inList('r.id')}`,
      [this.sql.listParam(ids)],
    );
    return rows.map(toNamed);
  }

  /** Projects by ref. */
  async projectsByRefs(refs: readonly string[]): Promise<ProjectRecord[]> {
    return (await this.byRefs('project', 'r.id, r.name, r.description', 'r', refs)).map(toNamed);
  }

  /** The slots of many tools, each tool's in declaration order. */
  async slotsByToolIds(toolIds: readonly string[]): Promise<SlotRecord[]> {
    if (toolIds.length === 0) return [];
    const rows = await this.query(
      `SELECT tool_id, ordinal, name, resource_type_id, access, binding, static_resource_id, required FROM resource_slot WHERE ${this.sql.inList('tool_id')} ORDER BY tool_id, ordinal`,
      [this.sql.listParam(toolIds)],
    );
    return rows.map((row) => ({
      toolId: String(row.tool_id),
      ordinal: Number(row.ordinal),
      name: String(row.name),
      typeId: String(row.resource_type_id),
      access: row.access as SlotRecord['access'],
      binding: row.binding as SlotRecord['binding'],
      staticResourceId: nullableString(row.static_resource_id),
      required: this.sql.bool(row.required),
    }));
  }

  /** The linked resources of many projects, each project's ordered by resource name. */
  async linksByProjectIds(projectIds: readonly string[]): Promise<LinkRecord[]> {
    if (projectIds.length === 0) return [];
    const rows = await this.query(
      `SELECT l.project_id, l.alias, ${RESOURCE_COLUMNS} FROM project_resource l JOIN resource r ON r.id = l.resource_id WHERE ${this.sql.inList('l.project_id')} ORDER BY l.project_id, r.name`,
      [this.sql.listParam(projectIds)],
    );
    return rows.map((row) => ({
      projectId: String(row.project_id),
      alias: nullableString(row.alias),
      resource: toResource(row),
    }));
  }

  /** Tool slots that statically bind a resource, as (tool, slot) names. */
  async staticUsesOf(resourceId: string, limit: number): Promise<{ tool: string; slot: string }[]> {
    const rows = await this.query(
      'SELECT t.name AS tool, s.name AS slot FROM resource_slot s JOIN tool t ON t.id = s.tool_id WHERE s.static_resource_id = ? ORDER BY t.name, s.ordinal LIMIT ?',
      [resourceId, limit],
    );
    return rows.map((r) => ({ tool: String(r.tool), slot: String(r.slot) }));
  }

  /** Tool slots that require a type, as (tool, slot) names. */
  async slotUsesOfType(typeId: string, limit: number): Promise<{ tool: string; slot: string }[]> {
    const rows = await this.query(
      'SELECT t.name AS tool, s.name AS slot FROM resource_slot s JOIN tool t ON t.id = s.tool_id WHERE s.resource_type_id = ? ORDER BY t.name, s.ordinal LIMIT ?',
      [typeId, limit],
    );
    return rows.map((r) => ({ tool: String(r.tool), slot: String(r.slot) }));
  }

  /** Names of resources of a type. */
  async resourceNamesOfType(typeId: string, limit: number): Promise<string[]> {
    const rows = await this.query('SELECT name FROM resource WHERE type_id = ? ORDER BY name LIMIT ?', [typeId, limit]);
    return rows.map((r) => String(r.name));
  }

  /** For many resources: the tool slots that bind each statically. */
  async staticSlotsByResourceIds(
    resourceIds: readonly string[],
  ): Promise<{ resourceId: string; toolId: string; slot: string }[]> {
    if (resourceIds.length === 0) return [];
    const rows = await this.query(
      `SELECT static_resource_id, tool_id, name FROM resource_slot WHERE ${this.sql.inList('static_resource_id')} ORDER BY static_resource_id, tool_id, ordinal`,
      [this.sql.listParam(resourceIds)],
    );
    return rows.map((r) => ({
      resourceId: String(r.static_resource_id),
      toolId: String(r.tool_id),
      slot: String(r.name),
    }));
  }

  /** For many resources: the projects that link each, with the alias. */
  async linksByResourceIds(
    resourceIds: readonly string[],
  ): Promise<{ resourceId: string; projectId: string; alias: string | null }[]> {
    if (resourceIds.length === 0) return [];
    const rows = await this.query(
      `SELECT resource_id, project_id, alias FROM project_resource WHERE ${this.sql.inList('resource_id')} ORDER BY resource_id, project_id`,
      [this.sql.listParam(resourceIds)],
    );
    return rows.map((r) => ({
      resourceId: String(r.resource_id),
      projectId: String(r.project_id),
      alias: nullableString(r.alias),
    }));
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
    const after = afterName === null ? '' : ' WHERE r.name > ?';
    const rows = await this.query(
      `WITH ${cte} SELECT k, id, name, short_name, type_id, description FROM (` +
        `SELECT m.k, ${RESOURCE_COLUMNS}, ROW_NUMBER() OVER (PARTITION BY m.k ORDER BY r.name) AS rn FROM m JOIN resource r ON r.type_id = m.t${after}` +
        `) x WHERE rn <= ? ORDER BY k, name`,
      [...params, ...(afterName === null ? [] : [afterName]), first + 1],
    );
    const counts = await this.query(
      `WITH ${cte} SELECT m.k, COUNT(*) AS n FROM m JOIN resource r ON r.type_id = m.t GROUP BY m.k`,
      params,
    );
    const items = new Map<string, ResourceInfo[]>();
    for (const row of rows) {
      const key = String(row.k);
      const list = items.get(key) ?? [];
      list.push(toResource(row));
      items.set(key, list);
    }
    const totals = new Map(counts.map((row) => [String(row.k), Number(row.n)]));
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
    return this.page('resource_type', 'id, name, description', request, null, toNamed);
  }

  /** A page of resources by name, optionally only of the given types. */
  async pageResources(request: PageRequest, typeIds: readonly string[] | null): Promise<Page<ResourceInfo>> {
    return this.page('resource', 'id, name, short_name, type_id, description', request, typeIds, toResource);
  }

  /** A page of projects by name. */
  async pageProjects(request: PageRequest): Promise<Page<ProjectRecord>> {
    return this.page('project', 'id, name, description', request, null, toNamed);
  }

  /** A page of tools by name. */
  async pageTools(request: PageRequest): Promise<Page<ToolRecord>> {
    return this.page('tool', 'id, name, description', request, null, toNamed);
  }

  private async byRefs(table: NamedTable, columns: string, alias: string, refs: readonly string[]): Promise<Row[]> {
    if (refs.length === 0) return [];
    const ids = refs.filter(isIdRef);
    const names = refs.filter((ref) => !isIdRef(ref));
    // One index lookup per list; an OR of both would make the planner do more work for the usual case of names only.
    const where = [
      ids.length > 0 ? this.sql.inList(`${alias}.id`) : null,
      names.length > 0 ? this.sql.inList(`${alias}.name`) : null,
    ]
      .filter(Boolean)
      .join(' OR ');
    const params = [
      ...(ids.length > 0 ? [this.sql.listParam(ids)] : []),
      ...(names.length > 0 ? [this.sql.listParam(names)] : []),
    ];
    return this.query(`SELECT ${columns} FROM ${table} ${alias} WHERE ${where}`, params);
  }

  private async page<T>(
    table: NamedTable,
    columns: string,
    request: PageRequest,
    typeIds: readonly string[] | null,
    map: (row: Row) => T,
  ): Promise<Page<T>> {
    const filters: string[] = [];
    const params: unknown[] = [];
    if (request.nameContains) {
      filters.push(this.sql.containsIgnoringCase('name'));
      params.push(this.sql.containsParam(request.nameContains));
    }
    if (typeIds) {
      filters.push(this.sql.inList('type_id'));
      params.push(this.sql.listParam(typeIds));
    }
    const where = (extra: string[]) => (extra.length > 0 ? ` WHERE ${extra.join(' AND ')}` : '');
    const pageFilters = request.afterName === null ? filters : [...filters, 'name > ?'];
    const pageParams = request.afterName === null ? params : [...params, request.afterName];
    const rows = await this.query(`SELECT ${columns} FROM ${table}${where(pageFilters)} ORDER BY name LIMIT ?`, [
      ...pageParams,
      request.first + 1,
    ]);
    const [count] = await this.query(`SELECT COUNT(*) AS n FROM ${table}${where(filters)}`, params);
    return {
      items: rows.slice(0, request.first).map(map),
      totalCount: Number(count.n),
      hasNextPage: rows.length > request.first,
    };
  }
}

/** Writes of the registry, inside one write transaction. */
export class RegistryWriter {
  /** Reads that see this transaction's own writes. */
  readonly reader: RegistryReader;

  constructor(private readonly tx: WriteTransaction) {
    this.reader = new RegistryReader(tx.query, tx.sql);
  }

  /** The counters once this transaction commits (known after beginChange). */
  private counters: RegistryState | null = null;

  /**
   * Bumps the registry version. Run first in every write transaction: on
   * PostgreSQL the row lock it takes orders writers across instances.
   * Returns the counters with the new version and the types version as it
   * stood before this transaction.
   */
  async beginChange(): Promise<RegistryState> {
    await this.tx.query('UPDATE registry_state SET version = version + 1 WHERE id = 1');
    const state = await this.reader.registryState();
    this.counters = state;
    return state;
  }

  /** Records that this transaction changed resource types. */
  async markTypesChanged(): Promise<void> {
    await this.tx.query('UPDATE registry_state SET types_version = types_version + 1 WHERE id = 1');
    if (this.counters) this.counters = { ...this.counters, typesVersion: this.counters.typesVersion + 1 };
  }

  /** The counters this transaction leaves (writers are ordered by the row lock, so nothing else moves them meanwhile). */
  committedState(): RegistryState {
    if (!this.counters) throw new Error('committedState() before beginChange()');
    return this.counters;
  }

  async insertType(type: TypeNode): Promise<void> {
    await this.tx.manager.insert(ResourceTypeEntity, { id: type.id, name: type.name, description: type.description });
    if (type.parentIds.length > 0) {
      await this.tx.manager.insert(
        ResourceTypeParentEntity,
        type.parentIds.map((parentId, ordinal) => ({ typeId: type.id, parentId, ordinal })),
      );
    }
  }

  async insertResource(resource: ResourceInfo): Promise<void> {
    await this.tx.manager.insert(ResourceEntity, { ...resource });
  }

  async insertProject(project: ProjectRecord): Promise<void> {
    await this.tx.manager.insert(ProjectEntity, { ...project });
  }

  async insertLink(projectId: string, resourceId: string, alias: string | null): Promise<void> {
    await this.tx.manager.insert(ProjectResourceEntity, { projectId, resourceId, alias });
  }

  /** Removes a link; returns whether there was one. */
  async deleteLink(projectId: string, resourceId: string): Promise<boolean> {
    const result = await this.tx.manager.delete(ProjectResourceEntity, { projectId, resourceId });
    return (result.affected ?? 0) > 0;
  }

  async insertTool(tool: ToolRecord, slots: readonly Omit<SlotRecord, 'toolId' | 'ordinal'>[]): Promise<void> {
    await this.tx.manager.insert(ToolEntity, { ...tool });
    await this.insertSlots(tool.id, slots);
  }

  /** Replaces a tool's description and all its slots, keeping its id and name. */
  async replaceTool(tool: ToolRecord, slots: readonly Omit<SlotRecord, 'toolId' | 'ordinal'>[]): Promise<void> {
    await this.tx.manager.update(ToolEntity, { id: tool.id }, { description: tool.description });
    await this.tx.manager.delete(ResourceSlotEntity, { toolId: tool.id });
    await this.insertSlots(tool.id, slots);
  }

  private async insertSlots(toolId: string, slots: readonly Omit<SlotRecord, 'toolId' | 'ordinal'>[]): Promise<void> {
    if (slots.length > 0) {
      await this.tx.manager.insert(
        ResourceSlotEntity,
        slots.map((slot, ordinal) => ({
          toolId,
          ordinal,
          name: slot.name,
          resourceTypeId: slot.typeId,
          access: slot.access,
          binding: slot.binding,
          staticResourceId: slot.staticResourceId,
          required: slot.required,
        })),
      );
    }
  }

  /** Removes a resource; its project links go with it (ON DELETE CASCADE). */
  async deleteResource(resourceId: string): Promise<boolean> {
    return ((await this.tx.manager.delete(ResourceEntity, { id: resourceId })).affected ?? 0) > 0;
  }

  /** Removes a resource type and its parent edges. */
  async deleteType(typeId: string): Promise<boolean> {
    return ((await this.tx.manager.delete(ResourceTypeEntity, { id: typeId })).affected ?? 0) > 0;
  }

  /** Removes a project and its links. */
  async deleteProject(projectId: string): Promise<boolean> {
    return ((await this.tx.manager.delete(ProjectEntity, { id: projectId })).affected ?? 0) > 0;
  }

  /** Removes a tool and its slots; returns whether there was one. */
  async deleteTool(toolId: string): Promise<boolean> {
    const result = await this.tx.manager.delete(ToolEntity, { id: toolId });
    return (result.affected ?? 0) > 0;
  }
}

function toResource(row: Row): ResourceInfo {
  return {
    id: String(row.id),
    name: String(row.name),
    shortName: String(row.short_name),
    typeId: String(row.type_id),
    description: nullableString(row.description),
  };
}

function toNamed(row: Row): { id: string; name: string; description: string | null } {
  return { id: String(row.id), name: String(row.name), description: nullableString(row.description) };
}

function nullableString(value: unknown): string | null {
  return value == null ? null : String(value);
}
