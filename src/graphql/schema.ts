import { assertInterfaceType, lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { AccessResolver, ApiTokenResolver, ViewerResolver } from './resolvers/access.resolver';
import { BatchResolver } from './resolvers/batch.resolver';
import { BindingResolver } from './resolvers/binding.resolver';
import { ChangeResolver } from './resolvers/change.resolver';
import { MatrixCellResolver, MatrixResolver } from './resolvers/matrix.resolver';
import { NodeResolver } from './resolvers/node.resolver';
import { SubscriptionResolver } from './resolvers/subscription.resolver';
import { ProjectSummaryResolver, SummaryResolver, ToolSummaryResolver } from './resolvers/summary.resolver';
import { ProjectResolver, ProjectResourceResolver } from './resolvers/project.resolver';
import { ResourceTypeResolver } from './resolvers/resource-type.resolver';
import { ResourceResolver, StaticBindingResolver } from './resolvers/resource.resolver';
import { ResourceSlotResolver, ToolResolver } from './resolvers/tool.resolver';
import { authChecker } from './authorization';
import { nodeTypeName } from './types/node.type';
import { validateArgument } from './validation';

/** Every resolver class of the API. */
export const RESOLVERS = [
  ResourceTypeResolver,
  ResourceResolver,
  StaticBindingResolver,
  ProjectResolver,
  ProjectResourceResolver,
  ToolResolver,
  ResourceSlotResolver,
  BatchResolver,
  BindingResolver,
  ChangeResolver,
  SubscriptionResolver,
  MatrixResolver,
  MatrixCellResolver,
  SummaryResolver,
  ToolSummaryResolver,
  ProjectSummaryResolver,
  NodeResolver,
  AccessResolver,
  ViewerResolver,
  ApiTokenResolver,
] as const;

/** The schema as type-graphql builds it from the resolvers, with what type-graphql cannot say set on it. */
export async function buildTypeGraphqlSchema(): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers: [...RESOLVERS],
    validate: true,
    validateFn: validateArgument,
    authChecker,
    // Every subscription brings its own `subscribe` (the change feed); type-graphql still wants a PubSub.
    pubSub: UNUSED_PUB_SUB,
  });
  // type-graphql has no place for the root types' descriptions; they are set on the built types.
  for (const [type, description] of [
    [schema.getQueryType(), ROOT_DESCRIPTIONS.query],
    [schema.getMutationType(), ROOT_DESCRIPTIONS.mutation],
    [schema.getSubscriptionType(), ROOT_DESCRIPTIONS.subscription],
  ] as const) {
    if (type) type.description = description;
  }
  // type-graphql wraps a custom resolveType in an async function; graphql-jit does not await one (graphql-jit#69).
  // Node's needs nothing to await: the value carries its kind.
  assertInterfaceType(schema.getType('Node')).resolveType = nodeTypeName;
  return schema;
}

const ROOT_DESCRIPTIONS = {
  query:
    'Reads of the registry. Every request reads one registry version: whatever it shows is consistent, and no older than the version it reports.',
  mutation:
    'Changes to the registry. Each field is one transaction, and a document with several runs them in order. Each change of what the registry holds takes dryRun to preview and returns its binding impact; changes of who may change it (grants, API tokens) are logged the same way. Every field needs a role on the namespace of what it changes (see Role); a refusal is FORBIDDEN and changes nothing.',
  subscription:
    'Live changes, over WebSocket (graphql-ws) on /graphql: every committed change, in log order, with replay from a version.',
} as const;

/** A PubSub that nothing uses: each subscription field subscribes to the change feed itself. */
const UNUSED_PUB_SUB = {
  publish(): void {},
  subscribe(): AsyncIterable<unknown> {
    throw new Error('subscriptions subscribe to the change feed, not to PubSub topics');
  },
};

/** The schema as SDL, sorted, as committed in schema.graphql. */
export function printRegistrySchema(schema: GraphQLSchema): string {
  return printSchema(lexicographicSortSchema(schema)).trim() + '\n';
}
