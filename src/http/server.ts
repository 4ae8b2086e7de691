import type { ApolloServer } from '@apollo/server';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Services } from '../application/services';
import type { ReadSession } from '../application/versioning';
import { adminTokensOf, DEFAULT_BODY_TIMEOUT_MS, type AppConfig } from '../config';
import { Authenticator } from '../engine/authentication';
import type { CompiledExecution } from '../engine/compiled-execution';
import { startPipeline, type Pipeline } from '../engine/pipeline';
import { declareRequestState } from '../engine/request-state';
import type { RequestContext } from '../graphql/context';
import type { Metrics } from '../observability/metrics';
import type { Tracing } from '../observability/tracing';
import { packageRoot, type BuildInfo } from '../version';
import { registerBodyDeadlines } from './body-deadline';
import { registerCors } from './cors';
import { DashboardBundle, dashboardSignInOf, defaultDashboardDir, registerDashboard } from './dashboard';
import {
  defaultGraphiqlDir,
  GraphiqlBundle,
  graphiqlLandingPage,
  graphiqlPageHeaders,
  registerGraphiqlAssets,
} from './graphiql';
import { BODY_LIMIT_BYTES, clientErrorHandler, frameworkErrors, registerHttpErrorHandlers } from './http-errors';
import { checkGetParameters, registerJsonBodyParser } from './request-body';
import { observeRequests } from './request-observation';
import { registerFrontDoor } from './front-door';
import { registerMetricsEndpoint } from './metrics-endpoint';
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
 * Fastify with the request pipeline at /graphql (src/engine/pipeline.ts;
 * GraphiQL for a browser's GET), the dashboard at /dashboard, health
 * endpoints, and GraphQL-shaped JSON errors for everything that fails before
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
  const pipeline = await startPipeline(fastify, {
    ...deps,
    authenticator,
    metrics: deps.metrics ?? null,
    tracing: deps.tracing ?? null,
    landingPage: graphiqlLandingPage(graphiql),
  });
  observeRequests(
    fastify,
    { log: deps.logger.isLevelEnabled('info'), metrics: deps.metrics ?? null, tracing: deps.tracing ?? null },
    pipeline.reportOf,
  );
  const live = await registerLiveUpdates(fastify, { ...deps, authenticator });
  registerGraphQLRoute(fastify, pipeline, live);
  registerGraphiqlAssets(fastify, graphiql);
  registerDashboardRoutes(fastify, deps);
  registerHealthRoutes(fastify, deps);
  if (deps.metrics) registerMetricsEndpoint(fastify, deps.metrics, deps.config.metricsToken ?? null);
  registerFrontDoor(fastify, deps.build, { metrics: Boolean(deps.metrics) }, packageRoot());
  registerHttpErrorHandlers(fastify);
  return { fastify, apollo: pipeline.apollo };
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

/** GET and POST /graphql through the request pipeline (src/engine/pipeline.ts); a GET that upgrades is a WebSocket for subscriptions (from an allowed origin). */
function registerGraphQLRoute(fastify: FastifyInstance, pipeline: Pipeline, live: LiveUpdates): void {
  const handler = pipeline.handle;
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
