import type { WebsocketHandler } from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_SUBSCRIPTION_LIMITS } from '../../config';
import type { Authenticator } from '../../engine/authentication';
import { SubscriptionCapacity } from './capacity';
import { registerEventStream } from './event-stream';
import { coded, SubscriptionOperations, type LiveDependencies } from './operation';
import { originAllowed } from './origin';
import { registerWebSocket } from './websocket';

export { EVENT_STREAM_PATH } from './event-stream';
export { GOING_AWAY, KEEP_ALIVE_MS } from './websocket';

/** The live transports, registered: the handler for GET /graphql's WebSocket upgrades, and its origin check. */
export interface LiveUpdates {
  readonly websocket: WebsocketHandler;
  /** A hook for GET /graphql: refuses a WebSocket upgrade from a browser origin that may not open one (403). */
  readonly checkUpgradeOrigin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
}

/**
 * Live updates: GraphQL subscriptions over WebSocket (graphql-ws, upgrades of
 * GET /graphql) and over Server-Sent Events (graphql-sse, /graphql/stream),
 * with one set of rules (./operation.ts), one capacity for the process, and
 * one browser-origin check (./origin.ts). What they deliver comes from the
 * change feed (src/application/change-feed.ts).
 */
export async function registerLiveUpdates(
  fastify: FastifyInstance,
  deps: LiveDependencies & { readonly authenticator: Authenticator },
): Promise<LiveUpdates> {
  const operations = new SubscriptionOperations(deps);
  const capacity = new SubscriptionCapacity(deps.config.maxSubscriptions ?? DEFAULT_SUBSCRIPTION_LIMITS.total);
  const corsOrigins = new Set(deps.config.corsOrigins ?? []);
  const websocket = await registerWebSocket(fastify, {
    operations,
    authenticator: deps.authenticator,
    newSession: deps.newSession,
    capacity,
    perConnection: deps.config.maxSubscriptionsPerConnection ?? DEFAULT_SUBSCRIPTION_LIMITS.perConnection,
    stopFeed: () => deps.services.feed.stop(),
  });
  registerEventStream(fastify, {
    operations,
    authenticator: deps.authenticator,
    newSession: deps.newSession,
    capacity,
    corsOrigins,
  });
  return {
    websocket,
    checkUpgradeOrigin: async (request, reply) => {
      if (!request.ws || originAllowed(request.headers, corsOrigins)) return;
      await reply
        .code(403)
        .send({ errors: [coded('this origin may not open a WebSocket to this server', 'FORBIDDEN').toJSON()] });
    },
  };
}
