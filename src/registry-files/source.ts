import jsYaml from 'js-yaml';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseAllDocuments, type Document, type Node } from 'yaml';

/** A place in a file: 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** A path into the parsed data: keys of maps and indexes of lists, e.g. ['resource_slots', 0, 'access']. */
export type DataPath = readonly (string | number)[];

/** One problem with a file, at a place in it when that place is known. */
export interface FileProblem {
  readonly file: string;
  readonly position: Position | null;
  /** Where in the data, written as `resource_slots[0].access`; empty for the file as a whole. */
  readonly path: string;
  readonly message: string;
}

/** A parsed YAML file: its plain data, and a way back from a data path to a place in the text. */
export interface YamlSource {
  readonly file: string;
  readonly data: unknown;
  /**
   * The place of the value at `path`, or of the key itself when `key` is true
   * (for an unknown key). Walks as far down the path as the file goes, so a
   * missing key points at the map that lacks it.
   */
  locate(path: DataPath, options?: { key?: boolean }): Position | null;
}

/** Either the parsed file, or the YAML syntax problems that kept it from parsing. */
export type ParseOutcome =
  { readonly ok: true; readonly source: YamlSource } | { readonly ok: false; readonly problems: FileProblem[] };

/**
 * Parses YAML text (YAML 1.2, core schema). A syntax error, a repeated key or
 * a second document is a problem with its line and column; `locate` finds the
 * place of any value. `file` is only used in messages.
 *
 * Two parsers: `yaml`, which keeps every node's position, and js-yaml, ten
 * times faster (0.5 against 4.5 s for the 5 MB registry file of an export of
 * 50,000 resources), which keeps none. A file goes through js-yaml first when
 * nothing in it can read differently there (see `quickData`); the positions
 * are worked out with `yaml` only when a problem must be placed. Anything
 * else, or anything js-yaml refuses, goes through `yaml` alone, as before.
 */
export function parseYaml(text: string, file: string): ParseOutcome {
  const data = quickData(text);
  if (data === undefined) return parseWithPositions(text, file);
  let placed: YamlSource | null = null;
  return {
    ok: true,
    source: {
      file,
      data,
      locate(path, options) {
        if (!placed) {
          const parsed = parseWithPositions(text, file);
          if (!parsed.ok) return null;
          placed = parsed.source;
        }
        return placed.locate(path, options);
      },
    },
  };
}

/**
 * YAML 1.2's core schema for js-yaml, its plain scalars resolved by the
 * specification's regular expressions (https://yaml.org/spec/1.2.2/#1032-tag-resolution),
 * as `yaml` resolves them: js-yaml's own core schema reads more as numbers
 * (`0b101`, `+.5`). A tag never reaches js-yaml (see `quickData`).
 */
function coreScalar(tag: string, pattern: RegExp, construct: (text: string) => unknown): jsYaml.Type {
  return new jsYaml.Type(`tag:yaml.org,2002:${tag}`, {
    kind: 'scalar',
    resolve: (text: string | null) => pattern.test(text ?? ''),
    construct: (text: string | null) => construct(text ?? ''),
  });
}
const CORE_SCHEMA = jsYaml.FAILSAFE_SCHEMA.extend({
  implicit: [
    coreScalar('null', /^(?:~|null|Null|NULL)?$/, () => null),
    coreScalar('bool', /^(?:true|True|TRUE|false|False|FALSE)$/, (text) => text.toLowerCase() === 'true'),
    coreScalar('int', /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/, (text) =>
      text.startsWith('0o')
        ? parseInt(text.slice(2), 8)
        : text.startsWith('0x')
          ? parseInt(text.slice(2), 16)
          : Number(text),
    ),
    coreScalar(
      'float',
      /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/,
      (text) => {
        const lower = text.toLowerCase();
        if (lower.endsWith('.nan')) return NaN;
        if (lower.endsWith('.inf')) return lower.startsWith('-') ? -Infinity : Infinity;
        return parseFloat(text);
      },
    ),
  ],
});

/**
 * The data of a file js-yaml can read exactly as `yaml` would, or undefined.
 * Left to `yaml`: a file with a directive (`%YAML 1.1` changes the schema), a
 * tag, an anchor or an alias (`yaml` caps how far aliases expand; js-yaml does
 * not), judged by the characters `%`, `!`, `&` and `*` anywhere in it; and
 * anything js-yaml refuses (a syntax error, a repeated key, a second
 * document), whose problems `yaml` places. An empty file, or one that is a
 * single scalar, is left to `yaml` too.
 */
function quickData(text: string): unknown {
  if (/[%!&*]/.test(text)) return undefined;
  let data: unknown;
  try {
    data = jsYaml.load(text, { schema: CORE_SCHEMA });
  } catch {
    return undefined;
  }
  return typeof data === 'object' && data !== null ? data : undefined;
}

/** Parses with `yaml`, keeping every node's position. */
function parseWithPositions(text: string, file: string): ParseOutcome {
  const lines = new LineCounter();
  const documents = parseAllDocuments(text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
  const list = Array.isArray(documents) ? documents : [];
  const problems: FileProblem[] = [];
  for (const document of list) {
    for (const error of [...document.errors]) {
      const at = error.linePos?.[0];
      problems.push({
        file,
        position: at ? { line: at.line, column: at.col } : null,
        path: '',
        message: plainYamlMessage(error.message),
      });
    }
  }
  if (list.length > 1) {
    const second = lines.linePos(list[1].range[0]);
    problems.push({
      file,
      position: { line: second.line, column: second.col },
      path: '',
      message: 'a file holds one YAML document (a tool, a list of tools, or a registry), but a second one starts here',
    });
  }
  if (problems.length > 0) return { ok: false, problems };

  const document: Document | undefined = list[0];
  const root = document?.contents ?? null;
  let data: unknown;
  try {
    data = document ? document.toJS({ maxAliasCount: 100 }) : null;
  } catch (error) {
    // yaml refuses to expand aliases past the cap (a file made to blow up in memory).
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, problems: [{ file, position: null, path: '', message: plainYamlMessage(message) }] };
  }
  const position = (offset: number): Position => {
    const at = lines.linePos(offset);
    return { line: at.line, column: at.col };
  };
  return {
    ok: true,
    source: {
      file,
      data: data ?? null,
      locate(path, options = {}) {
        if (!root) return null;
        let node: Node = root;
        for (const [index, segment] of path.entries()) {
          const last = index === path.length - 1;
          if (isMap(node)) {
            const pair = node.items.find(
              (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment),
            );
            if (!pair) break;
            if (last && options.key && isScalar(pair.key)) return pair.key.range ? position(pair.key.range[0]) : null;
            if (!pair.value) return isScalar(pair.key) && pair.key.range ? position(pair.key.range[0]) : null;
            node = pair.value as Node;
          } else if (isSeq(node) && typeof segment === 'number' && node.items[segment]) {
            node = node.items[segment] as Node;
          } else {
            break;
          }
        }
        return node.range ? position(node.range[0]) : null;
      },
    },
  };
}

/** Writes a data path the way people read it: `resource_slots[0].access`. */
export function formatPath(path: DataPath): string {
  return path
    .map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`))
    .join('');
}

/** `file:line:column: path: message`, leaving out what is not known. */
export function formatProblem(problem: FileProblem): string {
  const where = problem.position ? `${problem.file}:${problem.position.line}:${problem.position.column}` : problem.file;
  return `${where}: ${problem.path ? `${problem.path}: ` : ''}${problem.message}`;
}

/** yaml's pretty messages end with " at line L, column C:" and a code frame; the position is reported apart. */
function plainYamlMessage(message: string): string {
  return message.replace(/ at line \d+, column \d+:[\s\S]*$/, '').trim();
}
