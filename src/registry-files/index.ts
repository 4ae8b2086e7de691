/**
 * Tool files and registry files in the seed's YAML format: parse (keeping
 * positions), check against the JSON Schema, and map to plain objects in the
 * shape of the GraphQL inputs; compare entries with what a registry holds;
 * and write a registry back as files. Shared by the register and export CLIs
 * (which talk GraphQL) and the demo loader (which calls the services). Free
 * of GraphQL, HTTP and persistence on purpose.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { duplicateProblems, registryEntries, toolEntries, type Entry } from './map';
import type { RegistryDocument, ToolDocument } from './schema';
import { formatPath, parseYaml, type FileProblem, type Position, type YamlSource } from './source';
import { classify, validateAgainstSchema, type FileKind } from './validate';

export {
  describeEntry,
  mapSlot,
  mapTool,
  type Entry,
  type EntryKind,
  type LinkInput,
  type ProjectInput,
  type ResourceInput,
  type ResourceTypeInput,
  type SlotInput,
  type ToolInput,
} from './map';
export {
  compareEntry,
  conflictMessage,
  linkOf,
  orderLinkChanges,
  type Comparison,
  type UpdateCommand,
} from './compare';
/** A slot as the server stores it when the file leaves fields out (the core's defaults). */
export { withDefaults } from '../core/tool-validation';
export { REGISTRY_SCHEMA, TOOL_LIST_SCHEMA, TOOL_SCHEMA, type RegistryDocument, type ToolDocument } from './schema';
export { formatPath, formatProblem, type DataPath, type FileProblem, type Position } from './source';
export type {
  LinkState,
  ProjectState,
  RegistryState,
  ResourceState,
  SlotState,
  StateLookup,
  ToolState,
  TypeState,
} from './state';
export { suggest, type FileKind } from './validate';
export {
  projectDocument,
  registryDocument,
  resourceDocument,
  slotDocument,
  stringifyDocument,
  toolDocument,
  toolFileName,
  toolNameOfFileName,
  typeDocument,
} from './write';

/** A valid file: what it holds and the entries to register, in the order to register them. */
export interface RegistryFile {
  readonly file: string;
  readonly kind: FileKind;
  readonly entries: readonly Entry[];
  readonly source: YamlSource;
}

/** A valid file, or every problem found in it. */
export type FileOutcome =
  | { readonly ok: true; readonly value: RegistryFile }
  | { readonly ok: false; readonly file: string; readonly problems: readonly FileProblem[] };

/**
 * Parses and checks YAML text: syntax, then the schema of its kind, then what
 * the schema cannot say (a name defined twice in the file, parent_types that
 * form a cycle). `file` names the file in messages.
 */
export function parseRegistryFile(text: string, file: string): FileOutcome {
  const parsed = parseYaml(text, file);
  if (!parsed.ok) return { ok: false, file, problems: parsed.problems };
  const { source } = parsed;
  const kinded = classify(source);
  if ('problem' in kinded) return { ok: false, file, problems: [kinded.problem] };
  const schemaProblems = validateAgainstSchema(source, kinded.kind);
  if (schemaProblems.length > 0) return { ok: false, file, problems: schemaProblems };

  const problems: FileProblem[] = [];
  let entries: Entry[];
  if (kinded.kind === 'registry') {
    const data = source.data as RegistryDocument;
    const mapped = registryEntries(data);
    entries = mapped.entries;
    const onCycle = mapped.cycle.map((path) => (data.resource_types ?? [])[path[1] as number].name);
    for (const path of mapped.cycle) {
      problems.push({
        file,
        position: source.locate([...path, 'parent_types']),
        path: formatPath([...path, 'parent_types']),
        message: `parent_types form a cycle (or depend on one) among ${onCycle.map((n) => `'${n}'`).join(', ')}`,
      });
    }
  } else {
    entries = toolEntries(source.data as ToolDocument | ToolDocument[]);
  }
  problems.push(...duplicateProblems(source, entries));
  if (problems.length > 0) return { ok: false, file, problems };
  return { ok: true, value: { file, kind: kinded.kind, entries, source } };
}

/** Reads and checks one file. `display` is how messages name it (e.g. a path relative to the working directory). */
export function readRegistryFile(path: string, display: string = path): FileOutcome {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return {
      ok: false,
      file: display,
      problems: [
        {
          file: display,
          position: null,
          path: '',
          message: `cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
        },
      ],
    };
  }
  return parseRegistryFile(text, display);
}

/**
 * The files that paths name: a file as given, a directory as every *.yaml and
 * *.yml file under it at any depth (sorted, hidden entries left out). A path
 * that does not exist is a problem.
 */
export function findYamlFiles(paths: readonly string[]): { files: string[]; problems: FileProblem[] } {
  const files: string[] = [];
  const problems: FileProblem[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (['.yaml', '.yml'].includes(extname(name).toLowerCase())) files.push(path);
    }
  };
  for (const path of paths) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch (error) {
      problems.push({
        file: path,
        position: null,
        path: '',
        message: `cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      });
      continue;
    }
    if (isDirectory) walk(path);
    else files.push(path);
  }
  return { files: [...new Set(files)], problems };
}

/** A problem the server reported about one field, as in its extensions.problems. */
export interface ServerProblem {
  readonly slot?: string | null;
  readonly field?: string | null;
  readonly message?: string;
}

/**
 * Where in the file a problem the server reported about an entry is: a
 * TOOL_VALIDATION_FAILED problem names a slot and a field (`staticResource`),
 * a BAD_USER_INPUT problem a field path (`input.resourceSlots[2].name`). The
 * GraphQL names are turned back into the file's keys. Falls back to the entry.
 */
export function locateServerProblem(
  file: RegistryFile,
  entry: Entry,
  problem: ServerProblem,
): { path: string; position: Position | null } {
  const path: (string | number)[] = [...entry.path];
  if (problem.slot != null && entry.kind === 'tool') {
    const indexes = entry.input.resourceSlots.flatMap((s, i) => (s.name === problem.slot ? [i] : []));
    // Slots share a name only when the tool repeats one: then the server's message says which ("slot 2 ('config') …").
    const numbered = /^slot (\d+) \(/.exec(problem.message ?? '');
    const index =
      indexes.length > 1 && numbered && indexes.includes(Number(numbered[1]) - 1)
        ? Number(numbered[1]) - 1
        : indexes[0];
    if (index !== undefined) {
      path.push('resource_slots', index);
      if (problem.field) path.push(snakeCase(problem.field));
    }
  } else if (problem.field) {
    const segments = problem.field.replace(/^input\.?/, '').match(/[^.[\]]+/g) ?? [];
    for (const segment of segments) path.push(/^\d+$/.test(segment) ? Number(segment) : snakeCase(segment));
    if (entry.kind === 'link' && path[path.length - 1] === 'project') path.pop();
  }
  return { path: formatPath(path), position: file.source.locate(path) };
}

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
