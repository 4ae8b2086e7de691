/**
 * Every GraphQL operation the dashboard sends, with the shape of its result.
 * The shapes are written by hand; test/unit/dashboard-operations.test.ts
 * checks every document against schema.graphql and the server's query limits,
 * so a document cannot drift from the API unnoticed.
 *
 * No DOM here: the tests import this module.
 */

export type CellStatus = 'READY' | 'DEFERRED' | 'OPTIONAL_UNBOUND' | 'FAILED';
export type SlotStatus = 'ABSENT' | 'BOUND' | 'DEFERRED' | 'FAILED' | 'UNBOUND_OPTIONAL';
export type FailureReason = 'AMBIGUOUS' | 'NOT_FOUND' | 'NO_MATCH' | 'TYPE_MISMATCH';
export type Rejection = 'AMBIGUOUS' | 'NOT_CHOSEN_ALIAS' | 'NOT_CHOSEN_SHORT_NAME' | 'NOT_FOUND' | 'TYPE_MISMATCH';
export type BindHow = 'ALIAS' | 'PARAMETER' | 'SHORT_NAME' | 'SINGLE_CANDIDATE' | 'STATIC';
export type BindingMode = 'CONTEXTUAL' | 'PARAMETER' | 'STATIC';
export type Access = 'READ_ONLY' | 'READ_WRITE' | 'WRITE_ONLY';
export type ChangeKind = 'API_TOKEN' | 'GRANT' | 'LINK' | 'PROJECT' | 'RESOURCE' | 'RESOURCE_TYPE' | 'TOOL';

/** In the history's filter; GRANT and API_TOKEN entries are shown only to OWNERs there (the server decides). */
export const CHANGE_KINDS: readonly ChangeKind[] = [
  'TOOL',
  'RESOURCE',
  'RESOURCE_TYPE',
  'PROJECT',
  'LINK',
  'GRANT',
  'API_TOKEN',
];

export interface PageInfo {
  readonly hasNextPage: boolean;
  readonly endCursor: string | null;
}

export interface Connection<T> {
  readonly totalCount: number;
  readonly edges: readonly { readonly node: T }[];
  readonly pageInfo: PageInfo;
}

export interface Named {
  readonly id: string;
  readonly name: string;
}

/** A page of a matrix axis: not a connection, paged by bindingMatrix's own arguments. */
export interface ItemPage<T> {
  readonly totalCount: number;
  readonly nodes: readonly T[];
  readonly pageInfo: PageInfo;
}

// ---------------------------------------------------------------- the matrix

export interface MatrixCell {
  readonly projectId: string;
  readonly toolId: string;
  readonly status: CellStatus;
  readonly failedSlots: number;
  readonly reasons: readonly FailureReason[];
}

export interface ProjectFilter {
  readonly nameContains?: string;
  readonly linksResource?: string;
}

export interface ToolFilter {
  readonly nameContains?: string;
  readonly slotType?: string;
}

export interface MatrixVariables {
  readonly projects: ProjectFilter | null;
  readonly tools: ToolFilter | null;
  readonly projectsFirst: number;
  readonly projectsAfter: string | null;
  readonly toolsFirst: number;
  readonly toolsAfter: string | null;
}

export interface MatrixData {
  readonly bindingMatrix: {
    readonly projects: ItemPage<Named>;
    readonly tools: ItemPage<Named>;
    readonly cells: readonly MatrixCell[];
  };
}

export const MATRIX = /* GraphQL */ `
  query Matrix(
    $projects: ProjectFilter
    $tools: ToolFilter
    $projectsFirst: Int!
    $projectsAfter: String
    $toolsFirst: Int!
    $toolsAfter: String
  ) {
    bindingMatrix(
      projects: $projects
      tools: $tools
      projectsFirst: $projectsFirst
      projectsAfter: $projectsAfter
      toolsFirst: $toolsFirst
      toolsAfter: $toolsAfter
    ) {
      projects {
        totalCount
        nodes {
          id
          name
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
      tools {
        totalCount
        nodes {
          id
          name
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
      cells {
        projectId
        toolId
        status
        failedSlots
        reasons
      }
    }
  }
`;

// ------------------------------------------------------ why a cell is what it is

export interface CandidateExplanation {
  readonly ref: string;
  readonly alias: string | null;
  readonly accepted: boolean;
  readonly rejection: Rejection | null;
  readonly message: string;
  readonly typeChain: readonly string[];
  readonly resource: { readonly name: string } | null;
}

export interface SlotExplanation {
  readonly slotName: string;
  readonly bindingMode: BindingMode;
  readonly status: SlotStatus;
  readonly reason: FailureReason | null;
  readonly how: BindHow | null;
  readonly message: string;
  readonly fix: string | null;
  readonly resource: { readonly name: string } | null;
  readonly candidates: readonly CandidateExplanation[];
}

export interface ToolSlot {
  readonly name: string;
  readonly binding: BindingMode;
  readonly access: Access;
  readonly required: boolean;
  readonly resourceType: { readonly name: string };
}

export interface ExplainData {
  readonly explainBindings: {
    readonly ok: boolean;
    readonly tool: Named & { readonly resourceSlots: readonly ToolSlot[] };
    readonly project: Named;
    readonly slots: readonly SlotExplanation[];
  };
}

export const EXPLAIN = /* GraphQL */ `
  query Explain($tool: String!, $project: String!) {
    explainBindings(tool: $tool, project: $project) {
      ok
      tool {
        id
        name
        resourceSlots {
          name
          binding
          access
          required
          resourceType {
            name
          }
        }
      }
      project {
        id
        name
      }
      slots {
        slotName
        bindingMode
        status
        reason
        how
        message
        fix
        resource {
          name
        }
        candidates {
          ref
          alias
          accepted
          rejection
          message
          typeChain
          resource {
            name
          }
        }
      }
    }
  }
`;

// ---------------------------------------------------------------- types

export interface TypeSummary {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly parentTypes: readonly { readonly name: string }[];
}

export interface ResourceTypesData {
  readonly resourceTypes: Connection<TypeSummary>;
}

export const RESOURCE_TYPES = /* GraphQL */ `
  query ResourceTypes($after: String) {
    resourceTypes(first: 100, after: $after) {
      totalCount
      edges {
        node {
          id
          name
          description
          parentTypes {
            name
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

export interface TypeResourcesData {
  readonly resourceType: {
    readonly name: string;
    readonly compatibleResources: Connection<{ readonly name: string; readonly type: { readonly name: string } }>;
  } | null;
}

export const TYPE_RESOURCES = /* GraphQL */ `
  query TypeResources($ref: String!, $first: Int!, $after: String) {
    resourceType(ref: $ref) {
      name
      compatibleResources(first: $first, after: $after) {
        totalCount
        edges {
          node {
            name
            type {
              name
            }
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`;

export interface TypeToolsData {
  readonly tools: Connection<{
    readonly name: string;
    readonly resourceSlots: readonly {
      readonly name: string;
      readonly binding: BindingMode;
      readonly resourceType: { readonly name: string };
    }[];
  }>;
}

export const TYPE_TOOLS = /* GraphQL */ `
  query TypeTools($type: String!, $first: Int!, $after: String) {
    tools(first: $first, after: $after, filter: { slotType: $type }) {
      totalCount
      edges {
        node {
          name
          resourceSlots {
            name
            binding
            resourceType {
              name
            }
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

// ---------------------------------------------------------------- resources

export interface ResourceDetail {
  readonly id: string;
  readonly name: string;
  readonly shortName: string;
  readonly description: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly type: { readonly name: string; readonly ancestors: readonly { readonly name: string }[] };
  readonly usedBy: {
    readonly staticBindings: readonly { readonly slotName: string; readonly tool: Named }[];
    readonly links: readonly { readonly alias: string | null; readonly project: Named }[];
  };
}

export interface ResourceData {
  readonly resource: ResourceDetail | null;
}

export const RESOURCE = /* GraphQL */ `
  query Resource($ref: String!) {
    resource(ref: $ref) {
      id
      name
      shortName
      description
      createdAt
      updatedAt
      type {
        name
        ancestors {
          name
        }
      }
      usedBy {
        staticBindings {
          slotName
          tool {
            id
            name
          }
        }
        links {
          alias
          project {
            id
            name
          }
        }
      }
    }
  }
`;

export interface ResourcesData {
  readonly resources: Connection<{
    readonly name: string;
    readonly description: string | null;
    readonly type: { readonly name: string };
  }>;
}

export const RESOURCES = /* GraphQL */ `
  query Resources($first: Int!, $after: String, $filter: ResourceFilter) {
    resources(first: $first, after: $after, filter: $filter) {
      totalCount
      edges {
        node {
          name
          description
          type {
            name
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

// ---------------------------------------------------------------- the change log

export interface ChangeFilter {
  readonly kind?: ChangeKind;
  readonly actor?: string;
  readonly ref?: string;
  readonly sinceVersion?: number;
}

export interface ChangeEntry {
  readonly id: string;
  readonly version: number;
  readonly at: string;
  readonly actor: string;
  readonly operation: string;
  readonly kind: ChangeKind;
  readonly entityId: string;
  readonly entityName: string;
  readonly summary: string;
  readonly impactCount: number;
}

export interface ChangesData {
  readonly changes: {
    readonly totalCount: number;
    readonly edges: readonly { readonly cursor: string; readonly node: ChangeEntry }[];
    readonly pageInfo: PageInfo;
  };
}

export const CHANGES = /* GraphQL */ `
  query Changes($first: Int!, $after: String, $filter: ChangeFilter) {
    changes(first: $first, after: $after, filter: $filter) {
      totalCount
      edges {
        cursor
        node {
          id
          version
          at
          actor
          operation
          kind
          entityId
          entityName
          summary
          impactCount
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

export interface SlotOutcome {
  readonly status: SlotStatus;
  readonly reason: FailureReason | null;
  readonly resourceName: string | null;
}

export interface BindingChange {
  readonly toolId: string;
  readonly toolName: string;
  readonly projectId: string | null;
  readonly projectName: string | null;
  readonly slotName: string;
  readonly before: SlotOutcome;
  readonly after: SlotOutcome;
}

export interface ChangeDetailData {
  readonly changes: {
    readonly edges: readonly {
      readonly node: { readonly id: string; readonly bindingChanges: readonly BindingChange[] };
    }[];
  };
}

/** One entry's binding changes: the entry after `after` (the cursor of the entry before it) under the same filter. */
export const CHANGE_DETAIL = /* GraphQL */ `
  query ChangeDetail($after: String, $filter: ChangeFilter) {
    changes(first: 1, after: $after, filter: $filter) {
      edges {
        node {
          id
          bindingChanges {
            toolId
            toolName
            projectId
            projectName
            slotName
            before {
              status
              reason
              resourceName
            }
            after {
              status
              reason
              resourceName
            }
          }
        }
      }
    }
  }
`;

/** At most this many counts in one request: the server allows 15 aliases a document. */
export const MAX_COUNTS_PER_REQUEST = 15;

/**
 * How many entries match each filter: `c0: changes(first: 1, filter: $f0) { totalCount }`, and so on for n
 * filters (the change log has no "newest first", so the dashboard finds versions by counting; see change-log.ts).
 */
export function changeCountsDocument(n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > MAX_COUNTS_PER_REQUEST)
    throw new RangeError(`between 1 and ${MAX_COUNTS_PER_REQUEST} counts a request, not ${n}`);
  const indexes = [...Array(n).keys()];
  return `query ChangeCounts(${indexes.map((i) => `$f${i}: ChangeFilter`).join(', ')}) {\n${indexes
    .map((i) => `  c${i}: changes(first: 1, filter: $f${i}) { totalCount }`)
    .join('\n')}\n}`;
}

export type ChangeCountsData = Record<string, { readonly totalCount: number }>;

/** The subscription the whole page lives on: every change-log entry, replayed after a version, then live. */
export const REGISTRY_CHANGED = /* GraphQL */ `
  subscription RegistryChanged($afterVersion: Int) {
    registryChanged(afterVersion: $afterVersion) {
      id
      version
      at
      actor
      operation
      kind
      entityId
      entityName
      summary
      impactCount
      bindingChanges {
        toolId
        projectId
      }
    }
  }
`;

export interface LiveEntry extends ChangeEntry {
  readonly bindingChanges: readonly { readonly toolId: string; readonly projectId: string | null }[];
}

export interface RegistryChangedData {
  readonly registryChanged: LiveEntry;
}

// ---------------------------------------------------------------- changes

export interface BindingImpact {
  readonly totalCount: number;
  readonly truncated: boolean;
  readonly complete: boolean;
  readonly changes: readonly BindingChange[];
}

const IMPACT = `
      impact {
        totalCount
        truncated
        complete
        changes {
          toolId
          toolName
          projectId
          projectName
          slotName
          before { status reason resourceName }
          after { status reason resourceName }
        }
      }`;

export interface MutationPayload {
  readonly dryRun: boolean;
  readonly registryVersion: number;
  readonly impact: BindingImpact;
}

export interface UnlinkData {
  readonly unlinkResource: MutationPayload;
}

export const UNLINK_RESOURCE = /* GraphQL */ `
  mutation UnlinkResource($project: String!, $resource: String!, $dryRun: Boolean!) {
    unlinkResource(input: { project: $project, resource: $resource }, dryRun: $dryRun) {
      dryRun
      registryVersion${IMPACT}
    }
  }
`;

export interface DeleteResourceData {
  readonly deleteResource: MutationPayload & { readonly deletedId: string };
}

export const DELETE_RESOURCE = /* GraphQL */ `
  mutation DeleteResource($ref: String!, $force: Boolean!, $dryRun: Boolean!) {
    deleteResource(ref: $ref, force: $force, dryRun: $dryRun) {
      deletedId
      dryRun
      registryVersion${IMPACT}
    }
  }
`;

/**
 * Whether the token may change the registry: a dry run that stores nothing. A token that may not is
 * UNAUTHENTICATED or FORBIDDEN; any other answer (the project exists: CONFLICT) means it may.
 */
export const WRITE_ACCESS_CHECK = /* GraphQL */ `
  mutation WriteAccessCheck {
    createProject(input: { name: "dashboard/write-access-check" }, dryRun: true) {
      dryRun
    }
  }
`;

/** The newest entry of the change log: the last page of one (the log pages backward with last/before). */
export interface NewestChangeData {
  readonly changes: { readonly edges: readonly { readonly node: { readonly version: number } }[] };
}

export const NEWEST_CHANGE = /* GraphQL */ `
  query NewestChange {
    changes(last: 1) {
      edges {
        node {
          version
        }
      }
    }
  }
`;

/** Every fixed document, for the tests. */
export const DOCUMENTS: Readonly<Record<string, string>> = {
  MATRIX,
  EXPLAIN,
  RESOURCE_TYPES,
  TYPE_RESOURCES,
  TYPE_TOOLS,
  RESOURCE,
  RESOURCES,
  CHANGES,
  NEWEST_CHANGE,
  CHANGE_DETAIL,
  CHANGE_COUNTS: changeCountsDocument(MAX_COUNTS_PER_REQUEST),
  REGISTRY_CHANGED,
  UNLINK_RESOURCE,
  DELETE_RESOURCE,
  WRITE_ACCESS_CHECK,
};
