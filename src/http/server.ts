import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginSchemaReportingDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyRequest,
} from 'fastify';
import type { GraphQLSchema } from 'graphql';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Loaders } from '../application/loaders';
import type { AppConfig } from '../config';
import type { RequestContext, RequestReport, Services } from '../graphql/context';
import { readAccessPlugin } from '../graphql/authorization';
import { errorReportingPlugin, formatError } from '../graphql/error-mapping';
import { costLimitPlugin, limitRules, QUERY_LIMITS } from '../graphql/query-limits';
import { TokenAuthenticator } from './authentication';
import { ResponseCache, withResponseCache, type CacheScope } from './response-cache';
import {
  defaultGraphiqlDir,
  GraphiqlBundle,
  graphiqlLandingPage,
  graphiqlPageHeaders,
  registerGraphiqlAssets,
} from './graphiql';

/** Largest request body accepted (413 beyond). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** What the HTTP layer needs from the rest of the server. */
export interface HttpDependencies {
  readonly config: AppConfig;
  readonly schema: GraphQLSchema;
  readonly services: Services;
  readonly logger: Logger;
  /** Fresh loaders for one request. */
  createLoaders(): Loaders;
  /** Whether the database answers and is fully migrated. */
  isReady(): Promise<boolean>;
  /** Extra read-only JSON endpoints, e.g. SQL statement counts for the benchmark. */
  readonly debugRoutes?: Record<string, () => unknown>;
  /** Where the built GraphiQL bundle is; dist/graphiql of this checkout by default. */
  readonly graphiqlDir?: string;
}

/**
 * Fastify with Apollo at /graphql, health endpoints, and JSON errors for
 * everything that fails before GraphQL runs (bad JSON, oversized bodies,
 * unknown routes): never an HTML page or a stack. The one HTML page is
 * GraphiQL, for a browser's GET /graphql (see ./graphiql.ts).
 */
export async function createHttpServer(
  deps: HttpDependencies,
): Promise<{ fastify: FastifyInstance; apollo: ApolloServer<RequestContext> }> {
  const fastify = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // One line per request comes from the onResponse hook below instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._:-]{1,64}$/.test(given) ? given : randomUUID();
    },
  });

  const authenticator = new TokenAuthenticator(deps.config.adminToken, deps.config.readToken);
  if (authenticator.openWrites) {
    deps.logger.warn(
      'OPEN DEVELOPMENT MODE: no ADMIN_TOKEN is set, so anyone who can reach this server can change the registry. Set ADMIN_TOKEN (NODE_ENV=production refuses to start without it).',
    );
  }

  const graphiql = new GraphiqlBundle(deps.graphiqlDir ?? defaultGraphiqlDir(), deps.logger);
  // Read now, so a missing bundle is reported at start-up (it is looked for again on each page request until found).
  graphiql.load();

  const apollo = new ApolloServer<RequestContext>({
    schema: deps.schema,
    introspection: deps.config.introspection,
    includeStacktraceInErrorResponses: false,
    // main.ts owns signal handling: it closes HTTP, then the database.
    stopOnTerminationSignals: false,
    hideSchemaDetailsFromClientErrors: deps.config.production,
    formatError,
    // Hostile-query limits, all checked before any resolver runs.
    parseOptions: { maxTokens: QUERY_LIMITS.tokens },
    validationRules: limitRules,
    allowBatchedHttpRequests: false,
    plugins: [
      fastifyApolloDrainPlugin(fastify),
      readAccessPlugin,
      costLimitPlugin(deps.schema),
      errorReportingPlugin,
      graphiqlLandingPage(graphiql),
      // Nothing here uses cache hints or Apollo's reporting; the cache-control plugin alone wraps every field resolver.
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      ApolloServerPluginUsageReportingDisabled(),
      ApolloServerPluginSchemaReportingDisabled(),
    ],
  });
  await apollo.start();

  // One log line per request: id (reqId), operation, duration and outcome.
  const reports = new WeakMap<object, RequestReport>();
  const logRequests = deps.logger.isLevelEnabled('info');
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    if (!logRequests) return done();
    const report = reports.get(request);
    const outcome =
      reply.statusCode >= 500
        ? 'error'
        : reply.statusCode >= 400
          ? 'rejected'
          : report?.errorCodes.length
            ? 'graphql-errors'
            : 'ok';
    request.log.info(
      {
        method: request.method,
        url: request.url.split('?')[0],
        operationName: report?.operationName ?? undefined,
        operationType: report?.operationType ?? undefined,
        statusCode: reply.statusCode,
        outcome,
        errorCodes: report?.errorCodes.length ? report.errorCodes : undefined,
        cache: report && report.cache !== 'bypass' ? report.cache : undefined,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request completed',
    );
    done();
  });

  // What one request carries from the route handler into the GraphQL context.
  const scopes = new WeakMap<object, CacheScope>();
  const scopeOf = (request: FastifyRequest) => {
    let scope = scopes.get(request);
    if (!scope) {
      const report: RequestReport = {
        operationName: null,
        operationType: null,
        errorCodes: [],
        readsRegistry: true,
        cache: 'bypass',
      };
      scope = {
        access: authenticator.authenticate(request.headers.authorization),
        loaders: deps.createLoaders(),
        report,
      };
      scopes.set(request, scope);
      reports.set(request, report);
    }
    return scope;
  };
  const executeGraphQL = fastifyApolloHandler(apollo, {
    context: async (request) => {
      const { access, loaders, report } = scopeOf(request);
      return { requestId: request.id, access, services: deps.services, loaders, log: request.log, report };
    },
  });

  fastify.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    onSend: graphiqlPageHeaders(),
    handler: withResponseCache(
      deps.config.responseCache ? new ResponseCache() : null,
      scopeOf,
      async (request, reply) =>
        executeGraphQL.call(
          fastify,
          request as Parameters<typeof executeGraphQL>[0],
          reply as Parameters<typeof executeGraphQL>[1],
        ),
    ),
  });

  registerGraphiqlAssets(fastify, graphiql);

  fastify.get('/healthz', async () => ({ status: 'ok' }));
  fastify.get('/readyz', async (_request, reply) => {
    const ready = await deps.isReady().catch(() => false);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable' });
  });
  for (const [path, read] of Object.entries(deps.debugRoutes ?? {})) fastify.get(path, async () => read());

  fastify.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(errorBody(`no route ${request.method} ${request.url.split('?')[0]}`, 'NOT_FOUND'));
  });
  fastify.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'unexpected HTTP error');
    void reply
      .code(status)
      .send(
        errorBody(
          httpErrorMessage(error, status),
          status === 500 ? 'INTERNAL_SERVER_ERROR' : httpErrorCode(error, status),
        ),
      );
  });

  return { fastify, apollo };
}

/** A GraphQL-shaped error body, so every client can read every failure the same way. */
function errorBody(message: string, code: string) {
  return { errors: [{ message, extensions: { code } }] };
}

function httpErrorCode(error: FastifyError, status: number): string {
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) return 'BAD_REQUEST';
  return 'BAD_REQUEST';
}

function httpErrorMessage(error: FastifyError, status: number): string {
  if (status === 500) return 'Internal server error';
  if (status === 413) return `request body is larger than ${BODY_LIMIT_BYTES} bytes`;
  if (status === 415) return 'unsupported content type; send application/json';
  if (error instanceof SyntaxError || error.code?.startsWith('FST_ERR_CTP')) return 'request body is not valid JSON';
  return 'bad request';
}
