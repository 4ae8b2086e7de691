/**
 * The dashboard's queries: the matrix and its summaries, the page of each kind
 * of thing, the type graph, and search. Their result types are generated from
 * them (../generated/operations.ts, `npm run codegen:dashboard`).
 *
 * No DOM here: the tests import this module.
 */

/** Counts of each cell status: shared by the summaries. */
export const COUNTS_FRAGMENT = /* GraphQL */ `
  fragment Counts on StatusCounts {
    ready
    deferred
    optionalUnbound
    failed
    total
  }
`;

/** A page of cells (a tool's or a project's), failing first. */
export const CELLS_FRAGMENT = /* GraphQL */ `
  fragment Cells on SummaryCellPage {
    totalCount
    nodes {
      projectId
      projectName
      toolId
      toolName
      status
      failedSlots
      reasons
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
`;

/** A page of the matrix: projects are rows, tools are columns, and a cell for each pair. */
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

/** Why a tool stands as it does in a project: every slot, every candidate, and the fix. */
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
            id
            name
          }
        }
      }
    }
  }
`;

/** The landing view: the counts, and the tools and projects that need attention most. */
export const OVERVIEW = /* GraphQL */ `
  query Overview($first: Int!) {
    bindingSummary {
      registryVersion
      toolCount
      projectCount
      total {
        ...Counts
      }
      tools(first: $first) {
        nodes {
          tool {
            id
            name
          }
          counts {
            ...Counts
          }
        }
      }
      projects(first: $first) {
        nodes {
          project {
            id
            name
          }
          counts {
            ...Counts
          }
        }
      }
    }
  }
  ${COUNTS_FRAGMENT}
`;

/** Tools with their counts, failing first or by name, found by name. */
export const TOOL_LIST = /* GraphQL */ `
  query ToolList($first: Int!, $after: String, $order: SummaryOrder!, $nameContains: String) {
    bindingSummary {
      tools(first: $first, after: $after, order: $order, nameContains: $nameContains) {
        totalCount
        nodes {
          tool {
            id
            name
            description
          }
          counts {
            ...Counts
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
  ${COUNTS_FRAGMENT}
`;

/** Projects with their counts, failing first or by name, found by name. */
export const PROJECT_LIST = /* GraphQL */ `
  query ProjectList($first: Int!, $after: String, $order: SummaryOrder!, $nameContains: String) {
    bindingSummary {
      projects(first: $first, after: $after, order: $order, nameContains: $nameContains) {
        totalCount
        nodes {
          project {
            id
            name
            description
          }
          counts {
            ...Counts
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
  ${COUNTS_FRAGMENT}
`;

/** A tool's page: its slots, and how many projects it is ready, deferred or failing in. */
export const TOOL_PAGE = /* GraphQL */ `
  query ToolPage($ref: String!) {
    tool(ref: $ref) {
      id
      name
      description
      createdAt
      updatedAt
      resourceSlots {
        name
        binding
        access
        required
        resourceType {
          name
        }
        staticResource {
          name
        }
      }
    }
    bindingSummary {
      registryVersion
      tool(ref: $ref) {
        counts {
          ...Counts
        }
      }
    }
  }
  ${COUNTS_FRAGMENT}
`;

/** A page of a tool's cells: the projects where it is failing, then optional-unbound, deferred, ready. */
export const TOOL_CELLS = /* GraphQL */ `
  query ToolCells($ref: String!, $first: Int!, $after: String) {
    bindingSummary {
      tool(ref: $ref) {
        cells(first: $first, after: $after) {
          ...Cells
        }
      }
    }
  }
  ${CELLS_FRAGMENT}
`;

/** A project's page: its links, and how many tools are ready, deferred or failing in it. */
export const PROJECT_PAGE = /* GraphQL */ `
  query ProjectPage($ref: String!) {
    project(ref: $ref) {
      id
      name
      description
      createdAt
      updatedAt
      resources {
        id
        alias
        resource {
          id
          name
          shortName
          type {
            name
          }
        }
      }
    }
    bindingSummary {
      registryVersion
      project(ref: $ref) {
        counts {
          ...Counts
        }
      }
    }
  }
  ${COUNTS_FRAGMENT}
`;

/** A page of a project's cells: the tools failing in it, then optional-unbound, deferred, ready. */
export const PROJECT_CELLS = /* GraphQL */ `
  query ProjectCells($ref: String!, $first: Int!, $after: String) {
    bindingSummary {
      project(ref: $ref) {
        cells(first: $first, after: $after) {
          ...Cells
        }
      }
    }
  }
  ${CELLS_FRAGMENT}
`;

/** Every resource type with its parents: the type graph. */
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

/** A type's page: what it is, its place in the hierarchy. */
export const TYPE_PAGE = /* GraphQL */ `
  query TypePage($ref: String!) {
    resourceType(ref: $ref) {
      id
      name
      description
      createdAt
      updatedAt
      parentTypes {
        name
      }
      ancestors {
        name
      }
      subtypes {
        name
      }
    }
  }
`;

/** The resources that fill a slot of a type (of it or a sub-type). */
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

/** The tools with a slot that asks for a type (or a sub-type). */
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
            required
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

/** A resource's page: what it is, who links it, who binds it statically. */
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

/** Resources, found by name or type. */
export const RESOURCES = /* GraphQL */ `
  query Resources($first: Int!, $after: String, $filter: ResourceFilter) {
    resources(first: $first, after: $after, filter: $filter) {
      totalCount
      edges {
        node {
          id
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

/** Search: a few of each kind whose names contain the text (the API's name filters). */
export const SEARCH = /* GraphQL */ `
  query Search($text: String!, $first: Int!) {
    tools(first: $first, filter: { nameContains: $text }) {
      totalCount
      edges {
        node {
          id
          name
        }
      }
    }
    projects(first: $first, filter: { nameContains: $text }) {
      totalCount
      edges {
        node {
          id
          name
        }
      }
    }
    resources(first: $first, filter: { nameContains: $text }) {
      totalCount
      edges {
        node {
          id
          name
          type {
            name
          }
        }
      }
    }
    resourceTypes(first: $first, filter: { nameContains: $text }) {
      totalCount
      edges {
        node {
          id
          name
        }
      }
    }
  }
`;
