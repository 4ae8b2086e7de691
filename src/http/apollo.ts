import { ApolloServer } from '@apollo/server';
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
import type { CompiledExecution } from '../engine/compiled-execution';
import { readAccessPlugin } from '../engine/read-access';
import type { RequestContext } from '../graphql/context';
import { DocumentCache } from '../engine/document-cache';
import { errorReportingPlugin, formatError } from '../engine/error-mapping';
import { notFoundHintsPlugin } from '../engine/not-found-hints';
import { limitRules, QUERY_LIMITS, requestLimitsPlugin, type RequestLimits } from '../engine/admission';
import { requestReportPlugin } from '../engine/report';
import { subscriptionsOverHttpPlugin } from '../engine/http-subscriptions';
import { graphiqlLandingPage, type GraphiqlBundle } from './graphiql';

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
  graphiql: GraphiqlBundle,
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
      fastifyApolloDrainPlugin(fastify),
      readAccessPlugin,
      subscriptionsOverHttpPlugin,
      requestLimitsPlugin(limits),
      notFoundHintsPlugin,
      errorReportingPlugin,
      requestReportPlugin,
      graphiqlLandingPage(graphiql),
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
