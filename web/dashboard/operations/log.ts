/**
 * The change log's documents: its pages (oldest first, as the API lists it),
 * one entry's binding changes, the counts change-log.ts searches with, the
 * newest version, and the subscription the whole page lives on.
 *
 * No DOM here: the tests import this module.
 */
import type { ChangeKind } from '../generated/operations';

/** Every kind of change, in the order the history's filter lists them (GRANT and API_TOKEN entries only reach OWNERs). */
export const CHANGE_KINDS: readonly ChangeKind[] = [
  'TOOL',
  'RESOURCE',
  'RESOURCE_TYPE',
  'PROJECT',
  'LINK',
  'GRANT',
  'API_TOKEN',
];

/** One change-log entry as the history shows it. */
export const CHANGE_FRAGMENT = /* GraphQL */ `
  fragment Change on RegistryChange {
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
    impactComplete
  }
`;

/** One slot whose outcome a change changes. */
export const BINDING_CHANGE_FRAGMENT = /* GraphQL */ `
  fragment BindingChangeRow on BindingChange {
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
`;

export const CHANGES = /* GraphQL */ `
  query Changes($first: Int!, $after: String, $filter: ChangeFilter) {
    changes(first: $first, after: $after, filter: $filter) {
      totalCount
      edges {
        cursor
        node {
          ...Change
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
  ${CHANGE_FRAGMENT}
`;

/** One entry's binding changes: the entry after `after` (the cursor of the entry before it) under the same filter. */
export const CHANGE_DETAIL = /* GraphQL */ `
  query ChangeDetail($after: String, $filter: ChangeFilter) {
    changes(first: 1, after: $after, filter: $filter) {
      edges {
        node {
          id
          bindingChanges {
            ...BindingChangeRow
          }
        }
      }
    }
  }
  ${BINDING_CHANGE_FRAGMENT}
`;

/** The newest entry of the change log: the last page of one (the log pages backward with last/before). */
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

/** The subscription the whole page lives on: every change-log entry, replayed after a version, then live. */
export const REGISTRY_CHANGED = /* GraphQL */ `
  subscription RegistryChanged($afterVersion: Int) {
    registryChanged(afterVersion: $afterVersion) {
      ...Change
      bindingChanges {
        toolId
        projectId
      }
    }
  }
  ${CHANGE_FRAGMENT}
`;

/** At most this many counts in one request: the server allows 15 aliases a document. */
export const MAX_COUNTS_PER_REQUEST = 15;

/**
 * How many entries match each filter: `c0: changes(first: 1, filter: $f0) { totalCount }`, and so on for n
 * filters (the change log has no "newest first", so the dashboard finds versions by counting; see change-log.ts).
 * Made at run time for n filters, so codegen cannot type it: ChangeCountsData is its type.
 */
export function changeCountsDocument(n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > MAX_COUNTS_PER_REQUEST)
    throw new RangeError(`between 1 and ${MAX_COUNTS_PER_REQUEST} counts a request, not ${n}`);
  const indexes = [...Array(n).keys()];
  return `query ChangeCounts(${indexes.map((i) => `$f${i}: ChangeFilter`).join(', ')}) {\n${indexes
    .map((i) => `  c${i}: changes(first: 1, filter: $f${i}) { totalCount }`)
    .join('\n')}\n}`;
}

/** What changeCountsDocument(n) answers: `c0` … `c{n-1}`. */
export type ChangeCountsData = Record<string, { readonly totalCount: number }>;
