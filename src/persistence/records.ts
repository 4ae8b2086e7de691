import type { BindingChange } from '../core/binding-impact';
import type { ResourceInfo, SlotDefinition, TypeNode } from '../core/model';
import type { ChangeKind, EntityState } from '../core/registry-edit';

/** When a row was created and last updated (ISO-8601, UTC). */
export interface Timestamps {
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A resource type row, with its direct parents. */
export interface TypeRecord extends TypeNode, Timestamps {}

/** A resource row. */
export interface ResourceRecord extends ResourceInfo, Timestamps {}

/** A project row. */
export interface ProjectRecord extends EntityState, Timestamps {}

/** A tool row. */
export interface ToolRecord extends EntityState, Timestamps {}

/** A slot row: the core's slot definition plus its tool and position. */
export interface SlotRecord extends SlotDefinition {
  readonly toolId: string;
  readonly ordinal: number;
}

/** A project link with its resource. */
export interface LinkRecord {
  readonly projectId: string;
  readonly alias: string | null;
  readonly resource: ResourceRecord;
}

/** A keyset page request: names after `afterName`, in byte order. */
export interface PageRequest {
  readonly first: number;
  readonly afterName: string | null;
  readonly nameContains: string | null;
}

/** One page, and the size of the whole filtered list. */
export interface Page<T> {
  readonly items: T[];
  readonly totalCount: number;
  readonly hasNextPage: boolean;
}

/** The registry's change counters (see RegistryStateEntity). */
export interface RegistryState {
  readonly version: number;
  readonly typesVersion: number;
}

/** One entry of the change log. */
export interface ChangeRecord {
  readonly id: string;
  readonly version: number;
  readonly seq: number;
  readonly at: string;
  readonly actor: string;
  readonly operation: string;
  readonly kind: ChangeKind;
  readonly entityId: string;
  readonly entityName: string;
  readonly previousName: string | null;
  readonly relatedId: string | null;
  readonly relatedName: string | null;
  readonly summary: string;
  readonly impactCount: number;
  /** The binding changes this entry caused (at most the stored number; impactCount counts them all). */
  readonly bindingChanges: readonly BindingChange[];
}

/** Which change-log entries to list. */
export interface ChangeFilter {
  readonly kind: ChangeKind | null;
  /** Entries about this entity: its id, or any name it had (for a link, its project or its resource). */
  readonly ref: string | null;
  readonly actor: string | null;
  /** Entries of versions after this one. */
  readonly sinceVersion: number | null;
}

/** A page of the change log: entries after the (version, seq) position, oldest first. */
export interface ChangePageRequest {
  readonly first: number;
  readonly after: { readonly version: number; readonly seq: number } | null;
}
