import { unwrapResolverError } from '@apollo/server/errors';
import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import {
  BadInputError,
  BindingResolutionError,
  ConflictError,
  DomainError,
  ForbiddenError,
  NotFoundError,
  ToolValidationError,
} from '../core/errors';
import { isDatabaseUnavailable } from '../persistence/sql-errors';
import type { RequestContext } from '../graphql/context';

/** The message of every unexpected error: nothing about what went wrong inside leaks out. */
export const INTERNAL_MESSAGE = 'Internal server error';

/** The message of SERVICE_UNAVAILABLE: the database cannot serve now (down, unreachable, busy, read-only). */
export const UNAVAILABLE_MESSAGE = 'the database is unavailable; try again shortly';

/** Seconds a client is asked to wait (Retry-After) before trying again when the database is unavailable. */
export const RETRY_AFTER_SECONDS = 5;

/** Codes whose errors get the request id, so a client can report them and the log line can be found. */
const SERVER_SIDE_CODES = new Set(['INTERNAL_SERVER_ERROR', 'SERVICE_UNAVAILABLE']);

/**
 * The one place where errors become GraphQL errors. Domain errors keep their
 * code and structured details; GraphQL's own errors (syntax, validation,
 * variable coercion) keep their standard shape; a database that cannot serve
 * now is SERVICE_UNAVAILABLE (HTTP 503 with Retry-After, set by the plugin
 * below); anything else is masked as INTERNAL_SERVER_ERROR. No stack trace,
 * SQL or driver text ever passes.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const where = {
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
  };

  if (original instanceof DomainError) {
    const entry = original.entry === null ? {} : { entry: original.entry };
    return {
      message: original.message,
      ...where,
      extensions: { code: original.code, ...entry, ...domainDetails(original) },
    };
  }
  if (isDatabaseUnavailable(original)) {
    return { message: UNAVAILABLE_MESSAGE, ...where, extensions: { code: 'SERVICE_UNAVAILABLE' } };
  }
  const clientCode = apolloClientErrorCode(error);
  if (clientCode) return { message: formatted.message, ...where, extensions: { code: clientCode } };
  if (isExpectedGraphQLError(error, original)) {
    const { stacktrace: _stacktrace, exception: _exception, ...extensions } = formatted.extensions ?? {};
    return { message: formatted.message, ...where, extensions };
  }
  return { message: INTERNAL_MESSAGE, ...where, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

/** True when an error is one the server meant to send: a domain error, or a GraphQL error raised on purpose. */
export function isExpectedError(error: unknown): boolean {
  const original = unwrapResolverError(error);
  return original instanceof DomainError || isExpectedGraphQLError(error, original);
}

/**
 * Logs every unexpected error with the request id, stack included (server-side
 * only), and puts the request id on the masked error so it can be reported.
 * An error of an unavailable database asks Apollo, through the error's
 * `extensions.http`, for HTTP 503 and a Retry-After header (Apollo reads it,
 * and removes it, before formatError runs).
 */
export const errorReportingPlugin: ApolloServerPlugin<RequestContext> = {
  async requestDidStart() {
    return {
      async didEncounterErrors({ errors, contextValue, operationName }) {
        for (const error of errors) {
          if (isExpectedError(error)) continue;
          const original = unwrapResolverError(error);
          const unavailable = isDatabaseUnavailable(original);
          if (unavailable) {
            error.extensions.http = {
              status: 503,
              headers: new Map([['retry-after', String(RETRY_AFTER_SECONDS)]]),
            };
          }
          contextValue.log.error(
            { err: original, requestId: contextValue.requestId, operationName, path: error.path },
            unavailable ? 'database unavailable' : 'unexpected error',
          );
        }
      },
      async willSendResponse({ response, contextValue }) {
        if (response.body.kind !== 'single') return;
        for (const error of response.body.singleResult.errors ?? []) {
          if (SERVER_SIDE_CODES.has(String(error.extensions?.code))) {
            (error.extensions as Record<string, unknown>).requestId = contextValue.requestId;
          }
        }
      },
    };
  },
};

function domainDetails(error: DomainError): Record<string, unknown> {
  if (
    error instanceof BadInputError ||
    error instanceof ToolValidationError ||
    error instanceof BindingResolutionError
  ) {
    return { problems: error.problems };
  }
  if (error instanceof ConflictError && error.usedBy.length > 0) return { usedBy: error.usedBy };
  if (error instanceof ForbiddenError && error.details) {
    const { principal, role, namespaces } = error.details;
    return { principal, role, namespaces };
  }
  if (error instanceof NotFoundError) {
    return {
      ...(error.renamedTo ? { renamedTo: error.renamedTo } : {}),
      ...(error.suggestions.length > 0 ? { suggestions: error.suggestions } : {}),
    };
  }
  return {};
}

/** What Apollo answers, with status 400, when a persisted query's sha256Hash is not the hash of its query. */
const APQ_HASH_MISMATCH = 'provided sha does not match query';

/**
 * Apollo raises a few request errors with an HTTP status but no code (its
 * persisted-query protocol: a hash that does not match the query, an
 * unsupported version); without one they would read as INTERNAL_SERVER_ERROR.
 * A 4xx is the client's mistake: PERSISTED_QUERY_HASH_MISMATCH for the hash,
 * BAD_REQUEST for the rest.
 */
function apolloClientErrorCode(error: unknown): string | null {
  if (!(error instanceof GraphQLError) || error.originalError || error.extensions.code !== undefined) return null;
  const status = (error.extensions.http as { status?: unknown } | undefined)?.status;
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  return error.message === APQ_HASH_MISMATCH ? 'PERSISTED_QUERY_HASH_MISMATCH' : 'BAD_REQUEST';
}

/** GraphQL's own errors have no original error; errors thrown on purpose as GraphQLError carry a code. */
function isExpectedGraphQLError(error: unknown, original: unknown): boolean {
  if (!(error instanceof GraphQLError)) return false;
  if (!error.originalError) return true;
  return (
    original instanceof GraphQLError &&
    typeof original.extensions?.code === 'string' &&
    original.extensions.code !== 'INTERNAL_SERVER_ERROR'
  );
}

/** A GraphQL-shaped error body for a failure before GraphQL runs, so every client can read every failure the same way. */
export function errorBody(message: string, code: string, requestId?: string) {
  return { errors: [{ message, extensions: requestId === undefined ? { code } : { code, requestId } }] };
}
