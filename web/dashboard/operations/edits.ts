/**
 * The changes the dashboard makes. Each runs first as a dry run (dryRun:
 * true: nothing stored, the binding impact computed), and again for real only
 * once the person has seen that impact and confirmed.
 *
 * No DOM here: the tests import this module.
 */
import { BINDING_CHANGE_FRAGMENT } from './log';

/** What a change does to bindings, as every payload reports it. */
export const IMPACT_FRAGMENT = /* GraphQL */ `
  fragment Impact on BindingImpact {
    totalCount
    truncated
    complete
    changes {
      ...BindingChangeRow
    }
  }
  ${BINDING_CHANGE_FRAGMENT}
`;

export const LINK_RESOURCE = /* GraphQL */ `
  mutation LinkResource($project: String!, $resource: String!, $alias: String, $dryRun: Boolean!) {
    linkResource(input: { project: $project, resource: $resource, alias: $alias }, dryRun: $dryRun) {
      dryRun
      registryVersion
      impact {
        ...Impact
      }
    }
  }
  ${IMPACT_FRAGMENT}
`;

export const UNLINK_RESOURCE = /* GraphQL */ `
  mutation UnlinkResource($project: String!, $resource: String!, $dryRun: Boolean!) {
    unlinkResource(input: { project: $project, resource: $resource }, dryRun: $dryRun) {
      dryRun
      registryVersion
      impact {
        ...Impact
      }
    }
  }
  ${IMPACT_FRAGMENT}
`;

/** Sets a link's alias, or clears it (alias null). */
export const UPDATE_LINK = /* GraphQL */ `
  mutation UpdateLink($project: String!, $resource: String!, $alias: String, $dryRun: Boolean!) {
    updateLink(input: { project: $project, resource: $resource, alias: $alias }, dryRun: $dryRun) {
      dryRun
      registryVersion
      impact {
        ...Impact
      }
    }
  }
  ${IMPACT_FRAGMENT}
`;

export const DELETE_RESOURCE = /* GraphQL */ `
  mutation DeleteResource($ref: String!, $force: Boolean!, $dryRun: Boolean!) {
    deleteResource(ref: $ref, force: $force, dryRun: $dryRun) {
      deletedId
      dryRun
      registryVersion
      impact {
        ...Impact
      }
    }
  }
  ${IMPACT_FRAGMENT}
`;

/** Renames or describes a project (what is left out stays). */
export const UPDATE_PROJECT = /* GraphQL */ `
  mutation UpdateProject($input: UpdateProjectInput!, $dryRun: Boolean!) {
    updateProject(input: $input, dryRun: $dryRun) {
      dryRun
      registryVersion
      impact {
        ...Impact
      }
    }
  }
  ${IMPACT_FRAGMENT}
`;

/** Renames or describes a resource (what is left out stays). */
export const UPDATE_RESOURCE = /* GraphQL */ `
  mutation UpdateResource($input: UpdateResourceInput!, $dryRun: Boolean!) {
    updateResource(input: $input, dryRun: $dryRun) {
      dryRun
      registryVersion
      impact {
        ...Impact
      }
    }
  }
  ${IMPACT_FRAGMENT}
`;

/** Renames or describes a resource type (what is left out stays). */
export const UPDATE_RESOURCE_TYPE = /* GraphQL */ `
  mutation UpdateResourceType($input: UpdateResourceTypeInput!, $dryRun: Boolean!) {
    updateResourceType(input: $input, dryRun: $dryRun) {
      dryRun
      registryVersion
      impact {
        ...Impact
      }
    }
  }
  ${IMPACT_FRAGMENT}
`;

/** Replaces a tool: the dashboard sends its slots back as they are, with a new name or description. */
export const UPDATE_TOOL = /* GraphQL */ `
  mutation UpdateTool($input: UpdateToolInput!, $dryRun: Boolean!) {
    updateTool(input: $input, dryRun: $dryRun) {
      dryRun
      registryVersion
      impact {
        ...Impact
      }
    }
  }
  ${IMPACT_FRAGMENT}
`;

/** The entries a committed change wrote: those of its version (the entries after the version before it). */
export const ENTRIES_OF_VERSION = /* GraphQL */ `
  query EntriesOfVersion($since: Int!) {
    changes(first: 20, filter: { sinceVersion: $since }) {
      edges {
        node {
          id
          version
          at
          actor
          summary
          impactCount
        }
      }
    }
  }
`;
