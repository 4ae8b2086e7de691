import {
  astFromValue,
  getNamedType,
  isAbstractType,
  isLeafType,
  isNonNullType,
  isObjectType,
  Kind,
  print,
  type DocumentNode,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { CURSOR_ARGUMENT, Random, valueFor, type DataPool } from './schema-values';

/** How deep selections go below the root field: enough to reach a connection's nodes' fields. */
const MAX_DEPTH = 4;

/** A generated query, and the values of its variables: none, or two sets (the second drawn again). */
export interface GeneratedQuery {
  readonly query: string;
  readonly variables: readonly Record<string, unknown>[];
}

/** What generating one query needs: the schema, the data, the seeded source and, when it takes any, its variables. */
interface Generation {
  readonly schema: GraphQLSchema;
  readonly pool: DataPool;
  readonly random: Random;
  /** Each variable's declaration and how to draw a value for it; null: arguments are written in. */
  readonly variables: { declaration: string; name: string; draw: () => unknown }[] | null;
}

/**
 * Queries over the whole schema, generated from a seed: query i starts at root field i of Query (in turn, so
 * every root field is asked about), sometimes with a second root field; each object selects a few of its fields
 * at random, down to MAX_DEPTH, with required arguments filled from the registry's names and optional ones
 * (filters, first/last, params…) at random; abstract types by inline fragments on their possible types, and
 * now and then a field twice under two aliases with different arguments. Cursors are never made up.
 *
 * A third of the queries pass their arguments as variables, with two sets of values: the same text with other
 * values must not be answered from what the first values gave (a compiled query's, a page's kept parts).
 */
export function generateQueries(schema: GraphQLSchema, pool: DataPool, count: number, seed: number): GeneratedQuery[] {
  const random = new Random(seed);
  const roots = Object.values(schema.getQueryType()!.getFields());
  const queries: GeneratedQuery[] = [];
  for (let i = 0; i < count; i++) {
    const generation: Generation = { schema, pool, random, variables: random.chance(0.33) ? [] : null };
    const fields = [roots[i % roots.length]];
    if (random.chance(0.25)) fields.push(random.pick(roots));
    const body = fields.map((field, n) => selectField(generation, field, 0, n > 0 ? `second` : null));
    const declared = generation.variables ?? [];
    const header = declared.length > 0 ? `(${declared.map((v) => v.declaration).join(', ')})` : '';
    const draw = () => Object.fromEntries(declared.map((v) => [v.name, v.draw()]));
    queries.push({
      query: `query Generated${i}${header} {\n${body.join('\n')}\n}`,
      variables: declared.length > 0 ? [draw(), draw()] : [{}],
    });
  }
  return queries;
}

function selectField(
  generation: Generation,
  field: GraphQLField<unknown, unknown>,
  depth: number,
  alias: string | null,
): string {
  const pad = '  '.repeat(depth + 1);
  const args = argumentsFor(generation, field.args);
  const head = `${pad}${alias ? `${alias}: ` : ''}${field.name}${args}`;
  const named = getNamedType(field.type);
  if (isLeafType(named)) return head;
  return `${head} {\n${selectionOf(generation, named, depth + 1).join('\n')}\n${pad}}`;
}

/** A few fields of a composite type; __typename alone when nothing else fits (a leaf at the last level). */
function selectionOf(generation: Generation, type: GraphQLNamedType, depth: number): string[] {
  const { schema, random } = generation;
  const pad = '  '.repeat(depth + 1);
  if (isAbstractType(type)) {
    const possible = schema.getPossibleTypes(type);
    const chosen = [random.pick(possible), random.pick(possible)].filter((t, i, all) => all.indexOf(t) === i);
    return [
      `${pad}__typename`,
      ...chosen.map((t) => `${pad}... on ${t.name} {\n${selectionOf(generation, t, depth + 1).join('\n')}\n${pad}}`),
    ];
  }
  if (!isObjectType(type)) return [`${pad}__typename`];
  const lines: string[] = [];
  for (const field of chooseFields(type, random, depth)) {
    lines.push(selectField(generation, field, depth, null));
    if (!isLeafType(getNamedType(field.type)) && field.args.length > 0 && random.chance(0.1))
      lines.push(selectField(generation, field, depth, `again_${field.name}`));
  }
  if (lines.length === 0 || random.chance(0.15)) lines.push(`${pad}__typename`);
  return lines;
}

/** The field holding a connection's items, by the types it is on. */
const ITEMS: Record<string, RegExp> = { edges: /Connection$/, node: /Edge$/ };

/** One to four fields, at random (a connection's edges and an edge's node mostly among them); at the last level, leaves only. */
function chooseFields(type: GraphQLObjectType, random: Random, depth: number): GraphQLField<unknown, unknown>[] {
  const candidates = Object.values(type.getFields()).filter(
    (field) => depth < MAX_DEPTH || isLeafType(getNamedType(field.type)),
  );
  const wanted = 1 + random.int(4);
  const chosen: GraphQLField<unknown, unknown>[] = [];
  // A connection's items, mostly: the shape the fast engine answers by its own means (page assembly).
  const items = candidates.find((field) => ITEMS[field.name]?.test(type.name));
  if (items && random.chance(0.75)) chosen.push(items);
  while (chosen.length < Math.min(wanted, candidates.length)) {
    const field = random.pick(candidates);
    if (!chosen.includes(field)) chosen.push(field);
  }
  // In schema order, as a person would write them (the order of the answer's keys follows it).
  return chosen.sort((a, b) => candidates.indexOf(a) - candidates.indexOf(b));
}

/**
 * `(a: 1, b: "x")`, or `(a: $v0, b: $v1)` when the query takes variables: required arguments always, optional
 * ones at random, never a cursor, never first and last.
 */
function argumentsFor(generation: Generation, args: readonly GraphQLArgument[]): string {
  const { pool, random, variables } = generation;
  const given: string[] = [];
  let paged = false;
  for (const arg of args) {
    const required = isNonNullType(arg.type) && arg.defaultValue === undefined;
    if (!required && (CURSOR_ARGUMENT.test(arg.name) || !random.chance(0.35))) continue;
    if (/^(first|last)$/.test(arg.name)) {
      if (paged) continue;
      paged = true;
    }
    const draw = () => valueFor(arg.type, arg.name, pool, random, 0.3);
    if (variables) {
      const name = `v${variables.length}`;
      variables.push({ declaration: `$${name}: ${String(arg.type)}`, name, draw });
      given.push(`${arg.name}: $${name}`);
      continue;
    }
    const value = astFromValue(draw(), arg.type);
    if (value) given.push(`${arg.name}: ${print(value)}`);
  }
  return given.length > 0 ? `(${given.join(', ')})` : '';
}

/**
 * The same mutation as a dry run: every root field's dryRun argument made true (the variable it names set to
 * true, or the literal written in). Null when a root field has no dryRun argument (createApiToken, …) or the
 * root holds fragments: such a write would change the data the two servers share, so it is not sent.
 */
export function asDryRun(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): { document: string; variables: Record<string, unknown> } | null {
  const mutation = schema.getMutationType()!;
  const variables: Record<string, unknown> = {};
  const selections = [];
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) return null;
    const field = mutation.getFields()[selection.name.value];
    if (!field) return { document: print(document), variables }; // invalid: both refuse it alike
    if (!field.args.some((arg) => arg.name === 'dryRun')) return null;
    const given = selection.arguments?.find((arg) => arg.name.value === 'dryRun');
    if (given?.value.kind === Kind.VARIABLE) {
      variables[given.value.name.value] = true;
      selections.push(selection);
      continue;
    }
    const others = (selection.arguments ?? []).filter((arg) => arg.name.value !== 'dryRun');
    const dryRun = {
      kind: Kind.ARGUMENT,
      name: { kind: Kind.NAME, value: 'dryRun' },
      value: { kind: Kind.BOOLEAN, value: true },
    } as const;
    selections.push({ ...selection, arguments: [...others, dryRun] });
  }
  const rewritten = { ...operation, selectionSet: { ...operation.selectionSet, selections } };
  const definitions = document.definitions.map((d) => (d === operation ? rewritten : d));
  return { document: print({ ...document, definitions }), variables };
}
