import type { ApolloServer } from '@apollo/server';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { GraphQLSchema } from 'graphql';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Services } from '../application/services';
import type { ReadSession } from '../application/versioning';
import { adminTokensOf, DEFAULT_BODY_TIMEOUT_MS, DEFAULT_HTTP_CACHE_CONTROL, type AppConfig } from '../config';
import type { CompiledExecution } from '../graphql/compiled-execution';
import { engineParts } from '../graphql/execution-mode';
import type { RequestContext } from '../graphql/context';
import { RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE } from '../graphql/error-mapping';
import { RequestLimits } from '../graphql/query-limits';
import type { Metrics } from '../observability/metrics';
import { isDatabaseUnavailable } from '../persistence/sql-errors';
import type { Tracing } from '../observability/tracing';
import { packageRoot, type BuildInfo } from '../version';
import { startApollo } from './apollo';
import { registerBodyDeadlines } from './body-deadline';
import { registerCors } from './cors';
import { DirectExecution } from './direct-execution';
import { Authenticator } from './authentication';
import { DashboardBundle, dashboardSignInOf, defaultDashboardDir, registerDashboard } from './dashboard';
import { defaultGraphiqlDir, GraphiqlBundle, graphiqlPageHeaders, registerGraphiqlAssets } from './graphiql';
import {
  BODY_LIMIT_BYTES,
  clientErrorHandler,
  errorBody,
  frameworkErrors,
  registerHttpErrorHandlers,
} from './http-errors';
import { checkGetParameters, registerJsonBodyParser } from './request-body';
import { requestScopes } from './request-scope';
import { observeRequests } from './request-observation';
import { registerFrontDoor } from './front-door';
import { registerMetricsEndpoint } from './metrics-endpoint';
import { declareRequestState } from './request-state';
import { ResponseCache, withResponseCache } from './response-cache';
import { registerLiveUpdates, type LiveUpdates } from './live';

export { BODY_LIMIT_BYTES } from './http-errors';

/** What the HTTP layer needs from the rest of the server. */
export interface HttpDependencies {
  readonly config: AppConfig;
  readonly schema: GraphQLSchema;
  /** How operations run: compiled queries, else graphql-js (over the same schema). */
  readonly execution: CompiledExecution<RequestContext>;
  readonly services: Services;
  readonly logger: Logger;
  /** A fresh read session for one request. */
  readonly newSession: () => ReadSession;
  /** Why the server cannot serve now (the database does not answer, is not migrated, …), or null when it can. */
  readonly unreadiness: () => Promise<string | null>;
  /** Extra read-only JSON endpoints, e.g. SQL statement counts for the benchmark. */
  readonly debugRoutes?: Record<string, () => unknown>;
  /** Where the built GraphiQL bundle is; dist/graphiql of this checkout by default. */
  readonly graphiqlDir?: string;
  /** Where the built dashboard bundle is; dist/dashboard of this checkout by default. */
  readonly dashboardDir?: string;
  /** This server's version, for /healthz and the front page. */
  readonly build: BuildInfo;
  /** Prometheus metrics (METRICS=true), served at /metrics; null when off. */
  readonly metrics?: Metrics | null;
  /** Request spans (OTEL_EXPORTER_OTLP_ENDPOINT set); null when off. */
  readonly tracing?: Tracing | null;
}

/**
 * Fastify with Apollo at /graphql (GraphiQL for a browser's GET), the
 * dashboard at /dashboard, health endpoints, and GraphQL-shaped JSON errors for everything that fails before
 * GraphQL runs.
 */
export async function createHttpServer(
  deps: HttpDependencies,
): Promise<{ fastify: FastifyInstance; apollo: ApolloServer<RequestContext> }> {
  const fastify = createFastify(deps.logger);
  declareRequestState(fastify);
  // First, so that its hook answers preflights and marks every response, errors included.
  await registerCors(fastify, deps.config.corsOrigins ?? []);
  registerJsonBodyParser(fastify);
  registerBodyDeadlines(fastify, deps.config.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS);
  const authenticator = new Authenticator(
    {
      adminTokens: adminTokensOf(deps.config),
      readToken: deps.config.readToken,
      readAuth: deps.config.readAuth ?? 'open',
      oidc: deps.config.oidc ?? null,
    },
    deps.services.access,
    (message) => deps.logger.warn(message),
  );
  if (authenticator.openWrites) warnOpenWrites(deps.logger);

  const graphiql = new GraphiqlBundle(deps.graphiqlDir ?? defaultGraphiqlDir(), deps.logger);
  // Read now, so a missing bundle is reported at start-up (it is looked for again on each page request until found).
  graphiql.load();
  // One set of limits (verdict memo, heavy lane) for Apollo's pipeline and the direct path alike.
  const limits = new RequestLimits(deps.schema, undefined, undefined, deps.tracing ?? null);
  const apollo = await startApollo(deps.config, deps.schema, fastify, graphiql, deps.execution, limits);

  const scopes = requestScopes(authenticator, deps.newSession);
  observeRequests(
    fastify,
    { log: deps.logger.isLevelEnabled('info'), metrics: deps.metrics ?? null, tracing: deps.tracing ?? null },
    scopes.reportOf,
  );
  const live = await registerLiveUpdates(fastify, { ...deps, authenticator });
  registerGraphQLRoute(fastify, apollo, deps, scopes, live, limits);
  registerGraphiqlAssets(fastify, graphiql);
  registerDashboardRoutes(fastify, deps);
  registerHealthRoutes(fastify, deps);
  if (deps.metrics) registerMetricsEndpoint(fastify, deps.metrics, deps.config.metricsToken ?? null);
  registerFrontDoor(fastify, deps.build, { metrics: Boolean(deps.metrics) }, packageRoot());
  registerHttpErrorHandlers(fastify);
  return { fastify, apollo };
}

function createFastify(logger: FastifyBaseLogger): FastifyInstance {
  return Fastify({
    loggerInstance: logger,
    // One line per request comes from observeRequests instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    // Errors before routing, and before there is a request at all, in the same GraphQL shape as the rest.
    clientErrorHandler,
    frameworkErrors,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._:-]{1,64}$/.test(given) ? given : randomUUID();
    },
  });
}

function warnOpenWrites(logger: Logger): void {
  logger.warn(
    'OPEN DEVELOPMENT MODE: no ADMIN_TOKEN is set, so anyone who can reach this server can change the registry. Set ADMIN_TOKEN (NODE_ENV=production refuses to start without it).',
  );
}

/** POST and GET /graphql through the response cache, then a compiled query directly or else Apollo; a GET that upgrades is a WebSocket for subscriptions (from an allowed origin). */
function registerGraphQLRoute(
  fastify: FastifyInstance,
  apollo: ApolloServer<RequestContext>,
  deps: HttpDependencies,
  scopes: ReturnType<typeof requestScopes>,
  live: LiveUpdates,
  limits: RequestLimits,
): void {
  const { scopeOf } = scopes;
  const contextOf = (request: FastifyRequest): RequestContext => {
    const { access, session, report } = scopeOf(request);
    return { requestId: request.id, access, services: deps.services, session, log: request.log, report };
  };
  const direct = engineParts(deps.config.execution).directPath
    ? new DirectExecution(deps.execution, limits, contextOf)
    : null;
  const executeGraphQL = fastifyApolloHandler(apollo, {
    context: async (request) => ({ ...contextOf(request), compiledRunFailed: direct?.compiledRunFailed(request) }),
  });
  const execute = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const answer = await direct?.answer(request, reply);
    if (answer !== undefined) return answer;
    const body = await executeGraphQL.call(
      fastify,
      request as Parameters<typeof executeGraphQL>[0],
      reply as Parameters<typeof executeGraphQL>[1],
    );
    direct?.learn(request, reply);
    return body;
  };
  const cache = deps.config.responseCache ? new ResponseCache() : null;
  deps.metrics?.watch({ responseCache: () => cache?.figures() ?? null });
  const answer = withResponseCache(
    cache,
    (request) => {
      const { access, session, report } = scopeOf(request);
      return { access, version: session, report };
    },
    execute,
    { cacheControl: deps.config.httpCacheControl ?? DEFAULT_HTTP_CACHE_CONTROL },
  );
  // Each request is authenticated first: at once for no token and the static tokens, else after a lookup.
  const handler = (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const authenticating = scopes.prepare(request);
    if (!authenticating) return answer(request, reply);
    return authenticating.then(
      () => answer(request, reply),
      (error: unknown) => {
        // An API token cannot be looked up while the database is down: 503, as any read would be then.
        if (!isDatabaseUnavailable(error)) throw error;
        request.log.error({ err: error, requestId: request.id }, 'database unavailable');
        return reply
          .code(503)
          .header('retry-after', String(RETRY_AFTER_SECONDS))
          .send(errorBody(UNAVAILABLE_MESSAGE, 'SERVICE_UNAVAILABLE', request.id));
      },
    );
  };
  // A WebSocket handler may only sit on a GET route, so GET has a route of its own.
  fastify.route({
    url: '/graphql',
    method: 'GET',
    onRequest: live.checkUpgradeOrigin,
    preValidation: checkGetParameters,
    onSend: graphiqlPageHeaders(),
    handler,
    wsHandler: live.websocket,
  });
  fastify.route({ url: '/graphql', method: ['POST', 'OPTIONS'], onSend: graphiqlPageHeaders(), handler });
}

/** GET /dashboard and its files; a missing bundle is reported at start-up, as GraphiQL's is. */
function registerDashboardRoutes(fastify: FastifyInstance, deps: HttpDependencies): void {
  const dashboard = new DashboardBundle(
    deps.dashboardDir ?? defaultDashboardDir(),
    deps.logger,
    dashboardSignInOf(deps.config.oidc),
  );
  dashboard.load();
  registerDashboard(fastify, dashboard);
}

function registerHealthRoutes(fastify: FastifyInstance, deps: HttpDependencies): void {
  const { version, commit } = deps.build;
  fastify.get('/healthz', async () => ({ status: 'ok', version, commit }));
  fastify.get('/readyz', async (_request, reply) => {
    const reason = await deps.unreadiness().catch(() => 'the readiness check failed');
    if (reason === null) return reply.send({ status: 'ready' });
    return reply.code(503).send({ status: 'unavailable', reason });
  });
  for (const [path, read] of Object.entries(deps.debugRoutes ?? {})) fastify.get(path, async () => read());
}
