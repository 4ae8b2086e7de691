import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginSchemaReportingDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import type { FastifyInstance } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { AppConfig } from '../config';
import type { CompiledExecution } from './compiled-execution';
import { readAccessPlugin } from './read-access';
import type { RequestContext } from '../graphql/context';
import { DocumentCache } from './document-cache';
import { errorReportingPlugin, formatError } from './error-mapping';
import { notFoundHintsPlugin } from './not-found-hints';
import { limitRules, QUERY_LIMITS, requestLimitsPlugin, type RequestLimits } from './admission';
import { requestReportPlugin } from './report';
import { subscriptionsOverHttpPlugin } from './http-subscriptions';

/**
 * Apollo Server for the schema: the one error mapping, the hostile-query
 * limits (all checked before any resolver runs), the read-token gate, the
 * request report, and GraphiQL as the landing page. Apollo's features that
 * nothing here uses are off. Operations run through `execution` (compiled
 * queries, else graphql-js), given to Apollo as a gateway: Apollo 5 has no
 * other place for an executor. Parsing, validation and every plugin hook run
 * as before; only the execution step is ours.
 */
export async function startApollo(
  config: AppConfig,
  schema: GraphQLSchema,
  fastify: FastifyInstance,
  /** What GET /graphql shows a browser (the HTTP layer's GraphiQL page). */
  landingPage: ApolloServerPlugin<RequestContext>,
  execution: CompiledExecution<RequestContext>,
  limits: RequestLimits,
): Promise<ApolloServer<RequestContext>> {
  const apollo = new ApolloServer<RequestContext>({
    gateway: execution.gateway(),
    introspection: config.introspection,
    includeStacktraceInErrorResponses: false,
    // main.ts owns signal handling: it closes HTTP, then the database.
    stopOnTerminationSignals: false,
    hideSchemaDetailsFromClientErrors: config.production,
    formatError,
    parseOptions: { maxTokens: QUERY_LIMITS.tokens },
    documentStore: new DocumentCache(),
    validationRules: limitRules,
    allowBatchedHttpRequests: false,
    plugins: [
      ...Object.values(stagePlugins(fastify, limits, landingPage)).map((stage) => stage.plugin),
      // Nothing here uses cache hints or Apollo's reporting; the cache-control plugin alone wraps every field resolver.
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      ApolloServerPluginUsageReportingDisabled(),
      ApolloServerPluginSchemaReportingDisabled(),
    ],
  });
  await apollo.start();
  return apollo;
}

/** A stage of Apollo's pipeline, and what the direct path (./direct-execution.ts) does in its place. */
interface StagePlugin {
  readonly plugin: ApolloServerPlugin<RequestContext>;
  /**
   * How the direct path covers this stage: the same function called there, or why the stage has nothing to do for
   * what the direct path answers (a successful compiled POST query). A plugin added here must say it, so none is
   * skipped on the direct path unnoticed.
   */
  readonly onDirectPath: string;
}

/** The plugins of Apollo's pipeline, in order. */
function stagePlugins(
  fastify: FastifyInstance,
  limits: RequestLimits,
  landingPage: ApolloServerPlugin<RequestContext>,
): Record<string, StagePlugin> {
  return {
    drain: { plugin: fastifyApolloDrainPlugin(fastify), onDirectPath: 'server shutdown, not a request stage' },
    readAccess: { plugin: readAccessPlugin, onDirectPath: 'readRefusal, the same read rule (declines to Apollo)' },
    subscriptionsOverHttp: { plugin: subscriptionsOverHttpPlugin, onDirectPath: 'only queries are compiled' },
    admission: { plugin: requestLimitsPlugin(limits), onDirectPath: 'RequestLimits.admit, the same limits' },
    notFoundHints: { plugin: notFoundHintsPlugin, onDirectPath: 'errors only: a run with errors goes to Apollo' },
    errorReporting: { plugin: errorReportingPlugin, onDirectPath: 'errors only: a run with errors goes to Apollo' },
    report: { plugin: requestReportPlugin, onDirectPath: 'reportOperation, the same report' },
    landingPage: { plugin: landingPage, onDirectPath: 'GET by a browser only; the direct path takes POSTs' },
  };
}
