/**
 * Every GraphQL operation the dashboard sends. The documents are in the
 * files beside this one; their result and variable types are generated from
 * them against schema.graphql (../generated/operations.ts, written by
 * `npm run codegen:dashboard`; test/unit/dashboard-codegen.test.ts fails when
 * it is out of date), and test/unit/dashboard.test.ts checks every document
 * against the schema and the server's query limits.
 *
 * No DOM here: the tests import this module.
 */
import * as access from './access';
import * as edits from './edits';
import * as log from './log';
import * as reads from './reads';

export * from './access';
export * from './edits';
export * from './log';
export * from './reads';
export type * from '../generated/operations';
import type { ChangeFragment, ChangeFilter, RegistryChangedSubscription } from '../generated/operations';

/** A change-log entry as the history lists it. */
export type ChangeEntry = ChangeFragment;

/** A change-log entry as the live feed delivers it: with which tools and projects its binding changes touch. */
export type LiveEntry = RegistryChangedSubscription['registryChanged'];

/** The change log's filter, as the dashboard builds it. */
export type { ChangeFilter };

/** Every fixed document (fragments are part of the documents that spread them), for the tests. */
export const DOCUMENTS: Readonly<Record<string, string>> = documentsOf([access, reads, log, edits]);

function documentsOf(modules: readonly object[]): Record<string, string> {
  const documents: Record<string, string> = {};
  for (const module of modules)
    for (const [name, value] of Object.entries(module) as [string, unknown][])
      if (typeof value === 'string' && !name.endsWith('_FRAGMENT')) documents[name] = value;
  documents.CHANGE_COUNTS = log.changeCountsDocument(log.MAX_COUNTS_PER_REQUEST);
  documents.VIEWER_CAN = access.viewerCanDocument(access.MAX_CAN_PER_REQUEST);
  return documents;
}
