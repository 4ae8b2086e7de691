/**
 * A verdict: what the limits found of one (document, operation, variables),
 * the out-of-bounds arguments and the estimated cost; the error it gives, and
 * the memo that keeps recent verdicts, keyed by only what can change them.
 */
import {
  isInputObjectType,
  isNonNullType,
  isScalarType,
  Kind,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type TypeNode,
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
