import type { ResourceInfo, SlotDefinition, TypeNode } from './model';

/** The kinds of thing a change to the registry touches. */
export const CHANGE_KINDS = ['RESOURCE_TYPE', 'RESOURCE', 'PROJECT', 'LINK', 'TOOL'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** A project or a tool as an edit records it. */
export interface EntityState {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
}

/** A project–resource link as an edit records it. */
export interface LinkState {
  readonly project: EntityState;
  readonly resource: ResourceInfo;
  readonly alias: string | null;
}

/** A tool and its slots as an edit records it. */
export interface ToolState extends EntityState {
  readonly slots: readonly SlotDefinition[];
}

/**
 * One change to one thing: `before` is null when it was created, `after` is
 * null when it was deleted, and both are set when it was updated.
 */
export interface Edit<K extends ChangeKind, T> {
  readonly kind: K;
  readonly before: T | null;
  readonly after: T | null;
}

/** Every change a write can make, with the thing as it was and as it is. */
export type RegistryEdit =
  | Edit<'RESOURCE_TYPE', TypeNode>
  | Edit<'RESOURCE', ResourceInfo>
  | Edit<'PROJECT', EntityState>
  | Edit<'LINK', LinkState>
  | Edit<'TOOL', ToolState>;

/** True when any edit changes resource types, so the type hierarchy must be rebuilt. */
export function changesTypes(edits: readonly RegistryEdit[]): boolean {
  return edits.some((edit) => edit.kind === 'RESOURCE_TYPE');
}
