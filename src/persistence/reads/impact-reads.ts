/** What a change can reach: the reads binding impact makes before and after a write. */
import type { NamedItem } from '../records';
import { PROJECT, PROJECT_RESOURCE, RESOURCE, RESOURCE_SLOT, TOOL } from '../tables';
import type { ReadContext } from './read-context';

const R = RESOURCE.columns;
const S = RESOURCE_SLOT.columns;
const L = PROJECT_RESOURCE.columns;
const T = TOOL.columns;
const P = PROJECT.columns;

/** The tools with a CONTEXTUAL slot of one of the types, with each such type: a tool once per type. */
export async function toolsWithContextualSlotsOf(
  db: ReadContext,
  typeIds: readonly string[],
): Promise<(NamedItem & { typeId: string })[]> {
  if (typeIds.length === 0) return [];
  const rows = await db.query<{ type_id: string; id: string; name: string }>(
    `SELECT DISTINCT s.${S.resourceTypeId} AS type_id, t.${T.id}, t.${T.name} FROM ${RESOURCE_SLOT.name} s ` +
      `JOIN ${TOOL.name} t ON t.${T.id} = s.${S.toolId} ` +
      `WHERE s.${S.binding} = 'CONTEXTUAL' AND ${db.sql.inList(`s.${S.resourceTypeId}`)}`,
    [db.sql.listParam(typeIds)],
  );
  return rows.map((row) => ({ typeId: row.type_id, id: row.id, name: row.name }));
}

/** The projects that link a resource of one of the types. */
export async function projectsLinkingTypes(db: ReadContext, typeIds: readonly string[]): Promise<NamedItem[]> {
  if (typeIds.length === 0) return [];
  return db.query<NamedItem>(
    `SELECT p.${P.id}, p.${P.name} FROM ${PROJECT.name} p WHERE p.${P.id} IN (SELECT l.${L.projectId} FROM ${PROJECT_RESOURCE.name} l ` +
      `JOIN ${RESOURCE.name} r ON r.${R.id} = l.${L.resourceId} WHERE ${db.sql.inList(`r.${R.typeId}`)})`,
    [db.sql.listParam(typeIds)],
  );
}

/** The tools with a STATIC slot bound to one of the resources, or to a resource of one of the types. */
export async function staticBinders(
  db: ReadContext,
  resourceIds: readonly string[],
  typeIds: readonly string[],
): Promise<NamedItem[]> {
  if (resourceIds.length === 0 && typeIds.length === 0) return [];
  return db.query<NamedItem>(
    `SELECT t.${T.id}, t.${T.name} FROM ${TOOL.name} t WHERE t.${T.id} IN (SELECT s.${S.toolId} FROM ${RESOURCE_SLOT.name} s ` +
      `JOIN ${RESOURCE.name} r ON r.${R.id} = s.${S.staticResourceId} WHERE ${db.sql.inList(`r.${R.id}`)} OR ${db.sql.inList(`r.${R.typeId}`)})`,
    [db.sql.listParam(resourceIds), db.sql.listParam(typeIds)],
  );
}

/** A STATIC slot bound to a resource, with what it needs (see staticSlotsOn). */
export interface StaticSlotUse {
  tool: string;
  slot: string;
  slotTypeId: string;
  resource: string;
  resourceTypeId: string;
}

/** The STATIC slots bound to one of the resources, or to a resource of one of the types, with what they need. */
export async function staticSlotsOn(
  db: ReadContext,
  resourceIds: readonly string[],
  typeIds: readonly string[],
): Promise<StaticSlotUse[]> {
  if (resourceIds.length === 0 && typeIds.length === 0) return [];
  return db.query(
    `SELECT t.${T.name} AS tool, s.${S.name} AS slot, s.${S.resourceTypeId} AS "slotTypeId", r.${R.name} AS resource, r.${R.typeId} AS "resourceTypeId" ` +
      `FROM ${RESOURCE_SLOT.name} s JOIN ${RESOURCE.name} r ON r.${R.id} = s.${S.staticResourceId} JOIN ${TOOL.name} t ON t.${T.id} = s.${S.toolId} ` +
      `WHERE ${db.sql.inList(`r.${R.id}`)} OR ${db.sql.inList(`r.${R.typeId}`)} ORDER BY t.${T.name}, s.${S.ordinal}`,
    [db.sql.listParam(resourceIds), db.sql.listParam(typeIds)],
  );
}

/** Every project's id and name. */
export async function allProjects(db: ReadContext): Promise<NamedItem[]> {
  return db.query<NamedItem>(`SELECT ${P.id}, ${P.name} FROM ${PROJECT.name}`);
}
