import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { checkDescription, checkResourceName, checkSlotName, checkTypeName } from '../core/grammar';
import {
  GRAMMAR_KEYWORD,
  REGISTRY_KEYS,
  REGISTRY_SCHEMA,
  TOOL_KEYS,
  TOOL_LIST_SCHEMA,
  TOOL_SCHEMA,
  type GrammarRule,
} from './schema';
import { formatPath, type DataPath, type FileProblem, type YamlSource } from './source';

/** What a file holds, told by its shape: one tool, a list of tools, or a registry. */
export type FileKind = 'tool' | 'tools' | 'registry';

const ajv = new Ajv({ allErrors: true, verbose: true, strict: true });
ajv.addVocabulary([GRAMMAR_KEYWORD]);
const validators: Record<FileKind, ValidateFunction> = {
  tool: ajv.compile(TOOL_SCHEMA),
  tools: ajv.compile(TOOL_LIST_SCHEMA),
  registry: ajv.compile(REGISTRY_SCHEMA),
};

const GRAMMAR_CHECKS: Record<GrammarRule, (value: string) => string | null> = {
  typeName: checkTypeName,
  resourceName: checkResourceName,
  slotName: checkSlotName,
  description: checkDescription,
};

/**
 * Tells what a file holds. A list is a list of tools. A map with `name` or
 * `resource_slots` is a tool; a map with only registry keys (resource_types,
 * resources, projects, tools) is a registry. A map of neither is told by
 * which keys its misspelt keys are closest to.
 */
export function classify(source: YamlSource): { kind: FileKind } | { problem: FileProblem } {
  const { data } = source;
  if (Array.isArray(data)) return { kind: 'tools' };
  const expected = `expected a tool (${TOOL_KEYS.join(', ')}), a list of tools, or a registry (${REGISTRY_KEYS.join(', ')})`;
  if (data === null || data === undefined)
    return { problem: { file: source.file, position: null, path: '', message: `the file is empty; ${expected}` } };
  if (!isPlainObject(data))
    return {
      problem: {
        file: source.file,
        position: source.locate([]),
        path: '',
        message: `${expected}, not ${describeValue(data)}`,
      },
    };

  const keys = Object.keys(data);
  if (keys.some((k) => k === 'name' || k === 'resource_slots')) return { kind: 'tool' };
  if (keys.some((k) => (REGISTRY_KEYS as readonly string[]).includes(k))) return { kind: 'registry' };
  const toolLike = keys.filter((k) => suggest(k, TOOL_KEYS) !== null).length;
  const registryLike = keys.filter((k) => suggest(k, REGISTRY_KEYS) !== null).length;
  if (toolLike > registryLike) return { kind: 'tool' };
  if (registryLike > toolLike) return { kind: 'registry' };
  return {
    problem: {
      file: source.file,
      position: source.locate([]),
      path: '',
      message: `${expected}; found keys ${keys.map((k) => `'${k}'`).join(', ') || 'none'}`,
    },
  };
}

/** Checks a file's data against the schema of its kind; every problem, sorted by place, or none. */
export function validateAgainstSchema(source: YamlSource, kind: FileKind): FileProblem[] {
  const validate = validators[kind];
  if (validate(source.data)) return [];
  return describeErrors(source, validate.errors ?? []);
}

/** Turns ajv's errors into problems at places in the file, with plain messages. */
function describeErrors(source: YamlSource, errors: readonly ErrorObject[]): FileProblem[] {
  // A value of the wrong type breaks every other rule on it too: keep only the type error there.
  const wrongType = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const seen = new Set<string>();
  const problems: FileProblem[] = [];
  for (const error of errors) {
    if (error.keyword !== 'type' && wrongType.has(error.instancePath)) continue;
    const problem = describeError(source, error);
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems.sort(
    (a, b) =>
      (a.position?.line ?? 0) - (b.position?.line ?? 0) || (a.position?.column ?? 0) - (b.position?.column ?? 0),
  );
}

function describeError(source: YamlSource, error: ErrorObject): FileProblem {
  const path = parsePointer(error.instancePath);
  const at = (p: DataPath, key = false) => ({
    file: source.file,
    position: source.locate(p, { key }),
    path: formatPath(p),
  });
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(error.params.additionalProperty);
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const hint = suggest(key, known);
      return {
        ...at([...path, key], true),
        path: formatPath(path),
        message: `unknown key '${key}'${hint ? ` (did you mean '${hint}'?)` : ` (expected ${known.join(', ')})`}`,
      };
    }
    case 'required':
      return { ...at(path), message: `missing key '${String(error.params.missingProperty)}'` };
    case 'type':
      return {
        ...at(path),
        message: `must be ${describeType(String(error.params.type))}, not ${describeValue(error.data)}`,
      };
    case 'enum': {
      const allowed = (error.params.allowedValues as unknown[]).map(String);
      const hint = typeof error.data === 'string' ? suggest(error.data, allowed) : null;
      return {
        ...at(path),
        message: `'${String(error.data)}' is not one of ${allowed.join(', ')}${hint ? ` (did you mean '${hint}'?)` : ''}`,
      };
    }
    case 'maxItems':
      return { ...at(path), message: `must have at most ${String(error.params.limit)} entries` };
    default: {
      // pattern, minLength, maxLength, not: say it in the grammar's words when the schema names its rule.
      const rule = error.parentSchema?.[GRAMMAR_KEYWORD] as GrammarRule | undefined;
      const grammarMessage = rule && typeof error.data === 'string' ? GRAMMAR_CHECKS[rule](error.data) : null;
      return { ...at(path), message: grammarMessage ?? error.message ?? 'is not valid' };
    }
  }
}

/** A JSON pointer (`/resource_slots/0/access`) as a data path. */
function parsePointer(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9][0-9]*)$/.test(s) ? Number(s) : s));
}

/**
 * The candidate a misspelling most likely meant: the same word ignoring case,
 * "_" and "-" (resourceType → resource_type), else the nearest by edit
 * distance when it is at most 2 and less than half the word. Null when none fits.
 */
export function suggest(word: string, candidates: readonly string[]): string | null {
  const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const same = candidates.find((c) => squash(c) === squash(word));
  if (same !== undefined) return same;
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== null && bestDistance <= 2 && bestDistance * 2 < word.length ? best : null;
}

/** Levenshtein distance, where swapping two neighbouring letters counts as one edit. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

function describeType(type: string): string {
  return type
    .split(',')
    .map(
      (t) =>
        ({
          object: 'a map',
          array: 'a list',
          string: 'a string',
          boolean: 'true or false',
          number: 'a number',
          integer: 'an integer',
          null: 'empty',
        })[t] ?? t,
    )
    .join(' or ');
}

/** A short description of a value's kind, for "must be X, not Y". */
function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Uint8Array) return 'binary data';
  if (typeof value === 'object') return 'a map';
  if (typeof value === 'string') return `the string '${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
  if (typeof value === 'boolean') return `the boolean ${value}`;
  return `the number ${Number(value)}`;
}
