import type { ApolloServer, ApolloServerPlugin } from '@apollo/server';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { Services } from '../application/services';
import type { ReadSession } from '../application/versioning';
import { DEFAULT_HTTP_CACHE_CONTROL, type AppConfig } from '../config';
import type { RequestContext, RequestReport } from '../graphql/context';
import type { Metrics } from '../observability/metrics';
import type { Tracing } from '../observability/tracing';
import { isDatabaseUnavailable } from '../persistence/sql-errors';
import { RequestLimits } from './admission';
import { startApollo } from './apollo';
import type { Authenticator } from './authentication';
import type { CompiledExecution } from './compiled-execution';
import { DirectExecution } from './direct-execution';
import { errorBody, RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE } from './error-mapping';
import { engineParts } from './execution-mode';
import { requestScopes } from './request-scope';
import { ResponseCache, withResponseCache } from './response-cache';

/** What the pipeline is made of. */
export interface PipelineDependencies {
  readonly config: AppConfig;
  readonly schema: GraphQLSchema;
  /** How operations run: compiled queries, else graphql-js (over the same schema). */
  readonly execution: CompiledExecution<RequestContext>;
  readonly services: Services;
  /** A fresh read session for one request. */
  readonly newSession: () => ReadSession;
  readonly authenticator: Authenticator;
  readonly metrics: Metrics | null;
  readonly tracing: Tracing | null;
  /** What GET /graphql shows a browser (the HTTP layer's GraphiQL page). */
  readonly landingPage: ApolloServerPlugin<RequestContext>;
}

/** The request pipeline of GET and POST /graphql, made once per server. */
export interface Pipeline {
  readonly apollo: ApolloServer<RequestContext>;
  /** Answers one GraphQL request over HTTP: every stage below, in order. */
  readonly handle: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  /** The request's report (its one log line and metrics), once the request has been authenticated. */
  readonly reportOf: (request: FastifyRequest) => RequestReport | undefined;
}

/**
 * The one request pipeline, for every GraphQL request over HTTP (see
 * docs/architecture.md). The stages, in order, each in its own file:
 *
 * 1. body: parsed and checked by the HTTP layer (src/http/request-body.ts);
 * 2. authentication: the principal (./authentication.ts), with the request's
 *    scope: its read session, report and one GraphQL context (./request-scope.ts);
 * 3. response cache: an answer kept or tagged at a version that still holds
 *    (./response-cache.ts);
 * 4. document: parsed, validated and limited, cached per text
 *    (./document-cache.ts, ./admission/document-rules.ts);
 * 5. read access: the read rule before any operation (./read-access.ts);
 * 6. admission: cost, arguments and the heavy lane (./admission/);
 * 7. execution: graphql-js, jit or page assembly, chosen in one place
 *    (./execution-mode.ts, ./compiled-execution.ts);
 * 8. error formatting: the one mapping (./error-mapping.ts);
 * 9. report and log line (./report.ts, src/http/request-observation.ts).
 *
 * Stages 4 to 8 run in Apollo's request pipeline (./apollo.ts), or, for a
 * query already compiled whose run has no error, on the direct path
 * (./direct-execution.ts), which calls the same stage functions: the same
 * document, read rule, admission and report.
 */
export async function startPipeline(fastify: FastifyInstance, deps: PipelineDependencies): Promise<Pipeline> {
  // One set of limits (verdict memo, heavy lane) for Apollo's pipeline and the direct path alike.
  const limits = new RequestLimits(deps.schema, undefined, undefined, deps.tracing);
  const apollo = await startApollo(deps.config, deps.schema, fastify, deps.landingPage, deps.execution, limits);
  const scopes = requestScopes(deps.authenticator, deps.newSession, deps.services);
  // One context per request, whichever path runs it.
  const contextOf = (request: FastifyRequest): RequestContext => scopes.scopeOf(request).context;
  const direct = engineParts(deps.config.execution).directPath
    ? new DirectExecution(deps.execution, limits, contextOf)
    : null;
  const executeGraphQL = fastifyApolloHandler(apollo, { context: async (request) => contextOf(request) });
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
      const { access, session, report } = scopes.scopeOf(request);
      return { access, version: session, report };
    },
    execute,
    { cacheControl: deps.config.httpCacheControl ?? DEFAULT_HTTP_CACHE_CONTROL },
  );
  // Each request is authenticated first: at once for no token and the static tokens, else after a lookup.
  const handle = (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
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
  return { apollo, handle, reportOf: scopes.reportOf };
}
