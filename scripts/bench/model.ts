/**
 * Reads a registry database back into plain in-memory data (the core's
 * shapes), so the benchmark can choose its requests offline with the
 * project's pure rules. Read-only; works on any registry file, generated or not.
 */
import BetterSqlite3 from 'better-sqlite3';
import type { Access, BindingMode, LinkedResource, ResourceInfo, SlotDefinition, TypeNode } from '../../src/core/model';
import { TypeHierarchy } from '../../src/core/type-hierarchy';
import {
  PROJECT,
  PROJECT_RESOURCE,
  REGISTRY_STATE,
  RESOURCE,
  RESOURCE_SLOT,
  RESOURCE_TYPE,
  RESOURCE_TYPE_PARENT,
  selectEveryColumn,
  TOOL,
  type ProjectResourceRow,
  type ProjectRow,
  type RegistryStateRow,
  type ResourceRow,
  type ResourceSlotRow,
  type ResourceTypeRow,
  type ToolRow,
} from '../../src/persistence/tables';

export interface ProjectModel {
  readonly id: string;
  readonly name: string;
  readonly links: LinkedResource[];
}

export interface ToolModel {
  readonly id: string;
  readonly name: string;
  readonly slots: SlotDefinition[];
}

/** The whole registry, in memory. */
export interface RegistryModel {
  readonly types: TypeNode[];
  readonly hierarchy: TypeHierarchy;
  readonly resources: ResourceInfo[];
  readonly resourceById: ReadonlyMap<string, ResourceInfo>;
  /** Resources of exactly this type. */
  readonly resourcesByType: ReadonlyMap<string, ResourceInfo[]>;
  readonly projects: ProjectModel[];
  readonly tools: ToolModel[];
  readonly state: { readonly version: number; readonly typesVersion: number };
  readonly counts: RegistryCounts;
}

/** What the registry holds, for the report. */
export interface RegistryCounts {
  readonly types: number;
  readonly typeParents: number;
  readonly typesWithSeveralParents: number;
  readonly maxDepth: number;
  readonly resources: number;
  readonly projects: number;
  readonly links: number;
  readonly aliasedLinks: number;
  readonly tools: number;
  readonly slots: number;
  readonly slotsByBinding: Record<BindingMode, number>;
}

/** Loads every type, resource, project link and tool slot from the file. */
export function loadRegistryModel(path: string): RegistryModel {
  const sqlite = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  try {
    const all = <T>(sql: string) => sqlite.prepare(sql).all() as T[];

    const types = new Map<string, TypeNode & { parentIds: string[] }>();
    for (const row of all<ResourceTypeRow>(
      `${selectEveryColumn(RESOURCE_TYPE)} ORDER BY ${RESOURCE_TYPE.columns.id}`,
    )) {
      types.set(row.id, {
        id: row.id,
        name: row.name,
        description: row.description,
        parentIds: [],
      });
    }
    let typeParents = 0;
    for (const row of all<{ type_id: string; parent_id: string }>(
      `${selectEveryColumn(RESOURCE_TYPE_PARENT)} ORDER BY ${RESOURCE_TYPE_PARENT.columns.typeId}, ${RESOURCE_TYPE_PARENT.columns.ordinal}`,
    )) {
      types.get(row.type_id)?.parentIds.push(row.parent_id);
      typeParents += 1;
    }
    const typeList = [...types.values()];
    const hierarchy = new TypeHierarchy(typeList);

    const resources: ResourceInfo[] = all<ResourceRow>(
      `${selectEveryColumn(RESOURCE)} ORDER BY ${RESOURCE.columns.id}`,
    ).map((row) => ({
      id: row.id,
      name: row.name,
      shortName: row.short_name,
      typeId: row.type_id,
      description: row.description,
    }));
    const resourceById = new Map(resources.map((r) => [r.id, r]));
    const resourcesByType = new Map<string, ResourceInfo[]>();
    for (const resource of resources) {
      const list = resourcesByType.get(resource.typeId);
      if (list) list.push(resource);
      else resourcesByType.set(resource.typeId, [resource]);
    }

    const projects = new Map<string, ProjectModel>();
    for (const row of all<ProjectRow>(`${selectEveryColumn(PROJECT)} ORDER BY ${PROJECT.columns.id}`))
      projects.set(row.id, { id: row.id, name: row.name, links: [] });
    let links = 0;
    let aliasedLinks = 0;
    for (const row of all<ProjectResourceRow>(selectEveryColumn(PROJECT_RESOURCE))) {
      const resource = resourceById.get(row.resource_id);
      const project = projects.get(row.project_id);
      if (!resource || !project) continue;
      project.links.push({ resource, alias: row.alias });
      links += 1;
      if (row.alias !== null) aliasedLinks += 1;
    }
    // The server lists a project's links by resource name; keep the same order.
    for (const project of projects.values())
      project.links.sort((a, b) =>
        a.resource.name < b.resource.name ? -1 : a.resource.name > b.resource.name ? 1 : 0,
      );

    const tools = new Map<string, ToolModel>();
    for (const row of all<ToolRow>(`${selectEveryColumn(TOOL)} ORDER BY ${TOOL.columns.id}`))
      tools.set(row.id, { id: row.id, name: row.name, slots: [] });
    const slotsByBinding: Record<BindingMode, number> = { CONTEXTUAL: 0, STATIC: 0, PARAMETER: 0 };
    let slots = 0;
    for (const row of all<ResourceSlotRow>(
      `${selectEveryColumn(RESOURCE_SLOT)} ORDER BY ${RESOURCE_SLOT.columns.toolId}, ${RESOURCE_SLOT.columns.ordinal}`,
    )) {
      const binding = row.binding as BindingMode;
      tools.get(row.tool_id)?.slots.push({
        name: row.name,
        typeId: row.resource_type_id,
        access: row.access as Access,
        binding,
        staticResourceId: row.static_resource_id,
        required: row.required === 1 || row.required === true,
      });
      slots += 1;
      slotsByBinding[binding] += 1;
    }

    const state = sqlite.prepare(selectEveryColumn(REGISTRY_STATE)).get() as RegistryStateRow;
    return {
      types: typeList,
      hierarchy,
      resources,
      resourceById,
      resourcesByType,
      projects: [...projects.values()],
      tools: [...tools.values()],
      state: { version: Number(state.version), typesVersion: Number(state.types_version) },
      counts: {
        types: typeList.length,
        typeParents,
        typesWithSeveralParents: typeList.filter((t) => t.parentIds.length > 1).length,
        maxDepth: maxDepth(hierarchy, typeList),
        resources: resources.length,
        projects: projects.size,
        links,
        aliasedLinks,
        tools: tools.size,
        slots,
        slotsByBinding,
      },
    };
  } finally {
    sqlite.close();
  }
}

/** The longest chain of parents in the hierarchy (levels − 1). */
function maxDepth(hierarchy: TypeHierarchy, types: readonly TypeNode[]): number {
  const memo = new Map<string, number>();
  const depth = (id: string): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    memo.set(id, 0); // a guard against cycles in foreign data
    const parents = hierarchy.parentsOf(id);
    const value = parents.length === 0 ? 0 : 1 + Math.max(...parents.map((p) => depth(p.id)));
    memo.set(id, value);
    return value;
  };
  return Math.max(0, ...types.map((t) => depth(t.id)));
}
