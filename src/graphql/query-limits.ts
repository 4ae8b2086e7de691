import type { ApolloServerPlugin } from '@apollo/server';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  GraphQLError,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { LIMITS } from '../core/grammar';

/** Limits on one GraphQL request, all enforced before any resolver runs. */
export const QUERY_LIMITS = {
  /** Deepest selection nesting, in fields: fragment spreads and inline fragments are not levels. */
  depth: 10,
  /** Aliased fields in one document. */
  aliases: 15,
  /** Directives in one document. */
  directives: 50,
  /** Lexical tokens in one document (Apollo's parser stops beyond, as a 400 parse error). */
  tokens: 2000,
  /** Estimated cost: each field costs 1, and a connection multiplies what it contains by `first`. */
  cost: 50_000,
} as const;

/** Reports a rejected limit as a validation error (400) that names the limit. */
function reject(limit: string) {
  return (context: ValidationContext | null, error: GraphQLError) => {
    context?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, ''), { extensions: { limit } }));
  };
}

/** Validation rules for depth, aliases and directives (graphql-armor), reported as GRAPHQL_VALIDATION_FAILED. */
export const limitRules: ValidationRule[] = [
  maxDepthRule({
    n: QUERY_LIMITS.depth,
    // Count fields only: a selection written with fragments (as Relay clients write everything) is as deep as inline.
    flattenFragments: true,
    propagateOnRejection: false,
    onReject: [reject('DEPTH')],
  }),
  maxAliasesRule({
    n: QUERY_LIMITS.aliases,
    propagateOnRejection: false,
    onReject: [reject('ALIASES')],
  }),
  maxDirectivesRule({
    n: QUERY_LIMITS.directives,
    propagateOnRejection: false,
    onReject: [reject('DIRECTIVES')],
  }),
];

/** The page size connection arguments ask for: first, else last, else the default. */
function pageSize(first: unknown, last: unknown, fallback: number): number {
  const size = typeof first === 'number' ? first : typeof last === 'number' ? last : fallback;
  return Math.max(size, 1);
}

/** A connection's cost is what one node costs times the number of nodes it may return. */
const connectionEstimator: ComplexityEstimator = ({ args, childComplexity, field }) => {
  if (!field.args.some((a) => a.name === 'first')) return undefined;
  return 1 + childComplexity * pageSize(args.first, args.last, LIMITS.defaultPageSize);
};

/** nodes(ids) returns one object per id. */
const nodesEstimator: ComplexityEstimator = ({ args, childComplexity, field }) => {
  if (field.name !== 'nodes' || !Array.isArray(args.ids)) return undefined;
  return 1 + childComplexity * Math.max(args.ids.length, 1);
};

/** The binding matrix computes one cell per (project, tool) of its pages: 5 for each, on top of what it selects. */
const matrixEstimator: ComplexityEstimator = ({ args, childComplexity, field }) => {
  if (field.name !== 'bindingMatrix') return undefined;
  const projects = pageSize(args.projectsFirst, args.projectsLast, MATRIX_DEFAULTS.projects);
  const tools = pageSize(args.toolsFirst, args.toolsLast, MATRIX_DEFAULTS.tools);
  return 1 + childComplexity + 5 * projects * tools;
};

/** The binding matrix's default page sizes. */
export const MATRIX_DEFAULTS = { projects: 20, tools: 50 } as const;

/** The estimated cost of an operation, or null when its variables do not coerce (execution refuses them). */
export function estimateCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown>,
): number | null {
  try {
    return getComplexity({
      schema,
      query: document,
      operationName,
      variables,
      estimators: [matrixEstimator, nodesEstimator, connectionEstimator, simpleEstimator({ defaultComplexity: 1 })],
    });
  } catch {
    return null;
  }
}

/** The error for an operation over the cost limit: QUERY_TOO_COMPLEX, 400. */
export function costError(cost: number): GraphQLError | null {
  if (cost <= QUERY_LIMITS.cost) return null;
  return new GraphQLError(
    `query cost ${cost} exceeds the limit of ${QUERY_LIMITS.cost}; ask for fewer items per connection`,
    { extensions: { code: 'QUERY_TOO_COMPLEX', cost, limit: QUERY_LIMITS.cost, http: { status: 400 } } },
  );
}

/**
 * Refuses a query whose estimated cost exceeds the limit, after it is parsed
 * and validated and before it runs: 400 with code QUERY_TOO_COMPLEX.
 */
export function costLimitPlugin(schema: GraphQLSchema): ApolloServerPlugin {
  // Apollo keeps one parsed document per query text, so the cost is computed once per (document, operation, variables).
  const costs = new WeakMap<DocumentNode, Map<string, number | null>>();
  const costOf = (
    document: DocumentNode,
    operationName: string | undefined,
    variables: Record<string, unknown>,
  ): number | null => {
    let known = costs.get(document);
    if (!known) costs.set(document, (known = new Map<string, number | null>()));
    const key = `${operationName ?? ''}\u0000${JSON.stringify(variables)}`;
    let cost = known.get(key);
    if (cost === undefined) {
      cost = estimateCost(schema, document, operationName, variables);
      if (known.size >= 256) known.clear();
      known.set(key, cost);
    }
    return cost;
  };
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          const cost = costOf(document, request.operationName ?? undefined, request.variables ?? {});
          const error = cost === null ? null : costError(cost);
          if (error) throw error;
        },
      };
    },
  };
}
