import DataLoader from 'dataloader';
import type { ResourceInfo } from '../core/model';
import type { TypeHierarchy } from '../core/type-hierarchy';
import type { LinkRecord, Page, ProjectRecord, RegistryState, SlotRecord, ToolRecord } from '../persistence/records';
import type { RegistryReader } from '../persistence/registry-store';
import type { HierarchyCache } from './hierarchy-cache';
import type { RecordCache } from './record-cache';

/**
 * The per-request read side: DataLoaders that batch lookups made in the same
 * tick into one statement each, and the registry state read at most once.
 * Created for every request; nothing here outlives it but the shared caches.
 */
export interface Loaders {
  /** The registry counters, read once per request (until a write in this request). */
  state(): Promise<RegistryState>;
  /** The type hierarchy, current as of `state()`. */
  hierarchy(): Promise<TypeHierarchy>;
  readonly resourceById: DataLoader<string, ResourceInfo | null>;
  readonly resourceByRef: DataLoader<string, ResourceInfo | null>;
  readonly toolById: DataLoader<string, ToolRecord | null>;
  readonly toolByRef: DataLoader<string, ToolRecord | null>;
  readonly projectById: DataLoader<string, ProjectRecord | null>;
  readonly projectByRef: DataLoader<string, ProjectRecord | null>;
  readonly slotsByToolId: DataLoader<string, SlotRecord[]>;
  readonly linksByProjectId: DataLoader<string, LinkRecord[]>;
  /** The tool slots that bind a resource statically. */
  readonly staticSlotsByResourceId: DataLoader<string, { toolId: string; slot: string }[]>;
  /** The projects that link a resource, with the alias. */
  readonly linksByResourceId: DataLoader<string, { projectId: string; alias: string | null }[]>;
  /** A page of the resources that fill a slot of a type (the type and its sub-types). */
  readonly compatibleResources: DataLoader<CompatibleResourcesKey, Page<ResourceInfo>, string>;
  /** Forgets everything read so far; called after this request writes. */
  clearAll(): void;
}

/** Which page of which type's compatible resources. */
export interface CompatibleResourcesKey {
  readonly typeId: string;
  readonly first: number;
  readonly afterName: string | null;
}

/** The caches every request shares. */
export interface SharedCaches {
  readonly hierarchy: HierarchyCache;
  readonly records: RecordCache;
}

/** Creates a request's loaders over the reader and the shared caches. */
export function createLoaders(reader: RegistryReader, caches: SharedCaches): Loaders {
  let state: Promise<RegistryState> | null = null;
  let hierarchy: Promise<TypeHierarchy> | null = null;

  /**
   * A batch through the record cache: what the current registry version has
   * cached is answered from memory, the rest is read in one statement.
   */
  function cached<V>(kind: string, load: (keys: readonly string[]) => Promise<(V | null)[]>) {
    return async (keys: readonly string[]): Promise<(V | null)[]> => {
      const { version } = await loaders.state();
      const found = caches.records.lookup<V>(version, kind, keys);
      const missing = keys.filter((_, i) => found[i] === undefined);
      if (missing.length === 0) return found as (V | null)[];
      const loaded = await load(missing);
      caches.records.store(version, kind, missing.map((key, i) => [key, loaded[i]] as const));
      let next = 0;
      return found.map((value) => (value === undefined ? loaded[next++] : value));
    };
  }

  const loaders: Loaders = {
    state: () => (state ??= reader.registryState()),
    hierarchy: () => (hierarchy ??= loaders.state().then((s) => caches.hierarchy.get(s.typesVersion, () => reader.allTypes()))),
    resourceById: new DataLoader(cached('resource', (ids) => reader.resourcesByIds(ids).then((rows) => byKey(ids, rows, (r) => r.id)))),
    resourceByRef: new DataLoader(cached('resource-ref', (refs) => reader.resourcesByRefs(refs).then((rows) => byRef(refs, rows)))),
    toolById: new DataLoader(cached('tool', (ids) => reader.toolsByIds(ids).then((rows) => byKey(ids, rows, (r) => r.id)))),
    toolByRef: new DataLoader(cached('tool-ref', (refs) => reader.toolsByRefs(refs).then((rows) => byRef(refs, rows)))),
    projectById: new DataLoader(cached('project', (ids) => reader.projectsByIds(ids).then((rows) => byKey(ids, rows, (r) => r.id)))),
    projectByRef: new DataLoader(cached('project-ref', (refs) => reader.projectsByRefs(refs).then((rows) => byRef(refs, rows)))),
    slotsByToolId: new DataLoader(
      cached('slots', (ids) => reader.slotsByToolIds(ids).then((rows) => groupBy(ids, rows, (r) => r.toolId))) as (ids: readonly string[]) => Promise<SlotRecord[][]>,
    ),
    linksByProjectId: new DataLoader(
      cached('links', (ids) => reader.linksByProjectIds(ids).then((rows) => groupBy(ids, rows, (r) => r.projectId))) as (ids: readonly string[]) => Promise<LinkRecord[][]>,
    ),
    staticSlotsByResourceId: new DataLoader((ids) => reader.staticSlotsByResourceIds(ids).then((rows) => groupBy(ids, rows, (r) => r.resourceId))),
    linksByResourceId: new DataLoader((ids) => reader.linksByResourceIds(ids).then((rows) => groupBy(ids, rows, (r) => r.resourceId))),
    compatibleResources: new DataLoader(
      async (keys) => {
        // One pair of statements per distinct (first, after); a dashboard asks the same page of every row.
        const types = await loaders.hierarchy();
        const results = new Map<string, Page<ResourceInfo>>();
        const groups = new Map<string, CompatibleResourcesKey[]>();
        for (const key of keys) {
          const group = JSON.stringify([key.first, key.afterName]);
          groups.set(group, [...(groups.get(group) ?? []), key]);
        }
        for (const group of groups.values()) {
          const { first, afterName } = group[0];
          const sets = group.map((key) => ({ key: key.typeId, typeIds: [key.typeId, ...types.descendantsOf(key.typeId).map((t) => t.id)] }));
          const pages = await reader.resourcePagesByTypeSets(sets, first, afterName);
          for (const key of group) results.set(compatibleKey(key), pages.get(key.typeId)!);
        }
        return keys.map((key) => results.get(compatibleKey(key))!);
      },
      { cacheKeyFn: compatibleKey },
    ),
    clearAll() {
      state = null;
      hierarchy = null;
      for (const loader of [
        loaders.resourceById,
        loaders.resourceByRef,
        loaders.toolById,
        loaders.toolByRef,
        loaders.projectById,
        loaders.projectByRef,
        loaders.slotsByToolId,
        loaders.linksByProjectId,
        loaders.staticSlotsByResourceId,
        loaders.linksByResourceId,
      ] as DataLoader<string, unknown>[]) {
        loader.clearAll();
      }
      loaders.compatibleResources.clearAll();
    },
  };
  return loaders;
}

function compatibleKey(key: CompatibleResourcesKey): string {
  return JSON.stringify([key.typeId, key.first, key.afterName]);
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
