import websocketPlugin, { type WebsocketHandler } from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { ExecutionArgs, GraphQLError } from 'graphql';
import type { Context } from 'graphql-ws';
import { makeHandler, type Extra } from 'graphql-ws/use/@fastify/websocket';
import { readRefusal } from '../../core/access';
import type { Access } from '../../graphql/context';
import type { ReadSession } from '../../application/versioning';
import type { Authenticator } from '../../engine/authentication';
import { BODY_LIMIT_BYTES } from '../http-errors';
import { ConnectionSubscriptions, type SubscriptionCapacity } from './capacity';
import { coded, SubscriptionOperations } from './operation';

/** How often the server pings each WebSocket (a client that does not answer by the next ping is dropped). */
export const KEEP_ALIVE_MS = 12_000;

/** The close code of a socket the server closes because it is shutting down. */
export const GOING_AWAY = 1001;

/** What one WebSocket connection holds: who it is, and its subscriptions. */
interface Connection {
  readonly access: Access;
  readonly subscriptions: ConnectionSubscriptions;
}

type ConnectionContext = Context<Record<string, unknown> | undefined, Extra & { connection?: Connection }>;

/**
 * Registers WebSocket support and returns the handler for GET /graphql's
 * upgrades: GraphQL subscriptions with the graphql-transport-ws protocol of
 * graphql-ws. The token comes from connection_init's
 * `{ "authorization": "Bearer …" }`, else the upgrade request's header; the
 * operation meets the rules of ./operation.ts. A socket holds at most
 * `perConnection` subscriptions and the process `capacity`'s; past either, the
 * subscribe is refused with an error (the socket stays open). A closed socket
 * ends its subscriptions at once. Sends are awaited, so a client that does not
 * read is sent nothing more until it does. Keep-alive pings every 12 s; at
 * shutdown every socket is closed with 1001 (going away).
 */
export async function registerWebSocket(
  fastify: FastifyInstance,
  options: {
    readonly operations: SubscriptionOperations;
    readonly authenticator: Authenticator;
    readonly newSession: () => ReadSession;
    readonly capacity: SubscriptionCapacity;
    readonly perConnection: number;
    readonly stopFeed: () => void;
  },
): Promise<WebsocketHandler> {
  await fastify.register(websocketPlugin, {
    options: { maxPayload: BODY_LIMIT_BYTES },
    preClose(done) {
      options.stopFeed();
      for (const client of this.websocketServer.clients) client.close(GOING_AWAY, 'server shutting down');
      done();
    },
  });
  const { operations, capacity } = options;

  return makeHandler<Record<string, unknown> | undefined, { connection?: Connection }>(
    {
      onConnect: async (ctx: ConnectionContext) => {
        const given = ctx.connectionParams?.authorization;
        const header = typeof given === 'string' ? given : ctx.extra.request.headers.authorization;
        const access = await options.authenticator.authenticate(header, options.newSession());
        // Refused at once when reading needs a token (4403 Forbidden): as a query would be.
        if (readRefusal(access) !== null) return false;
        ctx.extra.connection = { access, subscriptions: new ConnectionSubscriptions(options.perConnection) };
        return true;
      },
      onSubscribe: (ctx: ConnectionContext, id, payload): ExecutionArgs | readonly GraphQLError[] => {
        const connection = ctx.extra.connection!;
        const log = ctx.extra.request.log;
        const prepared = operations.prepare(payload, { access: connection.access, log });
        if (!prepared.ok) return withRequestId(prepared.errors, prepared.requestId);
        const { requestId } = prepared.args.contextValue;
        if (connection.subscriptions.full)
          return withRequestId(
            [
              coded(
                `this connection already holds ${options.perConnection} subscriptions (WS_MAX_SUBSCRIPTIONS_PER_CONNECTION); complete one first`,
                'TOO_MANY_SUBSCRIPTIONS',
                { limit: 'SUBSCRIPTIONS_PER_CONNECTION', max: options.perConnection },
              ),
            ],
            requestId,
          );
        const release = capacity.take(prepared.args.document, prepared.documentBytes);
        if (typeof release === 'string')
          return withRequestId([SubscriptionOperations.capacityError(release, capacity)], requestId);
        connection.subscriptions.hold(id, release);
        return prepared.args;
      },
      onComplete: (ctx: ConnectionContext, id) => ctx.extra.connection?.subscriptions.end(id),
      onClose: (ctx: ConnectionContext) => ctx.extra.connection?.subscriptions.endAll(),
      onError: (ctx: ConnectionContext, _id, _payload, errors) =>
        // Refusals from onSubscribe carry their request id already; anything else gets one here.
        operations.format(errors, requestIdOf(errors), ctx.extra.request.log),
      onNext: (ctx: ConnectionContext, _id, _payload, args, result) =>
        result.errors
          ? {
              ...result,
              errors: operations.format(
                result.errors,
                (args.contextValue as { requestId: string }).requestId,
                ctx.extra.request.log,
              ),
            }
          : undefined,
    },
    KEEP_ALIVE_MS,
  );
}

/** Marks refusals with their request id, for onError to keep. */
function withRequestId(errors: readonly GraphQLError[], requestId: string): readonly GraphQLError[] {
  for (const error of errors) (error.extensions as Record<string, unknown>).requestId = requestId;
  return errors;
}

function requestIdOf(errors: readonly GraphQLError[]): string {
  const given = errors.find((e) => typeof e.extensions.requestId === 'string')?.extensions.requestId;
  return typeof given === 'string' ? given : crypto.randomUUID();
}
