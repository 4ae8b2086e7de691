import type { Access, BindingMode } from '../core/model';
import type { RegistryDocument, SlotDocument, ToolDocument } from './schema';
import { formatPath, type DataPath, type FileProblem, type YamlSource } from './source';

/** A slot in the shape of the GraphQL ResourceSlotInput. Absent optional fields take the server's defaults. */
export interface SlotInput {
  name: string;
  resourceType: string;
  access?: Access;
  binding?: BindingMode;
  staticResource?: string;
  required?: boolean;
}

/** A tool in the shape of the GraphQL RegisterToolInput. */
export interface ToolInput {
  name: string;
  description?: string;
  resourceSlots: SlotInput[];
}

/** RegisterResourceTypeInput. */
export interface ResourceTypeInput {
  name: string;
  description?: string;
  parentTypes?: string[];
}

/** RegisterResourceInput. */
export interface ResourceInput {
  name: string;
  type: string;
  description?: string;
}

/** CreateProjectInput. */
export interface ProjectInput {
  name: string;
  description?: string;
}

/** LinkResourceInput. */
export interface LinkInput {
  project: string;
  resource: string;
  alias?: string;
}

/** One thing a file registers, with where it is in the file. */
export type Entry =
  | { readonly kind: 'resourceType'; readonly path: DataPath; readonly input: ResourceTypeInput }
  | { readonly kind: 'resource'; readonly path: DataPath; readonly input: ResourceInput }
  | { readonly kind: 'project'; readonly path: DataPath; readonly input: ProjectInput }
  | { readonly kind: 'link'; readonly path: DataPath; readonly input: LinkInput }
  | { readonly kind: 'tool'; readonly path: DataPath; readonly input: ToolInput };

export type EntryKind = Entry['kind'];

/** A slot from its file form: snake_case keys and lowercase values become the GraphQL input's. */
export function mapSlot(slot: SlotDocument): SlotInput {
  return {
    name: slot.name,
    resourceType: slot.resource_type,
    ...(slot.access !== undefined ? { access: slot.access.toUpperCase() as Access } : {}),
    ...(slot.binding !== undefined ? { binding: slot.binding.toUpperCase() as BindingMode } : {}),
    ...(slot.static_resource !== undefined ? { staticResource: slot.static_resource } : {}),
    ...(slot.required !== undefined ? { required: slot.required } : {}),
  };
}

/** A tool from its file form to RegisterToolInput. */
export function mapTool(tool: ToolDocument): ToolInput {
  return {
    name: tool.name,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    resourceSlots: tool.resource_slots.map(mapSlot),
  };
}

/** The tools of a tool file (one tool, or a list), in file order. */
export function toolEntries(data: ToolDocument | ToolDocument[]): Entry[] {
  if (Array.isArray(data)) return data.map((tool, i) => ({ kind: 'tool', path: [i], input: mapTool(tool) }));
  return [{ kind: 'tool', path: [], input: mapTool(data) }];
}

/**
 * The entries of a registry file in the order they can be registered: types
 * (each after the parents it names in the file), resources, projects, links,
 * then tools. Parents that the file does not define must already exist.
 */
export function registryEntries(data: RegistryDocument): { entries: Entry[]; cycle: DataPath[] } {
  const types = (data.resource_types ?? []).map((t, i) => ({ path: ['resource_types', i] as DataPath, type: t }));
  const { ordered, cycle } = parentsFirst(types);
  const entries: Entry[] = [];
  for (const { path, type } of ordered) {
    entries.push({
      kind: 'resourceType',
      path,
      input: {
        name: type.name,
        ...(type.description !== undefined ? { description: type.description } : {}),
        ...(type.parent_types !== undefined ? { parentTypes: type.parent_types } : {}),
      },
    });
  }
  (data.resources ?? []).forEach((r, i) =>
    entries.push({
      kind: 'resource',
      path: ['resources', i],
      input: { name: r.name, type: r.type, ...(r.description !== undefined ? { description: r.description } : {}) },
    }),
  );
  (data.projects ?? []).forEach((p, i) =>
    entries.push({
      kind: 'project',
      path: ['projects', i],
      input: { name: p.name, ...(p.description !== undefined ? { description: p.description } : {}) },
    }),
  );
  (data.projects ?? []).forEach((p, i) =>
    (p.links ?? []).forEach((l, j) =>
      entries.push({
        kind: 'link',
        path: ['projects', i, 'links', j],
        input: { project: p.name, resource: l.resource, ...(l.alias !== undefined ? { alias: l.alias } : {}) },
      }),
    ),
  );
  (data.tools ?? []).forEach((t, i) => entries.push({ kind: 'tool', path: ['tools', i], input: mapTool(t) }));
  return { entries, cycle: cycle.map((c) => c.path) };
}

/**
 * Orders types so each comes after the parents it names among them, keeping
 * file order otherwise. Types on a cycle (or depending on one) are left out
 * and returned apart.
 */
function parentsFirst<T extends { path: DataPath; type: { name: string; parent_types?: string[] } }>(
  types: readonly T[],
) {
  const defined = new Set(types.map((t) => t.type.name));
  const placed = new Set<string>();
  const ordered: T[] = [];
  let pending = [...types];
  while (pending.length > 0) {
    const ready = pending.filter((t) =>
      (t.type.parent_types ?? []).every((p) => !defined.has(p) || (placed.has(p) && p !== t.type.name)),
    );
    if (ready.length === 0) break;
    // Take the first ready one, so file order is kept wherever the parents allow it.
    const next = ready[0];
    ordered.push(next);
    placed.add(next.type.name);
    pending = pending.filter((t) => t !== next);
  }
  return { ordered, cycle: pending };
}

/** What an entry is called in messages, e.g. `resource type fs-directory` or `link demo → acme/app-repo`. */
export function describeEntry(entry: Entry): string {
  switch (entry.kind) {
    case 'resourceType':
      return `resource type ${entry.input.name}`;
    case 'resource':
      return `resource ${entry.input.name}`;
    case 'project':
      return `project ${entry.input.name}`;
    case 'link':
      return `link ${entry.input.project} → ${entry.input.resource}${entry.input.alias ? ` as ${entry.input.alias}` : ''}`;
    case 'tool':
      return `tool ${entry.input.name}`;
  }
}

/** The name that must be unique among entries of a kind in one file. */
function identityOf(entry: Entry): string {
  return entry.kind === 'link' ? `${entry.input.project}\u0000${entry.input.resource}` : entry.input.name;
}

/** Two entries of the same kind and name in one file: the later one is reported, pointing at the first. */
export function duplicateProblems(source: YamlSource, entries: readonly Entry[]): FileProblem[] {
  // Usually there is none, and that needs no place in the file (which a big file may take seconds to work out).
  const keys = new Set(entries.map((entry) => `${entry.kind}\u0000${identityOf(entry)}`));
  if (keys.size === entries.length) return [];
  const first = new Map<string, Entry>();
  const problems: FileProblem[] = [];
  const place = (e: Entry) => source.locate(e.path) ?? { line: 0, column: 0 };
  const inFileOrder = [...entries].sort((a, b) => place(a).line - place(b).line || place(a).column - place(b).column);
  for (const entry of inFileOrder) {
    const key = `${entry.kind}\u0000${identityOf(entry)}`;
    const earlier = first.get(key);
    if (!earlier) {
      first.set(key, entry);
      continue;
    }
    const line = source.locate(earlier.path)?.line;
    problems.push({
      file: source.file,
      position: source.locate(entry.path),
      path: formatPath(entry.path),
      message: `${describeEntry(entry)} is already defined in this file${line ? ` (line ${line})` : ''}`,
    });
  }
  return problems;
}
