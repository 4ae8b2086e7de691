import DataLoader from 'dataloader';
import type { ResourceInfo } from '../core/model';
import type { TypeHierarchy } from '../core/type-hierarchy';
import type { LinkRecord, Page, ProjectRecord, RegistryState, SlotRecord, ToolRecord } from '../persistence/records';
import type { RegistryReader } from '../persistence/registry-store';
import type { HierarchyCache } from './hierarchy-cache';
import type { RecordCache } from './record-cache';
import type { RegistryClock } from './registry-clock';

/**
 * The per-request read side: DataLoaders that batch lookups made in the same
 * tick into one statement each, and the registry state read at most once.
 * Created for every request; nothing here outlives it but the shared caches.
 */
export interface Loaders {
  /** The registry counters, read once per request (until a write in this request). */
  state(): Promise<RegistryState>;
  /** The registry version this request has read, if it has read any registry data (every read goes through `state()` first). */
  readVersion(): number | undefined;
  /** The reader for reads without a loader (pages): each call first reads the registry version. */
  readonly reader: RegistryReader;
  /** The type hierarchy, current as of `state()`. */
  hierarchy(): Promise<TypeHierarchy>;
  /** The hierarchy if this request has loaded it already, so field resolvers can answer without a promise. */
  loadedHierarchy(): TypeHierarchy | undefined;
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

/** The caches every request shares, and the clock that says which registry version they must match. */
export interface SharedCaches {
  readonly hierarchy: HierarchyCache;
  readonly records: RecordCache;
  readonly clock: RegistryClock;
}

/** Creates a request's loaders over the reader and the shared caches. */
export function createLoaders(reader: RegistryReader, caches: SharedCaches): Loaders {
  return new RequestLoaders(reader, caches);
}

/**
 * The loaders of one request. Each DataLoader is made on first use, so a
 * request that needs none (an answer from the response cache, `{ __typename }`)
 * costs next to nothing.
 */
class RequestLoaders implements Loaders {
  private statePromise: Promise<RegistryState> | null = null;
  private stateRead: RegistryState | undefined;
  private hierarchyPromise: Promise<TypeHierarchy> | null = null;
  private hierarchyLoaded: TypeHierarchy | undefined;
  private made = new Map<string, DataLoader<never, unknown, unknown>>();
  private versionedReader: RegistryReader | null = null;

  constructor(
    private readonly source: RegistryReader,
    private readonly caches: SharedCaches,
  ) {}

  state(): Promise<RegistryState> {
    return (this.statePromise ??= this.caches.clock.current().then((read) => {
      this.stateRead = read;
      return read;
    }));
  }

  readVersion(): number | undefined {
    return this.stateRead?.version;
  }

  hierarchy(): Promise<TypeHierarchy> {
    return (this.hierarchyPromise ??= this.state()
      .then((s) => this.caches.hierarchy.get(s.typesVersion, () => this.source.allTypes()))
      .then((types) => (this.hierarchyLoaded = types)));
  }

  loadedHierarchy(): TypeHierarchy | undefined {
    return this.hierarchyLoaded;
  }

  /**
   * Every read of registry data is preceded by reading the registry version,
   * so whatever this request shows can be tagged with a version no newer than
   * its data (the response cache relies on it).
   */
  get reader(): RegistryReader {
    return (this.versionedReader ??= new Proxy(this.source, {
      get: (target, property, receiver) => {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function' || property === 'registryState') return value;
        return async (...args: unknown[]) => {
          await this.state();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }));
  }

  get resourceById() {
    return this.loader<ResourceInfo | null>('resourceById', () =>
      this.cached<ResourceInfo>('resource', (ids) =>
        this.source.resourcesByIds(ids).then((rows) => byKey(ids, rows, (r) => r.id)),
      ),
    );
  }
  get resourceByRef() {
    return this.loader<ResourceInfo | null>('resourceByRef', () =>
      this.cached<ResourceInfo>('resource-ref', (refs) =>
        this.source.resourcesByRefs(refs).then((rows) => byRef(refs, rows)),
      ),
    );
  }
  get toolById() {
    return this.loader<ToolRecord | null>('toolById', () =>
      this.cached<ToolRecord>('tool', (ids) =>
        this.source.toolsByIds(ids).then((rows) => byKey(ids, rows, (r) => r.id)),
      ),
    );
  }
  get toolByRef() {
    return this.loader<ToolRecord | null>('toolByRef', () =>
      this.cached<ToolRecord>('tool-ref', (refs) => this.source.toolsByRefs(refs).then((rows) => byRef(refs, rows))),
    );
  }
  get projectById() {
    return this.loader<ProjectRecord | null>('projectById', () =>
      this.cached<ProjectRecord>('project', (ids) =>
        this.source.projectsByIds(ids).then((rows) => byKey(ids, rows, (r) => r.id)),
      ),
    );
  }
  get projectByRef() {
    return this.loader<ProjectRecord | null>('projectByRef', () =>
      this.cached<ProjectRecord>('project-ref', (refs) =>
        this.source.projectsByRefs(refs).then((rows) => byRef(refs, rows)),
      ),
    );
  }
  get slotsByToolId() {
    return this.loader<SlotRecord[]>(
      'slotsByToolId',
      () =>
        this.cached<SlotRecord[]>('slots', (ids) =>
          this.source.slotsByToolIds(ids).then((rows) => groupBy(ids, rows, (r) => r.toolId)),
        ) as (ids: readonly string[]) => Promise<SlotRecord[][]>,
    );
  }
  get linksByProjectId() {
    return this.loader<LinkRecord[]>(
      'linksByProjectId',
      () =>
        this.cached<LinkRecord[]>('links', (ids) =>
          this.source.linksByProjectIds(ids).then((rows) => groupBy(ids, rows, (r) => r.projectId)),
        ) as (ids: readonly string[]) => Promise<LinkRecord[][]>,
    );
  }
  get staticSlotsByResourceId() {
    return this.loader<{ toolId: string; slot: string }[]>(
      'staticSlotsByResourceId',
      () => (ids: readonly string[]) =>
        this.reader.staticSlotsByResourceIds(ids).then((rows) => groupBy(ids, rows, (r) => r.resourceId)),
    );
  }
  get linksByResourceId() {
    return this.loader<{ projectId: string; alias: string | null }[]>(
      'linksByResourceId',
      () => (ids: readonly string[]) =>
        this.reader.linksByResourceIds(ids).then((rows) => groupBy(ids, rows, (r) => r.resourceId)),
    );
  }
  get compatibleResources(): DataLoader<CompatibleResourcesKey, Page<ResourceInfo>, string> {
    let loader = this.made.get('compatibleResources') as
      DataLoader<CompatibleResourcesKey, Page<ResourceInfo>, string> | undefined;
    if (!loader) {
      loader = new DataLoader((keys) => this.compatiblePages(keys), { cacheKeyFn: compatibleKey });
      this.made.set('compatibleResources', loader as unknown as DataLoader<never, unknown, unknown>);
    }
    return loader;
  }

  clearAll(): void {
    this.statePromise = null;
    this.stateRead = undefined;
    this.hierarchyPromise = null;
    this.hierarchyLoaded = undefined;
    for (const loader of this.made.values()) loader.clearAll();
  }

  /** The loader of this name, made on first use. */
  private loader<V>(
    name: string,
    batch: () => (keys: readonly string[]) => Promise<(V | Error)[]>,
  ): DataLoader<string, V> {
    let loader = this.made.get(name) as DataLoader<string, V> | undefined;
    if (!loader) {
      loader = new DataLoader<string, V>(batch());
      this.made.set(name, loader as unknown as DataLoader<never, unknown, unknown>);
    }
    return loader;
  }

  /**
   * A batch through the record cache: what the current registry version has
   * cached is answered from memory, the rest is read in one statement.
   */
  private cached<V>(kind: string, load: (keys: readonly string[]) => Promise<(V | null)[]>) {
    return async (keys: readonly string[]): Promise<(V | null)[]> => {
      const { version } = await this.state();
      const found = this.caches.records.lookup<V>(version, kind, keys);
      const missing = keys.filter((_, i) => found[i] === undefined);
      if (missing.length === 0) return found as (V | null)[];
      const loaded = await load(missing);
      this.caches.records.store(
        version,
        kind,
        missing.map((key, i) => [key, loaded[i]] as const),
      );
      let next = 0;
      return found.map((value) => (value === undefined ? loaded[next++] : value));
    };
  }

  /** One pair of statements per distinct (first, after); a dashboard asks the same page of every row. */
  private async compatiblePages(keys: readonly CompatibleResourcesKey[]): Promise<Page<ResourceInfo>[]> {
    const types = await this.hierarchy();
    const results = new Map<string, Page<ResourceInfo>>();
    const groups = new Map<string, CompatibleResourcesKey[]>();
    for (const key of keys) {
      const group = JSON.stringify([key.first, key.afterName]);
      groups.set(group, [...(groups.get(group) ?? []), key]);
    }
    for (const group of groups.values()) {
      const { first, afterName } = group[0];
      const sets = group.map((key) => ({
        key: key.typeId,
        typeIds: [key.typeId, ...types.descendantsOf(key.typeId).map((t) => t.id)],
      }));
      const pages = await this.reader.resourcePagesByTypeSets(sets, first, afterName);
      for (const key of group) results.set(compatibleKey(key), pages.get(key.typeId)!);
    }
    return keys.map((key) => results.get(compatibleKey(key))!);
  }
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
