import type { GraphQLSchema } from 'graphql';
import { authChecker } from '../graphql/authorization';
import { INPUT_CLASSES } from '../graphql/inputs/input-classes';
import { buildTypeGraphqlSchema, RESOLVERS } from '../graphql/schema';
import { callFieldResolversDirectly, callRootQueriesDirectly } from './direct-resolvers';
import { shareTime } from './fair-share';

/**
 * Builds the executable schema. Argument validation is on: class-validator
 * runs on every input through `validateArgument`, which reports each bad
 * field by its full path. `directResolvers: false` (EXECUTION=reference)
 * leaves every resolver as type-graphql built it.
 */
export async function buildRegistrySchema(options: { directResolvers?: boolean } = {}): Promise<GraphQLSchema> {
  const schema = await buildTypeGraphqlSchema();
  if (options.directResolvers !== false) {
    // Field resolvers that need nothing of type-graphql's per-call wrapper are called directly (./direct-resolvers.ts).
    callFieldResolversDirectly(schema, RESOLVERS);
    // So are root queries whose arguments come as plain values (their authorization still checked on each call).
    callRootQueriesDirectly(schema, RESOLVERS, INPUT_CLASSES, authChecker);
  }
  // Then every resolver shares the thread fairly with other requests (./fair-share.ts).
  return shareTime(schema);
}
