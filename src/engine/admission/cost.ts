/** The estimated cost of an operation (graphql-query-complexity with the registry's estimators), and its limit. */
import {
  GraphQLError,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  type DocumentNode,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { IMPACT_LIMITS } from '../../application/binding-impact';
import { LIMITS } from '../../core/grammar';
import { MATRIX_DEFAULTS } from '../../graphql/pagination';
import { QUERY_LIMITS } from './limits';

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

/** What one cell of the binding matrix costs: the resolution of a tool's slots in a project, and the cell's fields. */
export const MATRIX_CELL_COST = 20;

/** The binding matrix computes one cell per (project, tool) of its pages, on top of what it selects. */
const matrixEstimator: ComplexityEstimator = ({ args, childComplexity, field }) => {
  if (field.name !== 'bindingMatrix') return undefined;
  const projects = pageSize(args.projectsFirst, args.projectsLast, MATRIX_DEFAULTS.projects);
  const tools = pageSize(args.toolsFirst, args.toolsLast, MATRIX_DEFAULTS.tools);
  return 1 + childComplexity + MATRIX_CELL_COST * projects * tools;
};

/** What counting the whole matrix costs (BindingSummary's total, tools and projects): every pair, once per registry version. */
export const SUMMARY_COST = 5_000;

/** What one tool's or project's cells cost (BindingSummary's tool and project): it is resolved against the whole other axis. */
export const SUMMARY_CELLS_COST = 10_000;

/** The binding summary's fields that count every pair, and those that resolve a whole row or column. */
const summaryEstimator: ComplexityEstimator = ({ args, childComplexity, field, type }) => {
  if (type.name !== 'BindingSummary') return undefined;
  const page = 1 + childComplexity * pageSize(args.first, undefined, LIMITS.defaultPageSize);
  switch (field.name) {
    case 'total':
      return SUMMARY_COST + childComplexity;
    case 'tools':
    case 'projects':
      return SUMMARY_COST + page;
    case 'tool':
    case 'project':
      return SUMMARY_CELLS_COST + childComplexity;
    default:
      return undefined;
  }
};

/**
 * Lists that are not connections, at a typical length (their maximum where
 * one is small, or where a typical length would let a small query ask for a
 * huge answer): what each contains is counted that many times.
 */
const LIST_SIZES: Readonly<Record<string, number>> = {
  // At most 1,000 a mutation, all of them on one entry when it made a single edit: a page of 100 entries with
  // their binding changes was costed as 100 items and answered 17 MB.
  'RegistryChange.bindingChanges': IMPACT_LIMITS.kept,
  'Tool.resourceSlots': 8,
  'Project.resources': 25,
  'ResourceUsage.links': 10,
  'ResourceUsage.staticBindings': 10,
  'ResourceType.ancestors': 5,
  'ResourceType.parentTypes': 2,
  'ResourceType.subtypes': 5,
};

const listEstimator: ComplexityEstimator = ({ childComplexity, field, type }) => {
  const size = LIST_SIZES[`${type.name}.${field.name}`];
  return size === undefined ? undefined : 1 + childComplexity * size;
};

/**
 * Introspection's lists, sized from the schema: `__schema { types }` has one
 * entry per type, and each type's fields, input fields, enum values,
 * interfaces and possible types are counted at their average over all types
 * (so the full introspection's estimate is the schema's size: types × fields),
 * a field's or directive's args likewise. Rounded up, at least 1.
 */
function introspectionEstimator(schema: GraphQLSchema): ComplexityEstimator {
  const types = Object.values(schema.getTypeMap());
  const fields = types.flatMap((type) =>
    isObjectType(type) || isInterfaceType(type) ? Object.values(type.getFields()) : [],
  );
  const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0);
  const perType = (count: (type: GraphQLNamedType) => number) =>
    Math.max(1, Math.ceil(sum(types.map(count)) / Math.max(types.length, 1)));
  const directives = schema.getDirectives();
  const sizes: Record<string, number> = {
    '__Schema.types': types.length,
    '__Schema.directives': directives.length,
    '__Type.fields': Math.max(1, Math.ceil(fields.length / Math.max(types.length, 1))),
    '__Type.inputFields': perType((t) => (isInputObjectType(t) ? Object.keys(t.getFields()).length : 0)),
    '__Type.enumValues': perType((t) => (isEnumType(t) ? t.getValues().length : 0)),
    '__Type.interfaces': perType((t) => (isObjectType(t) || isInterfaceType(t) ? t.getInterfaces().length : 0)),
    '__Type.possibleTypes': perType((t) => (isAbstractType(t) ? schema.getPossibleTypes(t).length : 0)),
    '__Field.args': Math.max(1, Math.ceil(sum(fields.map((f) => f.args.length)) / Math.max(fields.length, 1))),
    '__Directive.args': Math.max(
      1,
      Math.ceil(sum(directives.map((d) => d.args.length)) / Math.max(directives.length, 1)),
    ),
  };
  return ({ childComplexity, field, type }) => {
    const size = sizes[`${type.name}.${field.name}`];
    return size === undefined ? undefined : 1 + childComplexity * size;
  };
}

/** The estimators for a schema (introspection's list sizes are computed once per schema). */
const estimatorsOf = new WeakMap<GraphQLSchema, ComplexityEstimator[]>();
function estimators(schema: GraphQLSchema): ComplexityEstimator[] {
  let list = estimatorsOf.get(schema);
  if (!list) {
    list = [
      introspectionEstimator(schema),
      matrixEstimator,
      summaryEstimator,
      nodesEstimator,
      listEstimator,
      connectionEstimator,
      simpleEstimator({ defaultComplexity: 1 }),
    ];
    estimatorsOf.set(schema, list);
  }
  return list;
}

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
      estimators: estimators(schema),
      maxQueryNodes: MAX_COSTED_NODES,
    });
  } catch (error) {
    // Too many selections to cost once fragments are expanded (each spread is costed where it is spread):
    // refused as over the limit, never waved through uncosted.
    if (error instanceof GraphQLError && error.message.includes('maximum allowed number of nodes')) return Infinity;
    return null;
  }
}

/** The most selections, fragments expanded, the cost estimate walks; a query with more costs Infinity (refused). */
export const MAX_COSTED_NODES = 10_000;

/** The error for an operation over the cost limit: QUERY_TOO_COMPLEX, 400. */
export function costError(cost: number): GraphQLError | null {
  if (cost <= QUERY_LIMITS.cost) return null;
  if (!Number.isFinite(cost))
    return new GraphQLError(
      `the query has more than ${MAX_COSTED_NODES} selections once its fragments are expanded, which is over any cost it may have; spread each fragment fewer times`,
      { extensions: { code: 'QUERY_TOO_COMPLEX', limit: QUERY_LIMITS.cost, http: { status: 400 } } },
    );
  return new GraphQLError(
    `query cost ${cost} exceeds the limit of ${QUERY_LIMITS.cost}; ask for fewer items per connection`,
    { extensions: { code: 'QUERY_TOO_COMPLEX', cost, limit: QUERY_LIMITS.cost, http: { status: 400 } } },
  );
}
