/** Plain data shapes the core rules work on. No persistence or transport concerns. */

/** How a tool may use the resource bound to a slot. */
export const ACCESS_MODES = ['READ_ONLY', 'READ_WRITE', 'WRITE_ONLY'] as const;
export type Access = (typeof ACCESS_MODES)[number];

/** How a slot finds its resource: from the project, fixed at registration, or named at invocation. */
export const BINDING_MODES = ['CONTEXTUAL', 'STATIC', 'PARAMETER'] as const;
export type BindingMode = (typeof BINDING_MODES)[number];

/** A resource type and its direct parents, in declaration order. */
export interface TypeNode {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly parentIds: readonly string[];
}

/** A registered resource. `shortName` is the last '/'-separated segment of `name`. */
export interface ResourceInfo {
  readonly id: string;
  readonly name: string;
  readonly shortName: string;
  readonly typeId: string;
  readonly description: string | null;
}

/** A resource linked to a project, with the link's optional alias. */
export interface LinkedResource {
  readonly resource: ResourceInfo;
  readonly alias: string | null;
}

/** A stored slot of a registered tool: refs are already resolved to ids. */
export interface SlotDefinition {
  readonly name: string;
  readonly typeId: string;
  readonly access: Access;
  readonly binding: BindingMode;
  readonly staticResourceId: string | null;
  readonly required: boolean;
}
