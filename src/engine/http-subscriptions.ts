import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, OperationTypeNode } from 'graphql';
import type { RequestContext } from '../graphql/context';

/** What a client that sends a subscription as a plain request is told. */
export const SUBSCRIPTIONS_ELSEWHERE =
  'subscriptions are not served over plain HTTP requests: subscribe over WebSocket (graphql-transport-ws, the graphql-ws protocol) at /graphql, or over Server-Sent Events (graphql-sse) at /graphql/stream';

/**
 * Refuses a subscription sent as an ordinary HTTP request, including Apollo
 * Client's multipart subscriptions (`Accept: multipart/mixed;subscriptionSpec=1.0`),
 * before it runs: HTTP 400 with BAD_REQUEST and a message naming the two
 * transports that serve it. It is the client's mistake, so it is logged as a
 * refused request, not as a server error.
 */
export const subscriptionsOverHttpPlugin: ApolloServerPlugin<RequestContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation }) {
        if (operation?.operation !== OperationTypeNode.SUBSCRIPTION) return;
        throw new GraphQLError(SUBSCRIPTIONS_ELSEWHERE, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
      },
    };
  },
};
