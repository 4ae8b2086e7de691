/**
 * A file's entries against what the registry holds: each is missing, the
 * same, or different (and then which fields differ, and the update that
 * makes the registry match the file). A field the file leaves out stands for
 * its default: no description, no parents, no alias, and a slot's defaults
 * as registration fills them in (the core's SLOT_DEFAULTS: read_only,
 * contextual, required).
 */
import { withDefaults } from '../core/tool-validation';
import type { Entry, ToolInput } from './map';
import type { LinkState, SlotState, StateLookup } from './state';

/** The update mutation that makes the registry match an entry, with only the fields that differ (all of a tool). */
export type UpdateCommand =
  | {
      readonly kind: 'resourceType';
      readonly input: { ref: string; description?: string | null; parentTypes?: string[] };
    }
  | { readonly kind: 'resource'; readonly input: { ref: string; description?: string | null; type?: string } }
  | { readonly kind: 'project'; readonly input: { ref: string; description?: string | null } }
  | { readonly kind: 'link'; readonly input: { project: string; resource: string; alias: string | null } }
  | { readonly kind: 'tool'; readonly input: ToolInput };

/** What an entry finds in the registry. */
export type Comparison =
  | { readonly status: 'missing' }
  | { readonly status: 'same' }
  | { readonly status: 'differs'; readonly differences: readonly string[]; readonly update: UpdateCommand };

/** Compares one entry with what the registry holds under its name (for a link: its project's link to the resource). */
export function compareEntry(entry: Entry, registry: StateLookup): Comparison {
  switch (entry.kind) {
    case 'resourceType': {
      const found = registry.resourceType(entry.input.name);
      if (!found) return { status: 'missing' };
      const input: Extract<UpdateCommand, { kind: 'resourceType' }>['input'] = { ref: entry.input.name };
      const differences: string[] = [];
      const description = entry.input.description ?? null;
      if (description !== found.description) {
        differences.push('description');
        input.description = description;
      }
      const parents = entry.input.parentTypes ?? [];
      if (!sameList(parents, found.parentTypes)) {
        differences.push(`parent_types: ${show(found.parentTypes)} → ${show(parents)}`);
        input.parentTypes = parents;
      }
      return outcome(differences, { kind: 'resourceType', input });
    }
    case 'resource': {
      const found = registry.resource(entry.input.name);
      if (!found) return { status: 'missing' };
      const input: Extract<UpdateCommand, { kind: 'resource' }>['input'] = { ref: entry.input.name };
      const differences: string[] = [];
      if (entry.input.type !== found.type) {
        differences.push(`type: ${found.type} → ${entry.input.type}`);
        input.type = entry.input.type;
      }
      const description = entry.input.description ?? null;
      if (description !== found.description) {
        differences.push('description');
        input.description = description;
      }
      return outcome(differences, { kind: 'resource', input });
    }
    case 'project': {
      const found = registry.project(entry.input.name);
      if (!found) return { status: 'missing' };
      const description = entry.input.description ?? null;
      return description === found.description
        ? { status: 'same' }
        : outcome(['description'], { kind: 'project', input: { ref: entry.input.name, description } });
    }
    case 'link': {
      const found = linkOf(registry, entry.input.project, entry.input.resource);
      if (!found) return { status: 'missing' };
      const alias = entry.input.alias ?? null;
      return alias === found.alias
        ? { status: 'same' }
        : outcome([`alias: ${show(found.alias)} → ${show(alias)}`], {
            kind: 'link',
            input: { project: entry.input.project, resource: entry.input.resource, alias },
          });
    }
    case 'tool': {
      const found = registry.tool(entry.input.name);
      if (!found) return { status: 'missing' };
      const differences: string[] = [];
      if ((entry.input.description ?? null) !== found.description) differences.push('description');
      differences.push(...slotDifferences(found.resourceSlots, entry.input.resourceSlots.map(withDefaults)));
      return outcome(differences, { kind: 'tool', input: entry.input });
    }
  }
}

/** The CONFLICT message for an entry that exists and differs. */
export function conflictMessage(entry: Entry, differences: readonly string[]): string {
  const what =
    entry.kind === 'link'
      ? `link '${entry.input.project} → ${entry.input.resource}'`
      : `${entry.kind === 'resourceType' ? 'resource type' : entry.kind} '${entry.input.name}'`;
  return `${what} exists and differs (${differences.join('; ')}); use --update to change it`;
}

/**
 * Orders each project's link entries so that one taking an alias that
 * another link of the project holds now comes after the entry that moves
 * that link to another alias (or none): moving an alias from one link to
 * another then works one link at a time. Otherwise the order is kept, and so
 * is everything else's place; a swap of aliases stays as it is (the server
 * refuses its first step).
 */
export function orderLinkChanges(entries: readonly Entry[], registry: StateLookup): Entry[] {
  const links = entries.flatMap((entry, index) => (entry.kind === 'link' ? [{ entry, index }] : []));
  const releasing = (project: string, resource: string, alias: string) =>
    links.find(
      ({ entry: e }) =>
        e.input.project === project && e.input.resource === resource && (e.input.alias ?? null) !== alias,
    );
  /** The link entry that must come first: the one moving away the holder of the alias this one takes. */
  const waitsFor = (entry: Extract<Entry, { kind: 'link' }>) => {
    const alias = entry.input.alias;
    if (alias === undefined) return undefined;
    const holder = registry.project(entry.input.project)?.links.find((l) => l.alias === alias);
    if (!holder || holder.resource === entry.input.resource) return undefined;
    return releasing(entry.input.project, holder.resource, alias);
  };
  // Worked out once per link entry. Usually none waits (always, into an empty registry), and the order stays as
  // it is without the loop below, which looks through the pending entries for each one it places.
  const firsts = new Map(links.map((link) => [link, waitsFor(link.entry)]));
  if ([...firsts.values()].every((first) => first === undefined)) return [...entries];
  const pending = [...links];
  const ordered: typeof links = [];
  while (pending.length > 0) {
    const ready = pending.findIndex((link) => {
      const first = firsts.get(link);
      return first === undefined || !pending.includes(first);
    });
    // A cycle (a swap): keep the file's order and let the server say why it cannot be done.
    ordered.push(...pending.splice(ready === -1 ? 0 : ready, 1));
  }
  const result = [...entries];
  links.forEach(({ index }, i) => (result[index] = ordered[i].entry));
  return result;
}

/** The link a project has to a resource, if the project and the link exist. */
export function linkOf(registry: StateLookup, project: string, resource: string): LinkState | undefined {
  return registry.project(project)?.links.find((l) => l.resource === resource);
}

function outcome(differences: string[], update: UpdateCommand): Comparison {
  return differences.length === 0 ? { status: 'same' } : { status: 'differs', differences, update };
}

/** How the slots differ, in the file's words: the list of names when it changed, else each field that changed. */
function slotDifferences(before: readonly SlotState[], after: readonly SlotState[]): string[] {
  const names = (slots: readonly SlotState[]) => slots.map((s) => s.name);
  if (!sameList(names(before), names(after))) return [`resource_slots: ${show(names(before))} → ${show(names(after))}`];
  const fields = [
    ['resource_type', (s: SlotState) => s.resourceType],
    ['access', (s: SlotState) => s.access.toLowerCase()],
    ['binding', (s: SlotState) => s.binding.toLowerCase()],
    ['static_resource', (s: SlotState) => s.staticResource],
    ['required', (s: SlotState) => String(s.required)],
  ] as const;
  return before.flatMap((slot, i) =>
    fields.flatMap(([key, value]) =>
      value(slot) === value(after[i])
        ? []
        : [`resource_slots[${i}].${key}: ${show(value(slot))} → ${show(value(after[i]))}`],
    ),
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** A value as messages show it: lists in brackets, nothing as (none). */
function show(value: string | null | readonly string[]): string {
  if (value === null) return '(none)';
  return typeof value === 'string' ? value : `[${value.join(', ')}]`;
}
