import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../application/services';
import type { ReadSession } from '../application/versioning';
import type { FairShare } from './fair-share';
import type { AssemblyHost } from './page-assembly';

export type { Services } from '../application/services';

/** What the caller of one request may do, and which token it presented. */
export interface Access {
  readonly canRead: boolean;
  readonly canWrite: boolean;
  /** The token the request carried: none, one that matches nothing, the read token, or an admin token. */
  readonly presented: 'none' | 'invalid' | 'read' | 'admin';
  /** Who changes the registry through this request: the admin token's name, or `anonymous` when writes are open. */
  readonly actor: string;
}

/** Filled in while a request runs, for its one log line. */
export interface RequestReport {
  operationName: string | null;
  operationType: string | null;
  /** For a mutation: who made it. */
  actor: string | null;
  /** `extensions.code` of each error in the response. */
  errorCodes: string[];
  /** Whether the response cache answered, missed, or was not used. */
  cache: 'hit' | 'miss' | 'bypass';
}

/** What every resolver gets: the services, and this request's read session, id and logger. */
export interface RequestContext {
  readonly requestId: string;
  readonly access: Access;
  readonly services: Services;
  /** This request's reads of the registry, at one pinned version. */
  readonly session: ReadSession;
  readonly log: FastifyBaseLogger;
  readonly report: RequestReport;
  /**
   * For a subscription: its transport. One that does not hold back on its own while its client does not read
   * (Server-Sent Events) says when it can take more (see ChangeFeed).
   */
  readonly transport?: { readonly ready?: () => Promise<void> | null };
  /** A heavy request's share of the thread while it executes (./fair-share.ts); none for other requests. */
  fairShare?: FairShare;
  /**
   * Its compiled code already ran once for this request and had errors (direct execution declined it): Apollo's run
   * goes straight to graphql-js for the exact errors, rather than running the compiled code a second time first.
   */
  readonly compiledRunFailed?: boolean;
}

/** What assembling pages from kept parts needs of a request's context (./page-assembly.ts). */
export const REQUEST_ASSEMBLY: AssemblyHost<RequestContext> = {
  sessionOf: (context) => context.session,
  withSession: (context, session) => ({ ...context, session }),
  // Reading and writing are all an answer can differ by: no field shows more to a writer, but none is assumed not to.
  audienceOf: (context) => `${context.access.canRead ? 'r' : '-'}${context.access.canWrite ? 'w' : '-'}`,
};
