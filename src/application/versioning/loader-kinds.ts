/**
 * Every kind of loader a read session hands out, made once for all requests:
 * what each reads in one batch, and what each answer depends on (the keys of
 * ./dependencies.ts that a write touching it moves).
 */
import DataLoader from 'dataloader';
import { isIdRef } from '../../core/grammar';
import type {
  ChangeRecord,
  LinkRecord,
  Page,
  ProjectRecord,
  ResourceRecord,
  SlotRecord,
  ToolRecord,
  Window,
} from '../../persistence/records';
import type { RegistryReader } from '../../persistence/registry-reader';
import { DEPENDS, type DependencyKey, type Named } from './dependencies';
import type { Loader } from './loader';
import { newLoaderSlot, throughCache, uncachedKind, type LoaderRegistry } from './loader-registry';

/** Which page of which type's compatible resources. */
export interface CompatibleResourcesKey {
  readonly typeId: string;
  readonly window: Window<string>;
}

const RESOURCE_KIND = throughCache<ResourceRecord | null>({
  name: 'resource',
  load: async (r, ids) => byKey(ids, await r.resourcesByIds(ids), (x) => x.id),
  dependsOn: byIdDependency('resource'),
  empty: null,
});

const SLOTS_KIND = throughCache<SlotRecord[]>({
  name: 'slots',
  // With the resources their static slots bind, which this request's loads of them are then answered with.
  load: async (r, ids, registry) => {
    const { slots, staticResources } = await r.slotsWithStaticResources(ids);
    registry.prime(
      RESOURCE_KIND,
      staticResources.map((resource) => [resource.id, resource] as const),
    );
    return groupBy(ids, slots, (x) => x.toolId);
  },
  dependsOn: (id) => [DEPENDS.thing('tool', id)],
  empty: [],
});

export const LOADER_KINDS = {
  resource: RESOURCE_KIND,
  resourceRef: throughCache<ResourceRecord | null>({
    name: 'resource-ref',
    load: async (r, refs) => byRef(refs, await r.resourcesByRefs(refs)),
    dependsOn: byRefDependency('resource'),
    empty: null,
  }),
  tool: throughCache<ToolRecord | null>({
    name: 'tool',
    load: async (r, ids) => byKey(ids, await r.toolsByIds(ids), (x) => x.id),
    dependsOn: byIdDependency('tool'),
    empty: null,
  }),
  toolRef: throughCache<ToolRecord | null>({
    name: 'tool-ref',
    // With their slots and static resources (what a tool is read by name for: a resolve, a tool shown with its
    // slots), which this request's loads of them are then answered with: one statement, not two in a row.
    load: async (r, refs, registry) => {
      const { tools, slots, staticResources } = await r.toolsWithSlotsByRefs(refs);
      const toolIds = tools.map((tool) => tool.id);
      const slotLists = groupBy(toolIds, slots, (x) => x.toolId);
      registry.prime(
        SLOTS_KIND,
        toolIds.map((id, i) => [id, slotLists[i]] as const),
      );
      registry.prime(
        RESOURCE_KIND,
        staticResources.map((resource) => [resource.id, resource] as const),
      );
      return byRef(refs, tools);
    },
    dependsOn: byRefDependency('tool'),
    empty: null,
  }),
  project: throughCache<ProjectRecord | null>({
    name: 'project',
    load: async (r, ids) => byKey(ids, await r.projectsByIds(ids), (x) => x.id),
    dependsOn: byIdDependency('project'),
    empty: null,
  }),
  projectRef: throughCache<ProjectRecord | null>({
    name: 'project-ref',
    load: async (r, refs) => byRef(refs, await r.projectsByRefs(refs)),
    dependsOn: byRefDependency('project'),
    empty: null,
  }),
  slots: SLOTS_KIND,
  links: throughCache<LinkRecord[]>({
    name: 'links',
    load: async (r, ids) => groupBy(ids, await r.linksByProjectIds(ids), (x) => x.projectId),
    // A link carries its resource's record, so the answer depends on each linked resource too.
    dependsOn: (id, links) => [
      DEPENDS.thing('project', id),
      ...(links ?? []).map((l) => DEPENDS.thing('resource', l.resource.id)),
    ],
    empty: [],
  }),
  fittingLinks: throughCache<FittingLinks>({
    name: 'fittingLinks',
    load: fittingLinks,
    // A link added, removed or re-aliased moves the project; a type edit the fit; any linked resource's edit
    // (renamed, retyped into the fit or out of it, deleted) the answer too: so every linked resource is a dependency.
    dependsOn: (key, found) => [
      DEPENDS.thing('project', key.slice(0, key.indexOf(FITTING_KEY_SEPARATOR))),
      DEPENDS.types,
      ...(found?.linked ?? []).map((id) => DEPENDS.thing('resource', id)),
    ],
    empty: null,
  }),
  changes: uncachedKind<string, ChangeRecord | null>(
    'changeById',
    (registry) =>
      new DataLoader((ids) => registry.read(async (r) => byKey(ids, await r.changesByIds(ids), (x) => x.id))),
    () => [DEPENDS.changes],
  ),
  // What refers to a resource, and the pages of what fills a type: each kept like a record, with the same
  // dependencies a response that shows it records (a heavy page asks for hundreds of them).
  staticSlots: throughCache<{ toolId: string; slot: string }[]>({
    name: 'staticSlotsByResourceId',
    load: async (r, ids) => groupBy(ids, await r.staticSlotsByResourceIds(ids), (x) => x.resourceId),
    dependsOn: () => [DEPENDS.staticBindings],
    empty: [],
  }),
  resourceLinks: throughCache<{ projectId: string; alias: string | null }[]>({
    name: 'linksByResourceId',
    load: async (r, ids) => groupBy(ids, await r.linksByResourceIds(ids), (x) => x.resourceId),
    dependsOn: (id) => [DEPENDS.linksOf(id)],
    empty: [],
  }),
  compatible: throughCache<Page<ResourceRecord>, CompatibleResourcesKey>({
    name: 'compatibleResources',
    load: compatiblePages,
    keyOf: compatibleKey,
    dependsOn: () => [DEPENDS.types, DEPENDS.list('resource')],
    empty: null,
  }),
} as const;

/**
 * The links of one project whose resource's type fits one slot type (the type
 * or a sub-type), in the project's link order: all a contextual decision
 * reads. Kept in place of the project's every link, so that what a resolve
 * keeps in the record cache grows with its candidates, not with the
 * project's links (about 1 link in 25 at the benchmark's sizes).
 */
export interface FittingLinks {
  readonly links: readonly LinkRecord[];
  /** The id of every resource the project links (fitting or not): what the answer depends on. */
  readonly linked: readonly string[];
}

const FITTING_KEY_SEPARATOR = ' ';

/** The key of a project's links that fit a slot type. */
export function fittingLinksKey(projectId: string, typeId: string): string {
  return projectId + FITTING_KEY_SEPARATOR + typeId;
}

/** Each key's fitting links, from one statement reading the links of every project asked for. */
async function fittingLinks(
  reader: RegistryReader,
  keys: readonly string[],
  registry: LoaderRegistry,
): Promise<(FittingLinks | null)[]> {
  const types = await registry.hierarchy();
  const split = keys.map((key) => {
    const at = key.indexOf(FITTING_KEY_SEPARATOR);
    return { projectId: key.slice(0, at), typeId: key.slice(at + 1) };
  });
  const projectIds = [...new Set(split.map((k) => k.projectId))];
  const byProject = groupBy(projectIds, await reader.linksByProjectIds(projectIds), (x) => x.projectId);
  const linksOf = new Map(projectIds.map((id, i) => [id, byProject[i]]));
  return split.map(({ projectId, typeId }) => {
    const all = linksOf.get(projectId) ?? [];
    const fitting = types.typesFitting(typeId);
    return {
      links: all.filter((link) => fitting.has(link.resource.typeId)),
      linked: all.map((link) => link.resource.id),
    };
  });
}

/** Where a session keeps its loaders by ref (id or name), beside those of each kind. */
export const REF_LOADER_SLOTS = { resource: newLoaderSlot(), tool: newLoaderSlot(), project: newLoaderSlot() } as const;

/**
 * The pages of compatible resources for `keys` (inside a cached batch): one
 * pair of statements per distinct window; a dashboard asks the same page of every row.
 */
async function compatiblePages(
  reader: RegistryReader,
  keys: readonly CompatibleResourcesKey[],
  registry: LoaderRegistry,
): Promise<Page<ResourceRecord>[]> {
  const types = await registry.hierarchy();
  const results = new Map<string, Page<ResourceRecord>>();
  const groups = new Map<string, CompatibleResourcesKey[]>();
  for (const key of keys) {
    const group = windowKey(key.window);
    groups.set(group, [...(groups.get(group) ?? []), key]);
  }
  for (const group of groups.values()) {
    const { window } = group[0];
    const sets = group.map((key) => ({
      key: key.typeId,
      typeIds: [key.typeId, ...types.descendantsOf(key.typeId).map((t) => t.id)],
    }));
    const pages = await reader.resourcePagesByTypeSets(sets, window, types.size);
    for (const key of group) results.set(compatibleKey(key), pages.get(key.typeId)!);
  }
  return keys.map((key) => results.get(compatibleKey(key))!);
}

function windowKey(window: Window<string>): string {
  return JSON.stringify([window.size, window.fromEnd, window.after, window.before, window.count !== false]);
}

function compatibleKey(key: CompatibleResourcesKey): string {
  return JSON.stringify([key.typeId, windowKey(key.window)]);
}

/** What a lookup by id depends on: that thing (a miss too: only its creation could make it a hit). */
function byIdDependency(kind: Named): (id: string) => DependencyKey[] {
  return (id) => [DEPENDS.thing(kind, id)];
}

/** What a lookup by ref depends on: the id or the name it gives, and the thing it found. */
function byRefDependency(kind: Named): (ref: string, found: { id: string } | null) => DependencyKey[] {
  return (ref, found) => [
    isIdRef(ref) ? DEPENDS.thing(kind, ref) : DEPENDS.name(kind, ref),
    ...(found ? [DEPENDS.thing(kind, found.id)] : []),
  ];
}

/** Results in key order, null for a miss (DataLoader's contract). */
function byKey<T>(keys: readonly string[], rows: readonly T[], keyOf: (row: T) => string): (T | null)[] {
  const map = new Map(rows.map((row) => [keyOf(row), row]));
  return keys.map((key) => map.get(key) ?? null);
}

/** Results in ref order: a ref matches a row by id or by name. */
function byRef<T extends { id: string; name: string }>(refs: readonly string[], rows: readonly T[]): (T | null)[] {
  const map = new Map<string, T>();
  for (const row of rows) {
    map.set(row.id, row);
    map.set(row.name, row);
  }
  return refs.map((ref) => map.get(ref) ?? null);
}

function groupBy<T>(keys: readonly string[], rows: readonly T[], keyOf: (row: T) => string): T[][] {
  const groups = new Map<string, T[]>(keys.map((key) => [key, []]));
  for (const row of rows) groups.get(keyOf(row))?.push(row);
  return keys.map((key) => groups.get(key) ?? []);
}

/**
 * A loader by ref: an id through the by-id loader, a name through the by-name
 * one (a class, so that a request's three views are an object each, not an
 * object and three closures).
 */
export class ByIdOrName<V> implements Loader<string, V> {
  constructor(
    private readonly byId: Loader<string, V>,
    private readonly byName: Loader<string, V>,
  ) {}

  load(ref: string): Promise<V> {
    return (isIdRef(ref) ? this.byId : this.byName).load(ref);
  }

  peek(ref: string): V | undefined {
    return (isIdRef(ref) ? this.byId : this.byName).peek(ref);
  }

  async loadMany(keys: ArrayLike<string>): Promise<(V | Error)[]> {
    const refs = Array.from(keys);
    const ids = refs.filter(isIdRef);
    if (ids.length === 0) return this.byName.loadMany(refs);
    if (ids.length === refs.length) return this.byId.loadMany(refs);
    const [byIds, byNames] = await Promise.all([
      this.byId.loadMany(ids),
      this.byName.loadMany(refs.filter((ref) => !isIdRef(ref))),
    ]);
    let i = 0;
    let n = 0;
    return refs.map((ref) => (isIdRef(ref) ? byIds[i++] : byNames[n++]));
  }
}
