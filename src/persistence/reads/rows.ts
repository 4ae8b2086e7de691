/** Rows as the records the registry hands out. */
import { loggedChangeId, type BindingChange } from '../../core/binding-impact';
import type { ChangeKind } from '../../core/registry-edit';
import type { ChangeHead, ChangeRecord, NamedItem, ProjectRecord, ResourceRecord } from '../records';
import { columnList, RESOURCE, type RegistryChangeRow, type ResourceRow } from '../tables';

/** A resource's columns, as `r.…`. */
export const RESOURCE_COLUMNS = columnList(RESOURCE.columns, 'r');

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
export function namedItem(row: { id: string; name: string }): NamedItem {
  return { id: row.id, name: row.name };
}

/** A row of a named thing (type, tool, project) as a record. */
export function toNamed(row: {
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

/** A change-log row as a record. */
export function toChange(row: RegistryChangeRow): ChangeRecord {
  return {
    ...toChangeHead(row),
    // Stored without ids (each is its entry's and its slot's): given them here, as the entry's writer did.
    bindingChanges: row.binding_changes
      ? (JSON.parse(row.binding_changes) as BindingChange[]).map((change) => ({
          ...change,
          id: loggedChangeId(row.id, change),
        }))
      : [],
  };
}

/** A change-log row read without its binding changes, as a record. */
export function toChangeHead(row: Omit<RegistryChangeRow, 'binding_changes'>): ChangeHead {
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
    impactComplete: row.impact_complete === true || Number(row.impact_complete) === 1,
    namespace: row.namespace,
  };
}
