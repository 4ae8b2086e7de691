import type { ApolloServerPlugin } from '@apollo/server';
import type { RequestContext } from '../../graphql/context';
import type { RequestLimits } from './admission';

/**
 * The limits (./admission.ts) in Apollo's pipeline: after an operation is parsed and
 * validated, before it runs; the admission ends as its response is sent.
 */
export function requestLimitsPlugin(limits: RequestLimits): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      let end: (() => void) | null = null;
      return {
        async didResolveOperation({ request, document, operation, queryHash, contextValue }) {
          end = await limits.admit({
            document,
            operation,
            operationName: request.operationName ?? undefined,
            variables: request.variables ?? {},
            queryKey: queryHash,
            contextValue,
          });
        },
        async willSendResponse() {
          end?.();
        },
      };
    },
  };
}
