import {
  isEnumType,
  isInputObjectType,
  isInputType,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { TestServer } from './server';

/** The names and ids a registry holds, to fill arguments and variables with things that exist. */
export interface DataPool {
  readonly tools: readonly string[];
  readonly projects: readonly string[];
  readonly resources: readonly string[];
  readonly types: readonly string[];
  /** Node ids of every kind (tools, projects, resources, types, change-log entries). */
  readonly ids: readonly string[];
}

/** A seeded random source (mulberry32): the same seed gives the same values on every run. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(below: number): number {
    return Math.floor(this.next() * below);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }
}

/** What the registry the server holds has: every name and id, read through the API. */
export async function readPool(server: TestServer): Promise<DataPool> {
  const d = await server.data(`{
    tools(first: 100) { edges { node { id name } } }
    projects(first: 100) { edges { node { id name } } }
    resources(first: 100) { edges { node { id name } } }
    resourceTypes(first: 100) { edges { node { id name } } }
    changes(last: 20) { edges { node { id } } }
  }`);
  const nodes = (connection: { edges: { node: { id: string; name?: string } }[] }) =>
    connection.edges.map((e) => e.node);
  const named = (connection: { edges: { node: { id: string; name?: string } }[] }) =>
    nodes(connection).map((n) => n.name!);
  return {
    tools: named(d.tools),
    projects: named(d.projects),
    resources: named(d.resources),
    types: named(d.resourceTypes),
    ids: [d.tools, d.projects, d.resources, d.resourceTypes, d.changes].flatMap((c) => nodes(c).map((n) => n.id)),
  };
}

/** Arguments that take a cursor: left out, since a made-up cursor only ever gives one error. */
export const CURSOR_ARGUMENT = /^(after|before|.*(After|Before))$/;

/** A string for an argument, variable or input field, chosen by its name from what the registry holds. */
function stringFor(name: string, pool: DataPool, random: Random): string {
  const lower = name.toLowerCase();
  const all = [...pool.tools, ...pool.projects, ...pool.resources, ...pool.types];
  if (lower.includes('tool')) return random.pick(pool.tools);
  if (lower.includes('project')) return random.pick(pool.projects);
  if (lower.includes('type')) return random.pick(pool.types);
  if (lower.includes('resource')) return random.pick(pool.resources);
  if (lower === 'id' || lower.endsWith('id') || lower === 'ids') return random.pick(pool.ids);
  if (lower.includes('ref')) return random.pick(random.chance(0.3) ? pool.ids : all);
  if (lower.includes('namespace')) return random.pick(['demo', 'acme', 'local', '*']);
  if (lower.includes('slot')) return random.pick(['repo', 'config', 'output', 'db', 'src']);
  return random.pick(all);
}

/** Whether a nullable argument or field of this name is worth a value: one the registry's names fill. */
export function namesSomething(name: string): boolean {
  return /tool|project|resource|type|ref|^ids?$|Id$/i.test(name);
}

/**
 * A value of an input type for something of this name: required input fields filled, and each optional one
 * with probability `optional` (0: none), cursors never. Enums, booleans and numbers are picked at random;
 * first/last stay small, so that queries stay cheap.
 */
export function valueFor(
  type: GraphQLInputType,
  name: string,
  pool: DataPool,
  random: Random,
  optional: number,
): unknown {
  if (isNonNullType(type)) return valueFor(type.ofType, name, pool, random, optional);
  if (isListType(type)) return [valueFor(type.ofType, name, pool, random, optional)];
  if (isEnumType(type)) return random.pick(type.getValues()).value;
  if (isInputObjectType(type)) {
    const value: Record<string, unknown> = {};
    for (const field of Object.values(type.getFields())) {
      const required = isNonNullType(field.type) && field.defaultValue === undefined;
      if (required || (!CURSOR_ARGUMENT.test(field.name) && random.chance(optional)))
        value[field.name] = valueFor(field.type, field.name, pool, random, optional / 2);
    }
    return value;
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'Int':
        return /^(first|last|.*(First|Last))$/.test(name) ? 1 + random.int(3) : random.int(3);
      case 'Float':
        return random.int(3);
      case 'Boolean':
        return /dryRun/i.test(name) ? true : random.chance(0.5);
      case 'DateTime':
        return random.pick(['2000-01-01T00:00:00.000Z', '2999-01-01T00:00:00.000Z']);
      default:
        return stringFor(name, pool, random);
    }
  }
  throw new Error(`no value for ${String(type)}`);
}

/**
 * Variables for an operation: every required one, and the nullable ones whose name the registry's names fill;
 * a `dryRun` variable is always true. The test's own variables are not known here (see ./operation-corpus.ts).
 */
export function variablesFor(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  pool: DataPool,
  random: Random,
): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type);
    if (!type || !isInputType(type)) continue; // an unknown type: the document fails validation on both servers alike
    const required = definition.type.kind === Kind.NON_NULL_TYPE && !definition.defaultValue;
    if (/dryRun/i.test(name)) variables[name] = true;
    else if (required || namesSomething(name)) variables[name] = valueFor(type, name, pool, random, 0.3);
  }
  return variables;
}
