import type { IdentifiedChange } from '../core/binding-impact';
import type { ResourceInfo, SlotDefinition, TypeNode } from '../core/model';
import type { ChangeKind, EntityState, GrantState } from '../core/registry-edit';

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

/**
 * A keyset window and which end of it to take: the items after `after` and
 * before `before` (exclusive, either open), in order, and of those the first
 * `size`, or the last `size` when `fromEnd` (a Relay `last`).
 */
export interface Window<K> {
  readonly size: number;
  readonly fromEnd: boolean;
  readonly after: K | null;
  readonly before: K | null;
  /**
   * false: the caller reads neither the total nor whether items lie beyond
   * the cursor the page starts from, so they are not counted (the page then
   * has totalCount -1, and that flag false). Counted when absent.
   */
  readonly count?: boolean;
}

/** A page of named items, by name in byte order, optionally only names containing some text. */
export interface PageRequest extends Window<string> {
  readonly nameContains: string | null;
}

/** What a page by name reads of each item from the name index alone: its id and name. */
export interface NamedItem {
  readonly id: string;
  readonly name: string;
}

/** One page, in order, and the size of the whole filtered list. */
export interface Page<T> {
  readonly items: T[];
  readonly totalCount: number;
  /** Items follow this page: within the window when it was taken from the start, else after `before`. */
  readonly hasNextPage: boolean;
  /** Items precede this page: within the window when it was taken from the end, else up to `after`. */
  readonly hasPreviousPage: boolean;
}

/** The registry's change counters (see RegistryStateEntity). */
export interface RegistryState {
  readonly version: number;
  readonly typesVersion: number;
}

/** One entry of the change log without its binding changes (what a reader that does not show them needs). */
export interface ChangeHead {
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
  /** How many binding changes this entry caused, among the (tool, project) pairs examined. */
  readonly impactCount: number;
  /** False when the impact cap left some of the pairs this entry reached unexamined: impactCount is then a lower bound. */
  readonly impactComplete: boolean;
  /** For an access entry (GRANT, API_TOKEN): the namespace it concerns, or `*`; null for every other entry. */
  readonly namespace: string | null;
}

/** One entry of the change log. */
export interface ChangeRecord extends ChangeHead {
  /** The binding changes this entry caused (at most the stored number; impactCount counts them all). */
  readonly bindingChanges: readonly IdentifiedChange[];
}

/** Which change-log entries to list. */
export interface ChangeFilter {
  readonly kind: ChangeKind | null;
  /** Entries about this entity: its id, or any name it had (for a link, its project or its resource). */
  readonly ref: string | null;
  readonly actor: string | null;
  /** Entries of versions after this one. */
  readonly sinceVersion: number | null;
  /** Access entries (GRANT, API_TOKEN) are listed only when filed under one of these namespaces; null: all of them. */
  readonly accessNamespaces: readonly string[] | null;
}

/** A position in the change log. */
export interface ChangePosition {
  readonly version: number;
  readonly seq: number;
}

/** A page of the change log, by (version, seq) position, oldest first. */
export type ChangePageRequest = Window<ChangePosition>;

/** A role grant row. */
export type GrantRecord = GrantState;

/** An API token row, without the digest of its secret. */
export interface ApiTokenRecord {
  readonly id: string;
  readonly name: string;
  readonly createdBy: string;
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly lastUsedAt: string | null;
  readonly revokedAt: string | null;
}

/**
 * Which grants or tokens a principal may list: those on the namespaces it
 * owns, and its own (by principal); null namespaces: every one (an OWNER of `*`).
 */
export interface AccessVisibility {
  readonly namespaces: readonly string[] | null;
  readonly principals: readonly string[];
}

/** Which role grants to list. */
export interface GrantFilter {
  readonly namespace: string | null;
  readonly principal: string | null;
  readonly visible: AccessVisibility;
}
