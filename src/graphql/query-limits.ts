import type { ApolloServerPlugin } from '@apollo/server';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { LRUCache } from 'lru-cache';
import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type SelectionNode,
  type SelectionSetNode,
  type TypeNode,
  type FieldNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { IMPACT_LIMITS } from '../application/binding-impact';
import { BadInputError, type FieldProblem } from '../core/errors';
import { checkListSize, checkPageSize, LIMITS } from '../core/grammar';
import type { StageTracer } from '../observability/tracing';
import type { RequestContext } from './context';
import { HEAVY_COST, HEAVY_QUEUE_LIMIT, Lane, LaneFullError, newFairShare } from './fair-share';

/** Limits on one GraphQL request, all enforced before any resolver runs. */
export const QUERY_LIMITS = {
  /** Deepest selection nesting, in fields: fragment spreads and inline fragments are not levels. */
  depth: 10,
  /** Aliased fields in one document. */
  aliases: 15,
  /** Directives in one document. */
  directives: 50,
  /** `__schema` selections in one operation (aliases and fragments included). */
  schemaIntrospections: 1,
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

/**
 * At most `QUERY_LIMITS.schemaIntrospections` `__schema` selections in an
 * operation, counted through fragments (inline and named; a named fragment
 * spread twice counts once, since its selections merge): a client needs the
 * schema once, and each copy is answered in full.
 */
export const schemaIntrospectionRule: ValidationRule = (context) => {
  const count = (set: SelectionSetNode, found: Set<FieldNode>, fragments: Set<string>): void => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value === '__schema') found.add(selection);
        else if (selection.selectionSet) count(selection.selectionSet, found, fragments);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        count(selection.selectionSet, found, fragments);
      } else if (!fragments.has(selection.name.value)) {
        fragments.add(selection.name.value);
        const fragment = context.getFragment(selection.name.value);
        if (fragment) count(fragment.selectionSet, found, fragments);
      }
    }
  };
  return {
    OperationDefinition(operation) {
      const found = new Set<FieldNode>();
      count(operation.selectionSet, found, new Set());
      if (found.size > QUERY_LIMITS.schemaIntrospections) {
        context.reportError(
          new GraphQLError(
            `__schema may be selected at most once a request, found ${found.size}; ask for the schema once`,
            { nodes: [...found], extensions: { limit: 'INTROSPECTION' } },
          ),
        );
      }
    },
  };
};

/** Validation rules for depth, aliases, directives (graphql-armor) and `__schema` selections, reported as GRAPHQL_VALIDATION_FAILED. */
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
  schemaIntrospectionRule,
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

/** What one cell of the binding matrix costs: the resolution of a tool's slots in a project, and the cell's fields. */
export const MATRIX_CELL_COST = 20;

/** The binding matrix computes one cell per (project, tool) of its pages, on top of what it selects. */
const matrixEstimator: ComplexityEstimator = ({ args, childComplexity, field }) => {
  if (field.name !== 'bindingMatrix') return undefined;
  const projects = pageSize(args.projectsFirst, args.projectsLast, MATRIX_DEFAULTS.projects);
  const tools = pageSize(args.toolsFirst, args.toolsLast, MATRIX_DEFAULTS.tools);
  return 1 + childComplexity + MATRIX_CELL_COST * projects * tools;
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

/** The binding matrix's default page sizes. */
export const MATRIX_DEFAULTS = { projects: 20, tools: 50 } as const;

/** The estimators for a schema (introspection's list sizes are computed once per schema). */
const estimatorsOf = new WeakMap<GraphQLSchema, ComplexityEstimator[]>();
function estimators(schema: GraphQLSchema): ComplexityEstimator[] {
  let list = estimatorsOf.get(schema);
  if (!list) {
    list = [
      introspectionEstimator(schema),
      matrixEstimator,
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

/** Page-size arguments, each with the one it cannot be given with (a page is taken from one end of the window). */
const PAGE_SIZE_PAIRS = [
  ['first', 'last'],
  ['projectsFirst', 'projectsLast'],
  ['toolsFirst', 'toolsLast'],
] as const;

/** List arguments with a maximum length, by `field.argument` (whatever type the field is on). */
const LIST_ARGUMENTS: ReadonlyMap<string, (length: number) => FieldProblem | null> = new Map([
  [
    'nodes.ids',
    (n: number) =>
      n > LIMITS.pageSize ? { field: 'ids', message: `at most ${LIMITS.pageSize} ids per request` } : null,
  ],
  ['explainBindings.params', (n: number) => listProblem('params', n, LIMITS.params)],
  ['resolveBindings.params', (n: number) => listProblem('params', n, LIMITS.params)],
]);

function listProblem(field: string, length: number, max: number): FieldProblem | null {
  const problem = checkListSize(length, max);
  return problem ? { field, message: `${field} ${problem}` } : null;
}

/** What is wrong with one field's bounded arguments (page sizes, list lengths), as the resolvers would say it. */
function fieldArgumentProblems(args: Record<string, unknown>, field: GraphQLField<unknown, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const pair of PAGE_SIZE_PAIRS) {
    for (const name of pair) {
      const size = args[name];
      const problem = typeof size === 'number' ? checkPageSize(size) : null;
      if (problem) problems.push({ field: name, message: `${name} ${problem}` });
    }
  }
  for (const [name, value] of Object.entries(args)) {
    const check = Array.isArray(value) ? LIST_ARGUMENTS.get(`${field.name}.${name}`) : undefined;
    const problem = check?.((value as unknown[]).length);
    if (problem) problems.push(problem);
  }
  if (problems.length > 0) return problems;
  for (const [first, last] of PAGE_SIZE_PAIRS) {
    if (args[first] != null && args[last] != null) {
      return [{ field: last, message: `pass ${first} or ${last}, not both: a page is taken from one end` }];
    }
  }
  return [];
}

/**
 * The problems of the first field, in the operation to run, whose page sizes
 * or list lengths are out of bounds, from literals and variables (defaults
 * included); fields that @skip/@include leave out are not looked at. Empty
 * when all hold, or when the variables do not coerce (execution refuses
 * those, with BAD_USER_INPUT).
 */
export function argumentProblems(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown>,
): FieldProblem[] {
  const operation = getOperationAST(document, operationName);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return [];
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 1 });
  if (coerced.errors) return [];
  const values = coerced.coerced;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  // A fragment's arguments do not depend on where it is spread: each is looked at once.
  const seen = new Set<string>();
  const included = (node: SelectionNode) =>
    getDirectiveValues(GraphQLSkipDirective, node, values)?.if !== true &&
    getDirectiveValues(GraphQLIncludeDirective, node, values)?.if !== false;
  const fieldProblems = (node: FieldNode, field: GraphQLField<unknown, unknown>): FieldProblem[] => {
    try {
      return fieldArgumentProblems(getArgumentValues(field, node, values), field);
    } catch {
      return []; // an argument that does not coerce: validation or execution says so
    }
  };
  const walk = (set: SelectionSetNode, parent: GraphQLNamedType | null | undefined): FieldProblem[] => {
    for (const selection of set.selections) {
      if (!included(selection)) continue;
      let problems: FieldProblem[] = [];
      if (selection.kind === Kind.FIELD) {
        // Introspection's fields (and __typename) are not the parent's: none has a bounded argument.
        const field =
          isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[selection.name.value] : undefined;
        if (!field) continue;
        if (selection.arguments?.length) problems = fieldProblems(selection, field);
        if (problems.length === 0 && selection.selectionSet) {
          problems = walk(selection.selectionSet, getNamedType(field.type));
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        problems = walk(selection.selectionSet, type);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (!fragment || seen.has(fragment.name.value)) continue;
        seen.add(fragment.name.value);
        problems = walk(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value));
      }
      if (problems.length > 0) return problems;
    }
    return [];
  };
  return walk(operation.selectionSet, root);
}

/** The error for out-of-bounds arguments: BAD_USER_INPUT, 400, with the message and problems a resolver would give. */
export function argumentError(problems: readonly FieldProblem[]): GraphQLError | null {
  if (problems.length === 0) return null;
  const { message, code } = new BadInputError(problems);
  return new GraphQLError(message, { extensions: { code, problems, http: { status: 400 } } });
}

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

/** What the limits found of one (document, operation, variables): out-of-bounds arguments, and the estimated cost. */
interface Verdict {
  readonly problems: readonly FieldProblem[];
  readonly cost: number | null;
}

/** What a memo entry costs beyond its key: the verdict object, the LRU's bookkeeping. */
const VERDICT_OVERHEAD_BYTES = 120;

/**
 * The verdicts of recent requests, by query hash, operation name and
 * variables, within a budget of bytes (keys are counted at two bytes a
 * character, what V8 may use); least recently used out first.
 */
export class VerdictMemo {
  private readonly entries: LRUCache<string, Verdict>;

  constructor(maxBytes = 1024 * 1024) {
    this.entries = new LRUCache<string, Verdict>({
      maxSize: maxBytes,
      maxEntrySize: maxBytes / 8,
      sizeCalculation: (verdict, key) =>
        2 * key.length +
        VERDICT_OVERHEAD_BYTES +
        verdict.problems.reduce((bytes, p) => bytes + 2 * (p.field.length + p.message.length) + 64, 0),
    });
  }

  /** The verdict for a key, computed (and kept) when not known. */
  of(key: string, compute: () => Verdict): Verdict {
    let verdict = this.entries.get(key);
    if (!verdict) this.entries.set(key, (verdict = compute()));
    return verdict;
  }

  /** Number of entries, and their total size in bytes as counted (for tests). */
  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.entries.calculatedSize;
  }
}

/**
 * The error that refuses an operation before it runs, or null: page sizes and
 * list lengths out of bounds (BAD_USER_INPUT), then an estimated cost over the
 * limit (QUERY_TOO_COMPLEX); both 400.
 */
export function requestLimitError(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown>,
): GraphQLError | null {
  return verdictError({
    problems: argumentProblems(schema, document, operationName, variables),
    cost: estimateCost(schema, document, operationName, variables),
  });
}

function verdictError(verdict: Verdict): GraphQLError | null {
  return argumentError(verdict.problems) ?? (verdict.cost === null ? null : costError(verdict.cost));
}

/** Seconds a client is asked to wait (Retry-After) when the heavy lane's queue is full. */
export const LANE_RETRY_AFTER_SECONDS = 1;

/**
 * A place in the heavy lane, or, when its queue is full, the refusal:
 * SERVICE_UNAVAILABLE with HTTP 503 and Retry-After, before the request runs
 * (the same code as an unavailable database: the server cannot take it now,
 * and the request itself is fine).
 */
async function enterOrRefuse(lane: Lane): Promise<() => void> {
  try {
    return await lane.enter();
  } catch (error) {
    if (!(error instanceof LaneFullError)) throw error;
    throw new GraphQLError(
      `the server is busy: ${error.limit} expensive requests (estimated cost ${HEAVY_COST} or more) are already waiting; try again shortly, or ask for less`,
      {
        extensions: {
          code: 'SERVICE_UNAVAILABLE',
          limit: 'HEAVY_QUEUE',
          http: { status: 503, headers: new Map([['retry-after', String(LANE_RETRY_AFTER_SECONDS)]]) },
        },
      },
    );
  }
}

/**
 * The part of a verdict's memo key that comes from the variables: only what
 * can change the verdict. Variables the operation does not declare are left
 * out (a client's extra, unused variables must not make every request a new
 * entry). A declared `String` or `ID` variable holding a string counts only
 * as "a string": any string coerces to either type, and no page size, list
 * length, directive or cost reads its content. So the one verdict serves,
 * say, `resolveBindings(tool: $tool, project: $project)` for every pair of
 * names, where keying by value made each pair an entry and a miss costs the
 * cost estimate and the argument check (about 60 µs; a fifth of an uncached resolve).
 * The same holds inside a list of strings, and inside input objects whose
 * fields are all strings (with `schema`): such a value counts by its shape
 * alone, the number of items and the fields each holds (see `stringShape`),
 * so `params: [{ slot, resource }]` too is one entry for every name in it.
 */
export function verdictVariablesKey(
  operation: OperationDefinitionNode | null | undefined,
  variables: Record<string, unknown>,
  schema?: GraphQLSchema,
): string {
  const declared: Record<string, unknown> = {};
  const strings: string[] = [];
  const shapes: string[] = [];
  for (const definition of operation?.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (!(name in variables)) continue;
    const type = definition.type.kind === Kind.NON_NULL_TYPE ? definition.type.type : definition.type;
    const value = variables[name];
    if (type.kind === Kind.NAMED_TYPE && STRING_LIKE.has(type.name.value) && typeof value === 'string') {
      strings.push(name);
      continue;
    }
    const shape = schema ? stringShape(schema, type, value) : null;
    if (shape === null) declared[name] = value;
    else shapes.push(`${name}=${shape}`);
  }
  return `${JSON.stringify(declared)}\u0000${strings.join(',')}\u0000${shapes.join(',')}`;
}

/** The scalar types that take any string, whose variables' content a verdict never reads. */
const STRING_LIKE = new Set(['String', 'ID']);

/**
 * The shape of a value whose strings no verdict reads, or null when it has
 * anything else (it is then keyed by its JSON, content and all): for a list
 * of `String` or `ID`, every item a string, `[n]`; for an input object
 * whose fields are all `String` or `ID` (not lists), holding only strings,
 * its field names in order, `{a|b}`; for a list of those, `[a|b;a|b]`. The
 * number of items and the fields present are kept: list lengths and
 * required fields are what a verdict, or the coercion before it, looks at.
 */
function stringShape(schema: GraphQLSchema, type: TypeNode, value: unknown): string | null {
  if (type.kind === Kind.LIST_TYPE) {
    const item = type.type.kind === Kind.NON_NULL_TYPE ? type.type.type : type.type;
    if (!Array.isArray(value) || item.kind !== Kind.NAMED_TYPE) return null;
    if (STRING_LIKE.has(item.name.value)) return value.every((v) => typeof v === 'string') ? `[${value.length}]` : null;
    const fields = stringFieldsOf(schema, item.name.value);
    if (!fields) return null;
    const items: string[] = [];
    for (const v of value as unknown[]) {
      const fieldsHeld = fieldsShape(v, fields);
      if (fieldsHeld === null) return null;
      items.push(fieldsHeld);
    }
    return `[${items.join(';')}]`;
  }
  if (type.kind !== Kind.NAMED_TYPE) return null;
  const fields = stringFieldsOf(schema, type.name.value);
  const held = fields ? fieldsShape(value, fields) : null;
  return held === null ? null : `{${held}}`;
}

/** The field names an input object holds, `a|b`, when it holds only strings under names of `fields`; else null. */
function fieldsShape(value: unknown, fields: ReadonlySet<string>): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const names: string[] = [];
  for (const [name, field] of Object.entries(value)) {
    if (!fields.has(name) || typeof field !== 'string') return null;
    names.push(name);
  }
  return names.join('|');
}

/** Per schema: each input type's field names when every field is a `String` or an `ID` (not a list), else null. */
const stringFieldsBySchema = new WeakMap<GraphQLSchema, Map<string, ReadonlySet<string> | null>>();

function stringFieldsOf(schema: GraphQLSchema, typeName: string): ReadonlySet<string> | null {
  let known = stringFieldsBySchema.get(schema);
  if (!known) stringFieldsBySchema.set(schema, (known = new Map<string, ReadonlySet<string> | null>()));
  let fields = known.get(typeName);
  if (fields === undefined) {
    const type = schema.getType(typeName);
    const all = isInputObjectType(type) ? Object.values(type.getFields()) : [];
    const flat =
      all.length > 0 &&
      all.every((f) => {
        const inner = isNonNullType(f.type) ? f.type.ofType : f.type;
        return isScalarType(inner) && STRING_LIKE.has(inner.name);
      });
    fields = flat ? new Set(all.map((f) => f.name)) : null;
    known.set(typeName, fields);
  }
  return fields;
}

/** One operation to admit, as the limits see it: parsed and validated, with its variables. */
export interface OperationToAdmit {
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode | null | undefined;
  readonly operationName: string | undefined;
  readonly variables: Record<string, unknown>;
  /** What identifies the query text: Apollo's query hash (sha256 of it, in hex). */
  readonly queryKey: string;
  readonly contextValue: RequestContext;
}

/**
 * The limits every operation passes before it runs, wherever it runs
 * (Apollo's pipeline, or a compiled query sent directly): out-of-bounds
 * arguments and a cost over the limit refuse it (see requestLimitError),
 * and a heavy one waits for the heavy lane and then shares the thread
 * (./fair-share.ts). The verdict is computed once per (query, operation,
 * variables) while it stays in a memo bounded by bytes.
 */
export class RequestLimits {
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly memo = new VerdictMemo(),
    private readonly heavyLane = new Lane(1, HEAVY_QUEUE_LIMIT),
    /** Traces each admission as a stage of its request, when tracing is on. */
    private readonly tracer: StageTracer | null = null,
  ) {}

  /**
   * Throws the GraphQLError that refuses the operation, or admits it: for a
   * heavy one, once it has its place in the lane, with a share of the thread
   * on its context. The function returned ends the admission (gives back the
   * lane's place, drops the share); call it once the answer is complete.
   */
  admit(request: OperationToAdmit): Promise<() => void> {
    return this.tracer ? this.tracer.stage('admission', () => this.admitNow(request)) : this.admitNow(request);
  }

  private async admitNow(request: OperationToAdmit): Promise<() => void> {
    const { document, operation, operationName, variables, contextValue } = request;
    const key = `${request.queryKey}\u0000${operationName ?? ''}\u0000${verdictVariablesKey(operation, variables, this.schema)}`;
    const verdict = this.memo.of(key, () => ({
      problems: argumentProblems(this.schema, document, operationName, variables),
      cost: estimateCost(this.schema, document, operationName, variables),
    }));
    const error = verdictError(verdict);
    if (error) throw error;
    if (verdict.cost === null || verdict.cost < HEAVY_COST) return NOTHING_TO_END;
    // A heavy request waits for its turn, then shares the thread as it runs (./fair-share.ts).
    const leave = await enterOrRefuse(this.heavyLane);
    contextValue.fairShare = newFairShare();
    return () => {
      contextValue.fairShare = undefined;
      leave();
    };
  }
}

const NOTHING_TO_END = (): void => {};

/**
 * The limits (above) in Apollo's pipeline: after an operation is parsed and
 * validated, before it runs; the admission ends as its response is sent.
 */
export function requestLimitsPlugin(limits: RequestLimits): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      let end: (() => void) | null = null;
      return {
        async didResolveOperation({ request, document, operation, queryHash, contextValue }) {
          end = await limits.admit({
            document,
            operation,
            operationName: request.operationName ?? undefined,
            variables: request.variables ?? {},
            queryKey: queryHash,
            contextValue,
          });
        },
        async willSendResponse() {
          end?.();
        },
      };
    },
  };
}
