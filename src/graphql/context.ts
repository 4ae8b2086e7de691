import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../core/access';
import type { Services } from '../application/services';
import type { ReadSession } from '../application/versioning';

export type { Services } from '../application/services';

/**
 * Who makes one request (src/engine/authentication.ts), and what it may do
 * before any mutation's rule is asked (core/access.ts decides the rest).
 */
export interface Access {
  /** It may read: reads are open, or it carries a credential that checks out. */
  readonly canRead: boolean;
  /**
   * The credential it carried: none; one refused (see `failure`); READ_TOKEN;
   * an admin token (ADMIN_TOKEN, ADMIN_TOKENS); an API token; a signed-in
   * user's JWT.
   */
  readonly presented: 'none' | 'invalid' | 'read' | 'admin' | 'token' | 'user';
  /**
   * Who it is: `token:<name>`, `user:<subject>`, or `anonymous` in open
   * development mode; null without a credential (when writes need one) or with a refused one.
   */
  readonly principal: Principal | null;
  /** Why the credential was refused (e.g. "the token expired"), when `presented` is 'invalid'. */
  readonly failure: string | null;
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
  /** Set when the answer shows what changes without a registry version (an API token's lastUsedAt): never kept. */
  uncacheable?: boolean;
}

/** What a resolver sees of a heavy request's share of the thread (src/engine/fair-share.ts). */
export interface ThreadShare {
  /** For long loops in a resolver's own code: a promise of a later turn once the request's slice is spent, else nothing. */
  pauseIfDue(): Promise<void> | undefined;
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
  /**
   * The request's share of the thread, made with the context by the engine (src/engine/fair-share.ts): a heavy
   * request's resolvers with long loops of their own pause through it; it never pauses any other. None for a
   * subscription.
   */
  readonly fairShare?: ThreadShare;
}
