import websocketPlugin, { type WebsocketHandler } from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import {
  getOperationAST,
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  OperationTypeNode,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLSchema,
} from 'graphql';
import type { Context } from 'graphql-ws';
import { makeHandler, type Extra } from 'graphql-ws/use/@fastify/websocket';
import { randomUUID } from 'node:crypto';
import type { Services } from '../application/services';
import type { ReadSession } from '../application/versioning';
import type { AppConfig } from '../config';
import type { Access, RequestContext } from '../graphql/context';
import { formatError } from '../graphql/error-mapping';
import { limitRules, QUERY_LIMITS, requestLimitError } from '../graphql/query-limits';
import type { Authenticator } from './authentication';
import { BODY_LIMIT_BYTES } from './http-errors';

/** How often the server pings each WebSocket (a client that does not answer by the next ping is dropped). */
export const KEEP_ALIVE_MS = 12_000;

/** The close code of a socket the server closes because it is shutting down. */
export const GOING_AWAY = 1001;

/** What the subscription endpoint needs. */
export interface SubscriptionDependencies {
  readonly config: AppConfig;
  readonly schema: GraphQLSchema;
  readonly services: Services;
  readonly authenticator: Authenticator;
  readonly newSession: () => ReadSession;
}

type ConnectionContext = Context<Record<string, unknown> | undefined, Extra & Record<PropertyKey, unknown>>;

/**
 * Registers WebSocket support and returns the handler for GET /graphql's
 * upgrades: GraphQL subscriptions with the graphql-transport-ws protocol of
 * graphql-ws. The same rules as queries apply: the token (connection_init's
 * `{ "authorization": "Bearer …" }`, else the upgrade request's header), the
 * depth, alias, directive, token and cost limits, introspection settings,
 * and the one error mapping. Only subscriptions are served over the socket;
 * queries and mutations go over HTTP. Keep-alive pings every 12 s; at
 * shutdown every socket is closed with 1001 (going away).
 */
export async function registerSubscriptions(
  fastify: FastifyInstance,
  deps: SubscriptionDependencies,
): Promise<WebsocketHandler> {
  await fastify.register(websocketPlugin, {
    options: { maxPayload: BODY_LIMIT_BYTES },
    preClose(done) {
      deps.services.feed.stop();
      for (const client of this.websocketServer.clients) client.close(GOING_AWAY, 'server shutting down');
      done();
    },
  });

  const accessOf = new WeakMap<ConnectionContext, Access>();
  const rules = [
    ...specifiedRules,
    ...limitRules,
    ...(deps.config.introspection ? [] : [NoSchemaIntrospectionCustomRule]),
  ];

  return makeHandler<Record<string, unknown> | undefined, Record<PropertyKey, never>>(
    {
      schema: deps.schema,
      onConnect: async (ctx) => {
        const given = ctx.connectionParams?.authorization;
        const header = typeof given === 'string' ? given : ctx.extra.request.headers.authorization;
        const access = await deps.authenticator.authenticate(header, deps.newSession());
        // Refused at once when reading needs a token (4403 Forbidden): as a query would be.
        if (!access.canRead) return false;
        accessOf.set(ctx, access);
        return true;
      },
      onSubscribe: (ctx, _id, payload): ExecutionArgs | readonly GraphQLError[] => {
        let document: DocumentNode;
        try {
          document = parse(payload.query, { maxTokens: QUERY_LIMITS.tokens });
        } catch (error) {
          return [
            coded(error instanceof GraphQLError ? error.message : 'the query does not parse', 'GRAPHQL_PARSE_FAILED'),
          ];
        }
        const problems = validate(deps.schema, document, rules);
        if (problems.length > 0)
          return problems.map((p) => coded(p.message, 'GRAPHQL_VALIDATION_FAILED', p.extensions));
        const operation = getOperationAST(document, payload.operationName);
        if (!operation) return [coded('name the operation to run', 'BAD_REQUEST')];
        if (operation.operation !== OperationTypeNode.SUBSCRIPTION) {
          return [
            coded('only subscriptions are served over WebSocket; send queries and mutations over HTTP', 'BAD_REQUEST'),
          ];
        }
        const variables = payload.variables ?? {};
        const refused = requestLimitError(deps.schema, document, payload.operationName ?? undefined, variables);
        if (refused) return [refused];
        const access = accessOf.get(ctx)!;
        const contextValue: RequestContext = {
          requestId: randomUUID(),
          access,
          services: deps.services,
          session: deps.newSession(),
          log: ctx.extra.request.log,
          report: {
            operationName: operation.name?.value ?? null,
            operationType: 'subscription',
            actor: null,
            errorCodes: [],
            cache: 'bypass',
          },
          transport: { close: (code, reason) => ctx.extra.socket.close(code, reason) },
        };
        return {
          schema: deps.schema,
          document,
          operationName: payload.operationName,
          variableValues: variables,
          contextValue,
        };
      },
      onError: (_ctx, _id, _payload, errors) => errors.map((error) => formatError(error.toJSON(), error)),
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors
          ? { ...result, errors: result.errors.map((error) => formatError(error.toJSON(), error)) }
          : undefined,
    },
    KEEP_ALIVE_MS,
  );
}

function coded(message: string, code: string, extensions: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { ...extensions, code } });
}
