/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** How a tool may use the resource bound to a slot. */
export type Access =
  /** The tool only reads the resource (the default). */
  | 'READ_ONLY'
  /** The tool reads and writes the resource. */
  | 'READ_WRITE'
  /** The tool only writes the resource. */
  | 'WRITE_ONLY';

/** Which rule bound a slot. */
export type BindHow =
  /** Among several, the one linked under an alias equal to the slot name. */
  | 'ALIAS'
  /** The resource passed as a param. */
  | 'PARAMETER'
  /** Among several, the one whose short name equals the slot name. */
  | 'SHORT_NAME'
  /** The only compatible linked resource. */
  | 'SINGLE_CANDIDATE'
  /** The slot's registered static resource. */
  | 'STATIC';

/** How a slot finds its resource. */
export type BindingMode =
  /** Found among the project's linked resources by type (the default). */
  | 'CONTEXTUAL'
  /** Named at invocation; deferred until then. */
  | 'PARAMETER'
  /** A fixed registered resource, checked at registration. */
  | 'STATIC';

/** How a tool stands in a project, resolved without params. */
export type CellStatus =
  /** Bound apart from PARAMETER slots, which wait for their params. */
  | 'DEFERRED'
  /** At least one slot cannot be bound; see reasons, and explainBindings for the fix. */
  | 'FAILED'
  /** Nothing fails, but an optional slot found nothing. */
  | 'OPTIONAL_UNBOUND'
  /** Every slot is bound. */
  | 'READY';

/** Which change-log entries to list; every field given must match. */
export type ChangeFilter = {
  /** Only entries by this actor (a principal, e.g. token:ci or user:alice). */
  readonly actor?: string | null | undefined;
  /** Only entries about this kind of thing. */
  readonly kind?: ChangeKind | null | undefined;
  /** Only entries about this entity: its id, or any name it ever had (so a deleted or renamed entity's history can be found). For a link, its project's or its resource's. */
  readonly ref?: string | null | undefined;
  /** Only entries of registry versions after this one. */
  readonly sinceVersion?: number | null | undefined;
};

/** What a change-log entry is about. */
export type ChangeKind =
  /** An API token, created or revoked (the entry's entityName is its principal, token:<name>). Shown only to OWNERs of its namespace. */
  | 'API_TOKEN'
  /** A role grant, given or revoked (the entry's entityName is the principal). Shown only to OWNERs of its namespace. */
  | 'GRANT'
  /** A project's link to a resource (the entry's entity is the project). */
  | 'LINK'
  /** A project. */
  | 'PROJECT'
  /** A resource. */
  | 'RESOURCE'
  /** A resource type. */
  | 'RESOURCE_TYPE'
  /** A tool and its slots. */
  | 'TOOL';

/** Why a slot could not be bound, as in resolveBindings. */
export type FailureReason =
  /** Several linked resources fit, and neither an alias nor a short name picks one. */
  | 'AMBIGUOUS'
  /** The named resource (static or parameter) is not registered. */
  | 'NOT_FOUND'
  /** No linked resource of the slot type (or a sub-type) fills a required slot. */
  | 'NO_MATCH'
  /** The named resource's type does not reach the slot type. */
  | 'TYPE_MISMATCH';

/** Filters projects. */
export type ProjectFilter = {
  /** Only projects that link this resource (a ref); unknown is NOT_FOUND. */
  readonly linksResource?: string | null | undefined;
  /** Only names containing this text, ignoring case. */
  readonly nameContains?: string | null | undefined;
};

/** Why a resource the rule looked at was not the one bound. */
export type Rejection =
  /** Compatible and tied with others: nothing picks one. */
  | 'AMBIGUOUS'
  /** Compatible, but another resource is linked under the alias. */
  | 'NOT_CHOSEN_ALIAS'
  /** Compatible, but another resource has the short name. */
  | 'NOT_CHOSEN_SHORT_NAME'
  /** The named resource is not registered. */
  | 'NOT_FOUND'
  /** Its type does not reach the slot's type (see typeChain). */
  | 'TYPE_MISMATCH';

/** Filters resources by name and type. */
export type ResourceFilter = {
  /** With `type`, also include resources of every sub-type, at any depth. */
  readonly includeSubtypes?: boolean | null | undefined;
  /** Only names containing this text, ignoring case. */
  readonly nameContains?: string | null | undefined;
  /** Only resources of this type (a ref); unknown is NOT_FOUND. */
  readonly type?: string | null | undefined;
};

/** One slot of a tool: the type of resource it needs, the access it wants, and how it is bound. */
export type ResourceSlotInput = {
  /** How the tool may use the resource; READ_ONLY by default. */
  readonly access?: Access;
  /** How the slot finds its resource; CONTEXTUAL by default. STATIC needs staticResource. */
  readonly binding?: BindingMode;
  /** Unique within the tool; ^[a-z_][a-z0-9_-]*$, at most 64 characters. */
  readonly name: string;
  /** False when the tool can run without it; true by default. */
  readonly required?: boolean;
  /** The required resource type (a ref). */
  readonly resourceType: string;
  /** For STATIC slots only: the resource (a ref). */
  readonly staticResource?: string | null | undefined;
};

/** What happened to a slot. */
export type SlotStatus =
  /** Only in a BindingChange: the slot does not exist on that side of the change (updateTool added or removed it). */
  | 'ABSENT'
  /** A resource fills the slot. */
  | 'BOUND'
  /** A PARAMETER slot without a param: bound at invocation. */
  | 'DEFERRED'
  /** The slot cannot be bound; see reason and fix. */
  | 'FAILED'
  /** An optional slot with no compatible resource: left empty, not an error. */
  | 'UNBOUND_OPTIONAL';

/** How the tools or projects of a summary are ordered. */
export type SummaryOrder =
  /** The most failed pairs first, then the most optional-unbound, then by name: what needs attention. */
  | 'FAILING_FIRST'
  /** By name. */
  | 'NAME';

/** Filters tools. */
export type ToolFilter = {
  /** Only names containing this text, ignoring case. */
  readonly nameContains?: string | null | undefined;
  /** Only tools with a slot that needs this resource type (a ref), sub-types included: "tools that need a database". Unknown is NOT_FOUND. */
  readonly slotType?: string | null | undefined;
};

/** Changes to a project; what is left out stays as it is. It keeps its id. */
export type UpdateProjectInput = {
  /** A new description; null clears it. Absent: unchanged. */
  readonly description?: string | null | undefined;
  /** A new name, unique ignoring case. Absent: unchanged. */
  readonly name?: string | null | undefined;
  /** The project (a ref). */
  readonly ref: string;
};

/** Changes to a resource; what is left out stays as it is. It keeps its id. */
export type UpdateResourceInput = {
  /** A new description; null clears it. Absent: unchanged. */
  readonly description?: string | null | undefined;
  /** A new name, unique ignoring case. Absent: unchanged. */
  readonly name?: string | null | undefined;
  /** The resource (a ref: id or name). */
  readonly ref: string;
  /** A new type (a ref); CONFLICT if a STATIC slot binding the resource would no longer accept it. Absent: unchanged. */
  readonly type?: string | null | undefined;
};

/** Changes to a resource type; what is left out stays as it is. It keeps its id. */
export type UpdateResourceTypeInput = {
  /** A new description; null clears it. Absent: unchanged. */
  readonly description?: string | null | undefined;
  /** A new name, unique. Absent: unchanged. */
  readonly name?: string | null | undefined;
  /** New direct parents (refs), replacing the old ones; [] for none. A cycle is BAD_USER_INPUT; leaving a static binding with a resource that no longer fits is CONFLICT. Absent: unchanged. */
  readonly parentTypes?: ReadonlyArray<string> | null | undefined;
  /** The resource type (a ref). */
  readonly ref: string;
};

/** A tool to replace: its name, description and all its slots. It keeps its id. */
export type UpdateToolInput = {
  /** Free text, at most 4,000 characters. */
  readonly description?: string | null | undefined;
  /** Unique; the same grammar as resource names. */
  readonly name: string;
  /** The tool to replace (a ref); absent: the tool named `name`. With a ref, `name` renames it. */
  readonly ref?: string | null | undefined;
  /** In order; at most 64. */
  readonly resourceSlots: ReadonlyArray<ResourceSlotInput>;
};

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { readonly viewer: { readonly principal: string | null, readonly groups: ReadonlyArray<string> } };

export type ImpactFragment = { readonly totalCount: number, readonly truncated: boolean, readonly complete: boolean, readonly changes: ReadonlyArray<{ readonly toolId: string, readonly toolName: string, readonly projectId: string | null, readonly projectName: string | null, readonly slotName: string, readonly before: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null }, readonly after: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null } }> };

export type LinkResourceMutationVariables = Exact<{
  project: string;
  resource: string;
  alias?: string | null | undefined;
  dryRun: boolean;
}>;


export type LinkResourceMutation = { readonly linkResource: { readonly dryRun: boolean, readonly registryVersion: number, readonly impact: { readonly totalCount: number, readonly truncated: boolean, readonly complete: boolean, readonly changes: ReadonlyArray<{ readonly toolId: string, readonly toolName: string, readonly projectId: string | null, readonly projectName: string | null, readonly slotName: string, readonly before: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null }, readonly after: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null } }> } } };

export type UnlinkResourceMutationVariables = Exact<{
  project: string;
  resource: string;
  dryRun: boolean;
}>;


export type UnlinkResourceMutation = { readonly unlinkResource: { readonly dryRun: boolean, readonly registryVersion: number, readonly impact: { readonly totalCount: number, readonly truncated: boolean, readonly complete: boolean, readonly changes: ReadonlyArray<{ readonly toolId: string, readonly toolName: string, readonly projectId: string | null, readonly projectName: string | null, readonly slotName: string, readonly before: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null }, readonly after: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null } }> } } };

export type UpdateLinkMutationVariables = Exact<{
  project: string;
  resource: string;
  alias?: string | null | undefined;
  dryRun: boolean;
}>;


export type UpdateLinkMutation = { readonly updateLink: { readonly dryRun: boolean, readonly registryVersion: number, readonly impact: { readonly totalCount: number, readonly truncated: boolean, readonly complete: boolean, readonly changes: ReadonlyArray<{ readonly toolId: string, readonly toolName: string, readonly projectId: string | null, readonly projectName: string | null, readonly slotName: string, readonly before: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null }, readonly after: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null } }> } } };

export type DeleteResourceMutationVariables = Exact<{
  ref: string;
  force: boolean;
  dryRun: boolean;
}>;


export type DeleteResourceMutation = { readonly deleteResource: { readonly deletedId: string, readonly dryRun: boolean, readonly registryVersion: number, readonly impact: { readonly totalCount: number, readonly truncated: boolean, readonly complete: boolean, readonly changes: ReadonlyArray<{ readonly toolId: string, readonly toolName: string, readonly projectId: string | null, readonly projectName: string | null, readonly slotName: string, readonly before: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null }, readonly after: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null } }> } } };

export type UpdateProjectMutationVariables = Exact<{
  input: UpdateProjectInput;
  dryRun: boolean;
}>;


export type UpdateProjectMutation = { readonly updateProject: { readonly dryRun: boolean, readonly registryVersion: number, readonly impact: { readonly totalCount: number, readonly truncated: boolean, readonly complete: boolean, readonly changes: ReadonlyArray<{ readonly toolId: string, readonly toolName: string, readonly projectId: string | null, readonly projectName: string | null, readonly slotName: string, readonly before: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null }, readonly after: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null } }> } } };

export type UpdateResourceMutationVariables = Exact<{
  input: UpdateResourceInput;
  dryRun: boolean;
}>;


export type UpdateResourceMutation = { readonly updateResource: { readonly dryRun: boolean, readonly registryVersion: number, readonly impact: { readonly totalCount: number, readonly truncated: boolean, readonly complete: boolean, readonly changes: ReadonlyArray<{ readonly toolId: string, readonly toolName: string, readonly projectId: string | null, readonly projectName: string | null, readonly slotName: string, readonly before: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null }, readonly after: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null } }> } } };

export type UpdateResourceTypeMutationVariables = Exact<{
  input: UpdateResourceTypeInput;
  dryRun: boolean;
}>;


export type UpdateResourceTypeMutation = { readonly updateResourceType: { readonly dryRun: boolean, readonly registryVersion: number, readonly impact: { readonly totalCount: number, readonly truncated: boolean, readonly complete: boolean, readonly changes: ReadonlyArray<{ readonly toolId: string, readonly toolName: string, readonly projectId: string | null, readonly projectName: string | null, readonly slotName: string, readonly before: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null }, readonly after: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null } }> } } };

export type UpdateToolMutationVariables = Exact<{
  input: UpdateToolInput;
  dryRun: boolean;
}>;


export type UpdateToolMutation = { readonly updateTool: { readonly dryRun: boolean, readonly registryVersion: number, readonly impact: { readonly totalCount: number, readonly truncated: boolean, readonly complete: boolean, readonly changes: ReadonlyArray<{ readonly toolId: string, readonly toolName: string, readonly projectId: string | null, readonly projectName: string | null, readonly slotName: string, readonly before: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null }, readonly after: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null } }> } } };

export type EntriesOfVersionQueryVariables = Exact<{
  since: number;
}>;


export type EntriesOfVersionQuery = { readonly changes: { readonly edges: ReadonlyArray<{ readonly node: { readonly id: string, readonly version: number, readonly at: string, readonly actor: string, readonly summary: string, readonly impactCount: number } }> } };

export type ChangeFragment = { readonly id: string, readonly version: number, readonly at: string, readonly actor: string, readonly operation: string, readonly kind: ChangeKind, readonly entityId: string, readonly entityName: string, readonly summary: string, readonly impactCount: number, readonly impactComplete: boolean };

export type BindingChangeRowFragment = { readonly toolId: string, readonly toolName: string, readonly projectId: string | null, readonly projectName: string | null, readonly slotName: string, readonly before: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null }, readonly after: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null } };

export type ChangesQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
  filter?: ChangeFilter | null | undefined;
}>;


export type ChangesQuery = { readonly changes: { readonly totalCount: number, readonly edges: ReadonlyArray<{ readonly cursor: string, readonly node: { readonly id: string, readonly version: number, readonly at: string, readonly actor: string, readonly operation: string, readonly kind: ChangeKind, readonly entityId: string, readonly entityName: string, readonly summary: string, readonly impactCount: number, readonly impactComplete: boolean } }>, readonly pageInfo: { readonly hasNextPage: boolean, readonly endCursor: string | null } } };

export type ChangeDetailQueryVariables = Exact<{
  after?: string | null | undefined;
  filter?: ChangeFilter | null | undefined;
}>;


export type ChangeDetailQuery = { readonly changes: { readonly edges: ReadonlyArray<{ readonly node: { readonly id: string, readonly bindingChanges: ReadonlyArray<{ readonly toolId: string, readonly toolName: string, readonly projectId: string | null, readonly projectName: string | null, readonly slotName: string, readonly before: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null }, readonly after: { readonly status: SlotStatus, readonly reason: FailureReason | null, readonly resourceName: string | null } }> } }> } };

export type NewestChangeQueryVariables = Exact<{ [key: string]: never; }>;


export type NewestChangeQuery = { readonly changes: { readonly edges: ReadonlyArray<{ readonly node: { readonly version: number } }> } };

export type RegistryChangedSubscriptionVariables = Exact<{
  afterVersion?: number | null | undefined;
}>;


export type RegistryChangedSubscription = { readonly registryChanged: { readonly id: string, readonly version: number, readonly at: string, readonly actor: string, readonly operation: string, readonly kind: ChangeKind, readonly entityId: string, readonly entityName: string, readonly summary: string, readonly impactCount: number, readonly impactComplete: boolean, readonly bindingChanges: ReadonlyArray<{ readonly toolId: string, readonly projectId: string | null }> } };

export type CountsFragment = { readonly ready: number, readonly deferred: number, readonly optionalUnbound: number, readonly failed: number, readonly total: number };

export type CellsFragment = { readonly totalCount: number, readonly nodes: ReadonlyArray<{ readonly projectId: string, readonly projectName: string, readonly toolId: string, readonly toolName: string, readonly status: CellStatus, readonly failedSlots: number, readonly reasons: ReadonlyArray<FailureReason> }>, readonly pageInfo: { readonly hasNextPage: boolean, readonly endCursor: string | null } };

export type MatrixQueryVariables = Exact<{
  projects?: ProjectFilter | null | undefined;
  tools?: ToolFilter | null | undefined;
  projectsFirst: number;
  projectsAfter?: string | null | undefined;
  toolsFirst: number;
  toolsAfter?: string | null | undefined;
}>;


export type MatrixQuery = { readonly bindingMatrix: { readonly projects: { readonly totalCount: number, readonly nodes: ReadonlyArray<{ readonly id: string, readonly name: string }>, readonly pageInfo: { readonly hasNextPage: boolean, readonly endCursor: string | null } }, readonly tools: { readonly totalCount: number, readonly nodes: ReadonlyArray<{ readonly id: string, readonly name: string }>, readonly pageInfo: { readonly hasNextPage: boolean, readonly endCursor: string | null } }, readonly cells: ReadonlyArray<{ readonly projectId: string, readonly toolId: string, readonly status: CellStatus, readonly failedSlots: number, readonly reasons: ReadonlyArray<FailureReason> }> } };

export type ExplainQueryVariables = Exact<{
  tool: string;
  project: string;
}>;


export type ExplainQuery = { readonly explainBindings: { readonly ok: boolean, readonly tool: { readonly id: string, readonly name: string, readonly resourceSlots: ReadonlyArray<{ readonly name: string, readonly binding: BindingMode, readonly access: Access, readonly required: boolean, readonly resourceType: { readonly name: string } }> }, readonly project: { readonly id: string, readonly name: string }, readonly slots: ReadonlyArray<{ readonly slotName: string, readonly bindingMode: BindingMode, readonly status: SlotStatus, readonly reason: FailureReason | null, readonly how: BindHow | null, readonly message: string, readonly fix: string | null, readonly resource: { readonly name: string } | null, readonly candidates: ReadonlyArray<{ readonly ref: string, readonly alias: string | null, readonly accepted: boolean, readonly rejection: Rejection | null, readonly message: string, readonly typeChain: ReadonlyArray<string>, readonly resource: { readonly id: string, readonly name: string } | null }> }> } };

export type OverviewQueryVariables = Exact<{
  first: number;
}>;


export type OverviewQuery = { readonly bindingSummary: { readonly registryVersion: number, readonly toolCount: number, readonly projectCount: number, readonly total: { readonly ready: number, readonly deferred: number, readonly optionalUnbound: number, readonly failed: number, readonly total: number }, readonly tools: { readonly nodes: ReadonlyArray<{ readonly tool: { readonly id: string, readonly name: string }, readonly counts: { readonly ready: number, readonly deferred: number, readonly optionalUnbound: number, readonly failed: number, readonly total: number } }> }, readonly projects: { readonly nodes: ReadonlyArray<{ readonly project: { readonly id: string, readonly name: string }, readonly counts: { readonly ready: number, readonly deferred: number, readonly optionalUnbound: number, readonly failed: number, readonly total: number } }> } } };

export type ToolListQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
  order: SummaryOrder;
  nameContains?: string | null | undefined;
}>;


export type ToolListQuery = { readonly bindingSummary: { readonly tools: { readonly totalCount: number, readonly nodes: ReadonlyArray<{ readonly tool: { readonly id: string, readonly name: string, readonly description: string | null }, readonly counts: { readonly ready: number, readonly deferred: number, readonly optionalUnbound: number, readonly failed: number, readonly total: number } }>, readonly pageInfo: { readonly hasNextPage: boolean, readonly endCursor: string | null } } } };

export type ProjectListQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
  order: SummaryOrder;
  nameContains?: string | null | undefined;
}>;


export type ProjectListQuery = { readonly bindingSummary: { readonly projects: { readonly totalCount: number, readonly nodes: ReadonlyArray<{ readonly project: { readonly id: string, readonly name: string, readonly description: string | null }, readonly counts: { readonly ready: number, readonly deferred: number, readonly optionalUnbound: number, readonly failed: number, readonly total: number } }>, readonly pageInfo: { readonly hasNextPage: boolean, readonly endCursor: string | null } } } };

export type ToolPageQueryVariables = Exact<{
  ref: string;
}>;


export type ToolPageQuery = { readonly tool: { readonly id: string, readonly name: string, readonly description: string | null, readonly createdAt: string, readonly updatedAt: string, readonly resourceSlots: ReadonlyArray<{ readonly name: string, readonly binding: BindingMode, readonly access: Access, readonly required: boolean, readonly resourceType: { readonly name: string }, readonly staticResource: { readonly name: string } | null }> } | null, readonly bindingSummary: { readonly registryVersion: number, readonly tool: { readonly counts: { readonly ready: number, readonly deferred: number, readonly optionalUnbound: number, readonly failed: number, readonly total: number } } | null } };

export type ToolCellsQueryVariables = Exact<{
  ref: string;
  first: number;
  after?: string | null | undefined;
}>;


export type ToolCellsQuery = { readonly bindingSummary: { readonly tool: { readonly cells: { readonly totalCount: number, readonly nodes: ReadonlyArray<{ readonly projectId: string, readonly projectName: string, readonly toolId: string, readonly toolName: string, readonly status: CellStatus, readonly failedSlots: number, readonly reasons: ReadonlyArray<FailureReason> }>, readonly pageInfo: { readonly hasNextPage: boolean, readonly endCursor: string | null } } } | null } };

export type ProjectPageQueryVariables = Exact<{
  ref: string;
}>;


export type ProjectPageQuery = { readonly project: { readonly id: string, readonly name: string, readonly description: string | null, readonly createdAt: string, readonly updatedAt: string, readonly resources: ReadonlyArray<{ readonly id: string, readonly alias: string | null, readonly resource: { readonly id: string, readonly name: string, readonly shortName: string, readonly type: { readonly name: string } } }> } | null, readonly bindingSummary: { readonly registryVersion: number, readonly project: { readonly counts: { readonly ready: number, readonly deferred: number, readonly optionalUnbound: number, readonly failed: number, readonly total: number } } | null } };

export type ProjectCellsQueryVariables = Exact<{
  ref: string;
  first: number;
  after?: string | null | undefined;
}>;


export type ProjectCellsQuery = { readonly bindingSummary: { readonly project: { readonly cells: { readonly totalCount: number, readonly nodes: ReadonlyArray<{ readonly projectId: string, readonly projectName: string, readonly toolId: string, readonly toolName: string, readonly status: CellStatus, readonly failedSlots: number, readonly reasons: ReadonlyArray<FailureReason> }>, readonly pageInfo: { readonly hasNextPage: boolean, readonly endCursor: string | null } } } | null } };

export type ResourceTypesQueryVariables = Exact<{
  after?: string | null | undefined;
}>;


export type ResourceTypesQuery = { readonly resourceTypes: { readonly totalCount: number, readonly edges: ReadonlyArray<{ readonly node: { readonly id: string, readonly name: string, readonly description: string | null, readonly parentTypes: ReadonlyArray<{ readonly name: string }> } }>, readonly pageInfo: { readonly hasNextPage: boolean, readonly endCursor: string | null } } };

export type TypePageQueryVariables = Exact<{
  ref: string;
}>;


export type TypePageQuery = { readonly resourceType: { readonly id: string, readonly name: string, readonly description: string | null, readonly createdAt: string, readonly updatedAt: string, readonly parentTypes: ReadonlyArray<{ readonly name: string }>, readonly ancestors: ReadonlyArray<{ readonly name: string }>, readonly subtypes: ReadonlyArray<{ readonly name: string }> } | null };

export type TypeResourcesQueryVariables = Exact<{
  ref: string;
  first: number;
  after?: string | null | undefined;
}>;


export type TypeResourcesQuery = { readonly resourceType: { readonly name: string, readonly compatibleResources: { readonly totalCount: number, readonly edges: ReadonlyArray<{ readonly node: { readonly name: string, readonly type: { readonly name: string } } }>, readonly pageInfo: { readonly hasNextPage: boolean, readonly endCursor: string | null } } } | null };

export type TypeToolsQueryVariables = Exact<{
  type: string;
  first: number;
  after?: string | null | undefined;
}>;


export type TypeToolsQuery = { readonly tools: { readonly totalCount: number, readonly edges: ReadonlyArray<{ readonly node: { readonly name: string, readonly resourceSlots: ReadonlyArray<{ readonly name: string, readonly binding: BindingMode, readonly required: boolean, readonly resourceType: { readonly name: string } }> } }>, readonly pageInfo: { readonly hasNextPage: boolean, readonly endCursor: string | null } } };

export type ResourceQueryVariables = Exact<{
  ref: string;
}>;


export type ResourceQuery = { readonly resource: { readonly id: string, readonly name: string, readonly shortName: string, readonly description: string | null, readonly createdAt: string, readonly updatedAt: string, readonly type: { readonly name: string, readonly ancestors: ReadonlyArray<{ readonly name: string }> }, readonly usedBy: { readonly staticBindings: ReadonlyArray<{ readonly slotName: string, readonly tool: { readonly id: string, readonly name: string } }>, readonly links: ReadonlyArray<{ readonly alias: string | null, readonly project: { readonly id: string, readonly name: string } }> } } | null };

export type ResourcesQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
  filter?: ResourceFilter | null | undefined;
}>;


export type ResourcesQuery = { readonly resources: { readonly totalCount: number, readonly edges: ReadonlyArray<{ readonly node: { readonly id: string, readonly name: string, readonly description: string | null, readonly type: { readonly name: string } } }>, readonly pageInfo: { readonly hasNextPage: boolean, readonly endCursor: string | null } } };

export type SearchQueryVariables = Exact<{
  text: string;
  first: number;
}>;


export type SearchQuery = { readonly tools: { readonly totalCount: number, readonly edges: ReadonlyArray<{ readonly node: { readonly id: string, readonly name: string } }> }, readonly projects: { readonly totalCount: number, readonly edges: ReadonlyArray<{ readonly node: { readonly id: string, readonly name: string } }> }, readonly resources: { readonly totalCount: number, readonly edges: ReadonlyArray<{ readonly node: { readonly id: string, readonly name: string, readonly type: { readonly name: string } } }> }, readonly resourceTypes: { readonly totalCount: number, readonly edges: ReadonlyArray<{ readonly node: { readonly id: string, readonly name: string } }> } };
