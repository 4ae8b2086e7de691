import type { ApolloServerPlugin } from '@apollo/server';
import type { OperationDefinitionNode } from 'graphql';
import type { Principal } from '../core/access';
import type { RequestContext, RequestReport } from '../graphql/context';

/**
 * The request's report, for its one log line and its metrics: the only place
 * that fills it in, whichever stage answers (Apollo's pipeline, the direct
 * path, the response cache).
 */

/**
 * What ran: the operation's name (the one the request gave, else the
 * operation's own), its type, and for a mutation who made it.
 */
export function reportOperation(
  report: RequestReport,
  requestedName: string | null | undefined,
  operation: OperationDefinitionNode | null | undefined,
  principal: Principal | null,
): void {
  reportNamed(report, requestedName ?? operation?.name?.value ?? null, operation?.operation ?? null, principal);
}

/** What ran, by name and type (no document at hand: an answer from the response cache). */
function reportNamed(
  report: RequestReport,
  name: string | null,
  type: string | null,
  principal: Principal | null,
): void {
  report.operationName = name;
  report.operationType = type;
  if (type === 'mutation') report.actor = principal?.id ?? null;
}

/** The `extensions.code` of each error in the response (UNKNOWN for an error without one). */
export function reportErrors(report: RequestReport, errors: readonly { extensions?: { code?: unknown } }[]): void {
  for (const error of errors) {
    report.errorCodes.push(typeof error.extensions?.code === 'string' ? error.extensions.code : 'UNKNOWN');
  }
}

/** A query answered by the response cache, without running. */
export function reportCacheHit(report: RequestReport, operationName: string | null): void {
  reportNamed(report, operationName, 'query', null);
  report.cache = 'hit';
}

/** The report in Apollo's pipeline: filled in as the response is sent. */
export const requestReportPlugin: ApolloServerPlugin<RequestContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response, contextValue, request, operation }) {
        const { report } = contextValue;
        reportOperation(report, request.operationName, operation, contextValue.access.principal);
        if (response.body.kind === 'single') reportErrors(report, response.body.singleResult.errors ?? []);
      },
    };
  },
};
