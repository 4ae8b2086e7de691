/**
 * Writes registry contents back as files in the format this module parses:
 * snake_case keys, lowercase enums, and every field equal to its default
 * left out, so reading a written file gives back the same entries.
 */
import { createHash } from 'node:crypto';
import { Document, isMap, isScalar, isSeq, type Node } from 'yaml';
import type {
  LinkDocument,
  ProjectDocument,
  RegistryDocument,
  ResourceDocument,
  SlotDocument,
  ToolDocument,
  TypeDocument,
} from './schema';
import type { ProjectState, RegistryState, ResourceState, SlotState, ToolState, TypeState } from './state';

/** A resource type in its file form. */
export function typeDocument(type: TypeState): TypeDocument {
  return {
    name: type.name,
    ...optional('description', type.description),
    ...(type.parentTypes.length > 0 ? { parent_types: [...type.parentTypes] } : {}),
  };
}

/** A resource in its file form. */
export function resourceDocument(resource: ResourceState): ResourceDocument {
  return { name: resource.name, type: resource.type, ...optional('description', resource.description) };
}

/** A project and its links in their file form. */
export function projectDocument(project: ProjectState): ProjectDocument {
  const links = project.links.map((l): LinkDocument => ({
    resource: l.resource,
    ...(l.alias !== null ? { alias: l.alias } : {}),
  }));
  return {
    name: project.name,
    ...optional('description', project.description),
    ...(links.length > 0 ? { links } : {}),
  };
}

/** A slot in its file form: access, binding and required only when they are not the defaults. */
export function slotDocument(slot: SlotState): SlotDocument {
  return {
    name: slot.name,
    resource_type: slot.resourceType,
    ...(slot.access !== 'READ_ONLY' ? { access: slot.access.toLowerCase() } : {}),
    ...(slot.binding !== 'CONTEXTUAL' ? { binding: slot.binding.toLowerCase() } : {}),
    ...optional('static_resource', slot.staticResource),
    ...(slot.required ? {} : { required: false }),
  };
}

/** A tool in its file form. */
export function toolDocument(tool: ToolState): ToolDocument {
  return {
    name: tool.name,
    ...optional('description', tool.description),
    resource_slots: tool.resourceSlots.map(slotDocument),
  };
}

/**
 * A registry file: every section present (an empty one as []), so even an
 * empty registry is a file that reads as a registry. Tools are included only
 * when given.
 */
export function registryDocument(registry: Omit<RegistryState, 'tools'> & { tools?: RegistryState['tools'] }) {
  return {
    resource_types: registry.resourceTypes.map(typeDocument),
    resources: registry.resources.map(resourceDocument),
    projects: registry.projects.map(projectDocument),
    ...(registry.tools ? { tools: registry.tools.map(toolDocument) } : {}),
  } satisfies RegistryDocument;
}

/**
 * YAML text for a registry or tool document (YAML 1.2, like the parser):
 * no line folding, multi-line text as literal blocks, parent_types as a flow
 * list, and a blank line between a registry's sections. `header` lines become
 * comments at the top.
 */
export function stringifyDocument(document: RegistryDocument | ToolDocument, header: readonly string[] = []): string {
  const yaml = new Document(document, { version: '1.2' });
  if (header.length > 0) yaml.commentBefore = header.map((line) => ` ${line}`).join('\n');
  const root = yaml.contents;
  if (isMap(root) && !('resource_slots' in document)) {
    root.items.forEach((pair, i) => {
      if (i > 0 && isScalar(pair.key)) pair.key.spaceBefore = true;
    });
  }
  flowParentTypes(root);
  return yaml.toString({ lineWidth: 0, blockQuote: 'literal', flowCollectionPadding: false });
}

/** Writes every parent_types list on one line, as the examples do. */
function flowParentTypes(node: Node | null): void {
  if (isMap(node)) {
    for (const pair of node.items) {
      if (isScalar(pair.key) && pair.key.value === 'parent_types' && isSeq(pair.value)) pair.value.flow = true;
      else flowParentTypes(pair.value as Node | null);
    }
  } else if (isSeq(node)) {
    for (const item of node.items) flowParentTypes(item as Node | null);
  }
}

/** Longest file name toolFileName gives, ".yaml" included (file systems allow 255 bytes). */
const MAX_FILE_NAME = 240;

/**
 * The file name of a tool's file: its name with each "/" written as "--",
 * plus ".yaml". A "-" at either end of a segment or next to another "-" is
 * written %2D, and a leading "." %2E, so "--" always means "/" (the mapping
 * can be reversed by toolNameOfFileName) and no file is hidden. Names never
 * hold "%", "/" or "~", and differ ignoring case when file names must. A name
 * whose file name would be too long is cut and ends in "~" and a digest of
 * the whole name: unique, but not reversible (the file holds the name anyway).
 */
export function toolFileName(name: string): string {
  const encoded = name
    .split('/')
    .map((segment) => segment.replace(/-+/g, (run, at: number) => dashes(run, at, segment.length)))
    .join('--')
    .replace(/^\./, '%2E');
  if (encoded.length + '.yaml'.length <= MAX_FILE_NAME) return `${encoded}.yaml`;
  const digest = createHash('sha256').update(name).digest('hex').slice(0, 16);
  return `${encoded.slice(0, MAX_FILE_NAME - '.yaml'.length - digest.length - 1)}~${digest}.yaml`;
}

/** The tool name a file name from toolFileName stands for; null for any other file name (or a cut one). */
export function toolNameOfFileName(fileName: string): string | null {
  const match = /^([A-Za-z0-9._%-]+)\.yaml$/.exec(fileName);
  if (!match) return null;
  const name = match[1]
    .split('--')
    .map((segment) => segment.replace(/%2D/g, '-'))
    .join('/')
    .replace(/^%2E/, '.');
  return toolFileName(name) === fileName ? name : null;
}

/** A run of "-" in a segment: kept when it is a single dash inside the segment, else each one as %2D. */
function dashes(run: string, at: number, segmentLength: number): string {
  const inside = at > 0 && at + run.length < segmentLength;
  return run.length === 1 && inside ? run : '%2D'.repeat(run.length);
}

/** `{ [key]: value }` when the value is there, else nothing. */
function optional<K extends string>(key: K, value: string | null): { [P in K]?: string } {
  return (value === null ? {} : { [key]: value }) as { [P in K]?: string };
}
