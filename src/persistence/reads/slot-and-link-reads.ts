/** Reads of what ties things together: tools' slots, and projects' links to resources. */
import type { Access, BindingMode } from '../../core/model';
import type { LinkRecord, ProjectRecord, ResourceRecord, SlotRecord, ToolRecord } from '../records';
import {
  columnList,
  PROJECT,
  PROJECT_RESOURCE,
  RESOURCE,
  RESOURCE_SLOT,
  TOOL,
  type ProjectResourceRow,
  type ProjectRow,
  type ResourceRow,
  type ResourceSlotRow,
  type ToolRow,
} from '../tables';
import { refCondition } from './named-reads';
import type { ReadContext } from './read-context';
import { RESOURCE_COLUMNS, toNamed, toResource } from './rows';

const R = RESOURCE.columns;
const S = RESOURCE_SLOT.columns;
const L = PROJECT_RESOURCE.columns;
const T = TOOL.columns;

/** The slots of many tools, each tool's in declaration order. */
export async function slotsByToolIds(db: ReadContext, toolIds: readonly string[]): Promise<SlotRecord[]> {
  if (toolIds.length === 0) return [];
  const rows = await db.query<ResourceSlotRow>(
    `SELECT ${columnList(S)} FROM ${RESOURCE_SLOT.name} WHERE ${db.sql.inList(S.toolId)} ORDER BY ${S.toolId}, ${S.ordinal}`,
    [db.sql.listParam(toolIds)],
  );
  return rows.map((row) => toSlot(db, row));
}

/** A table's columns under another table's in one row: each `<alias>.<column> AS <prefix><column>`. */
function columnsAs(columns: Record<string, string>, alias: string, prefix: string): string {
  return Object.values(columns)
    .map((column) => `${alias}.${column} AS ${prefix}${column}`)
    .join(', ');
}

/** A static resource's columns beside a slot's, each as `sr_…`. */
const STATIC_RESOURCE_COLUMNS = columnsAs(R, 'r', 'sr_');

/**
 * The slots of many tools, each tool's in declaration order, with the
 * resources their static slots bind (each once), in one statement.
 */
export async function slotsWithStaticResources(
  db: ReadContext,
  toolIds: readonly string[],
): Promise<{ slots: SlotRecord[]; staticResources: ResourceRecord[] }> {
  if (toolIds.length === 0) return { slots: [], staticResources: [] };
  const rows = await db.query<ResourceSlotRow & StaticResourceRowAs>(
    `SELECT ${columnList(S, 's')}, ${STATIC_RESOURCE_COLUMNS} FROM ${RESOURCE_SLOT.name} s ` +
      `LEFT JOIN ${RESOURCE.name} r ON r.${R.id} = s.${S.staticResourceId} ` +
      `WHERE ${db.sql.inList(`s.${S.toolId}`)} ORDER BY s.${S.toolId}, s.${S.ordinal}`,
    [db.sql.listParam(toolIds)],
  );
  return { slots: rows.map((row) => toSlot(db, row)), staticResources: staticResourcesOf(rows) };
}

/** A tool's columns beside its slots' and their static resources', each as `t_…`. */
const TOOL_COLUMNS = columnsAs(T, 't', 't_');

/**
 * Tools by ref (an id or a name), with their slots, each tool's in
 * declaration order, and the resources their static slots bind (each once),
 * in one statement: a tool is read to be resolved or shown with its slots.
 */
export async function toolsWithSlotsByRefs(
  db: ReadContext,
  refs: readonly string[],
): Promise<{ tools: ToolRecord[]; slots: SlotRecord[]; staticResources: ResourceRecord[] }> {
  if (refs.length === 0) return { tools: [], slots: [], staticResources: [] };
  const where = refCondition(db, { id: `t.${T.id}`, name: `t.${T.name}`, nameKey: `t.${T.nameKey}` }, refs);
  const rows = await db.query<ToolRowAs & Nullable<ResourceSlotRow> & StaticResourceRowAs>(
    `SELECT ${TOOL_COLUMNS}, ${columnList(S, 's')}, ${STATIC_RESOURCE_COLUMNS} FROM ${TOOL.name} t ` +
      `LEFT JOIN ${RESOURCE_SLOT.name} s ON s.${S.toolId} = t.${T.id} ` +
      `LEFT JOIN ${RESOURCE.name} r ON r.${R.id} = s.${S.staticResourceId} ` +
      `WHERE ${where.sql} ORDER BY t.${T.id}, s.${S.ordinal}`,
    where.params,
  );
  const tools = new Map<string, ToolRecord>();
  const slots: SlotRecord[] = [];
  for (const row of rows) {
    if (!tools.has(row.t_id)) {
      tools.set(
        row.t_id,
        toNamed({
          id: row.t_id,
          name: row.t_name,
          description: row.t_description,
          created_at: row.t_created_at,
          updated_at: row.t_updated_at,
        }),
      );
    }
    // A tool without slots has one row, with no slot in it.
    if (row.tool_id !== null) slots.push(toSlot(db, row as ResourceSlotRow));
  }
  return { tools: [...tools.values()], slots, staticResources: staticResourcesOf(rows) };
}

type Nullable<T> = { [K in keyof T]: T[K] | null };
type ToolRowAs = Record<`t_${keyof ToolRow}`, string> & { t_description: string | null };
type StaticResourceRowAs = Record<`sr_${keyof ResourceRow}`, string | null>;

/** The static resources of slot rows (their `sr_…` columns), each once. */
function staticResourcesOf(rows: readonly StaticResourceRowAs[]): ResourceRecord[] {
  const staticResources = new Map<string, ResourceRecord>();
  for (const row of rows) {
    if (row.sr_id === null || staticResources.has(row.sr_id)) continue;
    staticResources.set(
      row.sr_id,
      toResource({
        id: row.sr_id,
        name: row.sr_name!,
        name_key: row.sr_name_key!,
        short_name: row.sr_short_name!,
        type_id: row.sr_type_id!,
        description: row.sr_description,
        created_at: row.sr_created_at!,
        updated_at: row.sr_updated_at!,
      }),
    );
  }
  return [...staticResources.values()];
}

function toSlot(db: ReadContext, row: ResourceSlotRow): SlotRecord {
  return {
    toolId: row.tool_id,
    ordinal: Number(row.ordinal),
    name: row.name,
    typeId: row.resource_type_id,
    access: row.access as Access,
    binding: row.binding as BindingMode,
    staticResourceId: row.static_resource_id,
    required: db.sql.bool(row.required),
  };
}

/** The links that `where` picks (on `l`, the link, and `r`, its resource), with their resources, in `orderBy`. */
async function linksWhere(
  db: ReadContext,
  where: string,
  params: readonly unknown[],
  orderBy: string,
): Promise<LinkRecord[]> {
  const rows = await db.query<ResourceRow & Pick<ProjectResourceRow, 'project_id' | 'alias'>>(
    `SELECT l.${L.projectId}, l.${L.alias}, ${RESOURCE_COLUMNS} FROM ${PROJECT_RESOURCE.name} l ` +
      `JOIN ${RESOURCE.name} r ON r.${R.id} = l.${L.resourceId} WHERE ${where} ORDER BY ${orderBy}`,
    params,
  );
  return rows.map((row) => ({ projectId: row.project_id, alias: row.alias, resource: toResource(row) }));
}

/** The linked resources of many projects, each project's ordered by resource name. */
export async function linksByProjectIds(db: ReadContext, projectIds: readonly string[]): Promise<LinkRecord[]> {
  if (projectIds.length === 0) return [];
  return linksWhere(
    db,
    db.sql.inList(`l.${L.projectId}`),
    [db.sql.listParam(projectIds)],
    `l.${L.projectId}, r.${R.name}`,
  );
}

/**
 * The links of one project that a link of `resourceId` under `alias` could clash with: the resource's own link
 * and the link under the alias (at most two; none under a null alias), by resource name. A link or alias write
 * checks these, not every link of the project.
 */
export function linksClashingWith(
  db: ReadContext,
  projectId: string,
  resourceId: string,
  alias: string | null,
): Promise<LinkRecord[]> {
  return linksWhere(
    db,
    `l.${L.projectId} = ? AND (l.${L.resourceId} = ? OR l.${L.alias} = ?)`,
    [projectId, resourceId, alias],
    `r.${R.name}`,
  );
}

/** Tool slots whose `column` is `value`, as (tool, slot) names, in tool name and slot order. */
export async function slotUses(
  db: ReadContext,
  column: 'static_resource_id' | 'resource_type_id',
  value: string,
  limit: number,
): Promise<{ tool: string; slot: string }[]> {
  const rows = await db.query<{ tool: string; slot: string }>(
    `SELECT t.${TOOL.columns.name} AS tool, s.${S.name} AS slot FROM ${RESOURCE_SLOT.name} s JOIN ${TOOL.name} t ON t.${TOOL.columns.id} = s.${S.toolId} ` +
      `WHERE s.${column} = ? ORDER BY t.${TOOL.columns.name}, s.${S.ordinal} LIMIT ?`,
    [value, limit],
  );
  return rows.map((r) => ({ tool: r.tool, slot: r.slot }));
}

/** Names of resources of a type. */
export async function resourceNamesOfType(db: ReadContext, typeId: string, limit: number): Promise<string[]> {
  const rows = await db.query<Pick<ResourceRow, 'name'>>(
    `SELECT ${R.name} FROM ${RESOURCE.name} WHERE ${R.typeId} = ? ORDER BY ${R.name} LIMIT ?`,
    [typeId, limit],
  );
  return rows.map((r) => r.name);
}

/** For many resources: the tool slots that bind each statically. */
export async function staticSlotsByResourceIds(
  db: ReadContext,
  resourceIds: readonly string[],
): Promise<{ resourceId: string; toolId: string; slot: string }[]> {
  if (resourceIds.length === 0) return [];
  const rows = await db.query<Pick<ResourceSlotRow, 'static_resource_id' | 'tool_id' | 'name'>>(
    `SELECT ${S.staticResourceId}, ${S.toolId}, ${S.name} FROM ${RESOURCE_SLOT.name} WHERE ${db.sql.inList(S.staticResourceId)} ` +
      `ORDER BY ${S.staticResourceId}, ${S.toolId}, ${S.ordinal}`,
    [db.sql.listParam(resourceIds)],
  );
  return rows.map((r) => ({ resourceId: r.static_resource_id ?? '', toolId: r.tool_id, slot: r.name }));
}

/** For many resources: the projects that link each, with the alias. */
export async function linksByResourceIds(
  db: ReadContext,
  resourceIds: readonly string[],
): Promise<{ resourceId: string; projectId: string; alias: string | null }[]> {
  if (resourceIds.length === 0) return [];
  const rows = await db.query<ProjectResourceRow>(
    `SELECT ${columnList(L)} FROM ${PROJECT_RESOURCE.name} WHERE ${db.sql.inList(L.resourceId)} ORDER BY ${L.resourceId}, ${L.projectId}`,
    [db.sql.listParam(resourceIds)],
  );
  return rows.map((r) => ({ resourceId: r.resource_id, projectId: r.project_id, alias: r.alias }));
}

/** The projects that link a resource, with the alias, ordered by project name. */
export async function linkingProjects(
  db: ReadContext,
  resourceId: string,
): Promise<{ project: ProjectRecord; alias: string | null }[]> {
  const P = PROJECT.columns;
  const rows = await db.query<ProjectRow & Pick<ProjectResourceRow, 'alias'>>(
    `SELECT ${columnList(P, 'p')}, l.${L.alias} FROM ${PROJECT_RESOURCE.name} l JOIN ${PROJECT.name} p ON p.${P.id} = l.${L.projectId} ` +
      `WHERE l.${L.resourceId} = ? ORDER BY p.${P.name}`,
    [resourceId],
  );
  return rows.map((row) => ({ project: toNamed(row), alias: row.alias }));
}
