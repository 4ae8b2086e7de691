/**
 * A verdict: what the limits found of one (document, operation, variables),
 * the out-of-bounds arguments and the estimated cost; the error it gives, and
 * the memo that keeps recent verdicts, keyed by only what can change them.
 */
import {
  isInputObjectType,
  isInputType,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  typeFromAST,
  type DocumentNode,
  type GraphQLError,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import type { FieldProblem } from '../../core/errors';
import { argumentError, argumentProblems } from './argument-checks';
import { costError, estimateCost } from './cost';

/** What the limits found of one (document, operation, variables): out-of-bounds arguments, and the estimated cost. */
export interface Verdict {
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

/** The error a verdict refuses its operation with, or null. */
export function verdictError(verdict: Verdict): GraphQLError | null {
  return argumentError(verdict.problems) ?? (verdict.cost === null ? null : costError(verdict.cost));
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
 * The same holds for strings anywhere in a list or an input object (with
 * `schema`): such a value counts by its shape (see `inputShape`), every
 * string in a `String` or `ID` place as "a string" and every other leaf by
 * its value, so `params: [{ slot, resource }]` is one entry for every name in
 * it, and `registerTool(input: $input)` one for every tool name and slot name
 * with the same slots' types, access, binding and flags.
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
    const inputType = schema ? typeFromAST(schema, definition.type) : undefined;
    const shape = inputType && isInputType(inputType) ? inputShape(inputType, value) : null;
    if (shape === null) declared[name] = value;
    else shapes.push(`${name}=${shape}`);
  }
  return `${JSON.stringify(declared)}\u0000${strings.join(',')}\u0000${shapes.join(',')}`;
}

/** The scalar types that take any string, whose variables' content a verdict never reads. */
const STRING_LIKE = new Set(['String', 'ID']);

/**
 * The shape of a value of an input type, or null when it does not fit the
 * type's structure (it is then keyed by its JSON, content and all, and its
 * coercion fails anyway): a string in a `String` or `ID` place is `$`; any
 * other leaf (an enum, a number, a boolean, another scalar, null) is its
 * JSON; a list is its items' shapes, `[a;b]`; an input object is its fields'
 * names and shapes in the order given, `{name:a|other:b}`. So the number of
 * items, the fields present and every value but a string's are kept: list
 * lengths, page sizes and required fields are what a verdict, or the
 * coercion before it, looks at. (Names are GraphQL names and leaves are
 * whole JSON tokens, so no two different values' shapes can read the same.)
 */
function inputShape(type: GraphQLInputType, value: unknown): string | null {
  if (isNonNullType(type)) return value == null ? null : inputShape(type.ofType, value);
  if (value === null) return 'null';
  if (isListType(type)) {
    if (!Array.isArray(value)) return null;
    const items: string[] = [];
    for (const item of value as unknown[]) {
      const shape = inputShape(type.ofType, item);
      if (shape === null) return null;
      items.push(shape);
    }
    return `[${items.join(';')}]`;
  }
  if (isInputObjectType(type)) {
    if (typeof value !== 'object' || Array.isArray(value)) return null;
    const fields = type.getFields();
    const held: string[] = [];
    for (const [name, field] of Object.entries(value as Record<string, unknown>)) {
      const definition = Object.hasOwn(fields, name) ? fields[name] : undefined;
      const shape = definition ? inputShape(definition.type, field) : null;
      if (shape === null) return null;
      held.push(`${name}:${shape}`);
    }
    return `{${held.join('|')}}`;
  }
  if (isScalarType(type) && STRING_LIKE.has(type.name) && typeof value === 'string') return '$';
  return value === undefined ? null : (JSON.stringify(value) ?? null);
}
