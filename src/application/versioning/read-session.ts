import DataLoader from 'dataloader';
import { isIdRef } from '../../core/grammar';
import type { TypeHierarchy } from '../../core/type-hierarchy';
import type {
  ChangeFilter,
  ChangePageRequest,
  ChangeRecord,
  LinkRecord,
  Page,
  PageRequest,
  ProjectRecord,
  RegistryState,
  ResourceRecord,
  SlotRecord,
  ToolRecord,
  TypeRecord,
  Window,
} from '../../persistence/records';
import type { NamedTable, RegistryReader } from '../../persistence/registry-reader';
import type { ChangeKind } from '../../core/registry-edit';
import type { HierarchyCache } from './hierarchy-cache';
import type { ChangeIndex } from './change-index';
import { DEPENDS, type DependencyKey, type Named } from './dependencies';
import type { RecordCache } from './record-cache';
import type { RegistryClock } from './registry-clock';

/** What the response cache needs to know of a request: the version it pinned, and the version now. */
export interface VersionProbe {
  /** The registry version this request's reads were pinned to, or undefined when it read no registry data. */
  pinnedVersion(): number | undefined;
  /** The registry version now; pins it for the rest of the request. */
  currentVersion(): Promise<number>;
  /** What this request's reads depend on (see ./dependencies.ts). */
  dependencies(): readonly DependencyKey[];
  /**
   * True when an answer computed at `version`, which read `dependencies`, is
   * still right now: no write since touched any of them. Pins the current version.
   */
  unchangedSince(version: number, dependencies: readonly DependencyKey[]): Promise<boolean>;
}

/** Which page of which type's compatible resources. */
export interface CompatibleResourcesKey {
  readonly typeId: string;
  readonly window: Window<string>;
}

/** The caches every session shares, and the clock that says which registry version they must match. */
export interface SessionCaches {
  readonly clock: RegistryClock;
  readonly hierarchy: HierarchyCache;
  /** Null when records are not cached (RECORD_CACHE=false): every record is read from the database. */
  readonly records: RecordCache | null;
  /** Which version last touched each dependency key. */
  readonly changes: ChangeIndex;
}

/**
 * One request's reads of the registry. The session pins the registry version
 * once, before its first read, and every read goes through `read`, which pins
 * first: so whatever the request shows is no older than the version it
 * reports, and the shared caches answer only for that version. The session is
 * the only holder of the registry reader; nothing else can reach it.
 *
 * Lookups are DataLoaders, made on first use, that batch the keys asked for
 * in one tick into one statement each (and answer from the record cache what
 * the pinned version has cached). A request that reads nothing (an answer
 * from the response cache, `{ __typename }`) costs next to nothing.
 */
export class ReadSession implements VersionProbe {
  private pinned: Promise<RegistryState> | null = null;
  private pinnedState: RegistryState | undefined;
  private hierarchyPromise: Promise<TypeHierarchy> | null = null;
  private hierarchyLoaded: TypeHierarchy | undefined;
  private readonly made = new Map<string, DataLoader<never, unknown, unknown>>();
  /** What the cached batches answered, by kind and key, for the synchronous `loaded…` reads. */
  private readonly answered = new Map<string, Map<string, unknown>>();
  private readonly depends = new Set<DependencyKey>();
  /** A true private field: not even a cast reaches it from outside. */
  readonly #reader: RegistryReader;

  constructor(
    reader: RegistryReader,
    private readonly caches: SessionCaches,
  ) {
    this.#reader = reader;
  }

  // --- the version -----------------------------------------------------------

  pinnedVersion(): number | undefined {
    return this.pinnedState?.version;
  }

  async currentVersion(): Promise<number> {
    return (await this.pin()).version;
  }

  dependencies(): readonly DependencyKey[] {
    return [...this.depends];
  }

  async unchangedSince(version: number, dependencies: readonly DependencyKey[]): Promise<boolean> {
    return this.caches.changes.unchangedSince(version, dependencies, await this.currentVersion());
  }

  /** Forgets everything read and the pinned version; called after this request writes, so it reads its change. */
  reset(): void {
    this.pinned = null;
    this.pinnedState = undefined;
    this.hierarchyPromise = null;
    this.hierarchyLoaded = undefined;
    this.answered.clear();
    this.depends.clear();
    for (const loader of this.made.values()) loader.clearAll();
  }

  // --- reads -----------------------------------------------------------------

  /** The type hierarchy at the pinned version. */
  hierarchy(): Promise<TypeHierarchy> {
    this.depends.add(DEPENDS.types);
    return (this.hierarchyPromise ??= this.pin()
      .then((state) => this.caches.hierarchy.get(state.typesVersion, () => this.#reader.allTypes()))
      .then((types) => (this.hierarchyLoaded = types)));
  }

  /** The hierarchy if this session has loaded it already, so field resolvers can answer without a promise. */
  loadedHierarchy(): TypeHierarchy | undefined {
    return this.hierarchyLoaded;
  }

  /**
   * A tool's slots if this session has loaded them already (through
   * slotsByToolId), so field resolvers can answer without a promise.
   */
  loadedSlots(toolId: string): SlotRecord[] | undefined {
    const slots = this.answered.get('slots')?.get(toolId) as SlotRecord[] | null | undefined;
    return slots === null ? [] : slots;
  }

  /** A resource (null: none) if this session has loaded it already through resourceById; undefined if not. */
  loadedResource(id: string): ResourceRecord | null | undefined {
    return this.answered.get('resource')?.get(id) as ResourceRecord | null | undefined;
  }

  /** A page of tools by name, optionally only those with a slot of one of the types. */
  pageTools(request: PageRequest, slotTypeIds: readonly string[] | null = null): Promise<Page<ToolRecord>> {
    return this.read((reader) => reader.pageTools(request, slotTypeIds), DEPENDS.list('tool'));
  }

  /** A page of projects by name, optionally only those linking a resource. */
  pageProjects(request: PageRequest, linksResourceId: string | null = null): Promise<Page<ProjectRecord>> {
    return this.read(
      (reader) => reader.pageProjects(request, linksResourceId),
      DEPENDS.list('project'),
      ...(linksResourceId === null ? [] : [DEPENDS.links]),
    );
  }

  /** A page of resource types by name. */
  pageTypes(request: PageRequest): Promise<Page<Omit<TypeRecord, 'parentIds'>>> {
    return this.read((reader) => reader.pageTypes(request), DEPENDS.types);
  }

  /** A page of resources by name, optionally only of the given types. */
  pageResources(request: PageRequest, typeIds: readonly string[] | null, typeCount = 0): Promise<Page<ResourceRecord>> {
    return this.read((reader) => reader.pageResources(request, typeIds, typeCount), DEPENDS.list('resource'));
  }

  /** A page of the change log, oldest first. */
  pageChanges(filter: ChangeFilter, request: ChangePageRequest): Promise<Page<ChangeRecord>> {
    return this.read((reader) => reader.pageChanges(filter, request), DEPENDS.changes);
  }

  /** Change-log entries after a position, up to a version, oldest first (the live feed's reads). */
  changesAfter(after: { version: number; seq: number }, upToVersion: number, limit: number): Promise<ChangeRecord[]> {
    return this.read((reader) => reader.changesAfter(after, upToVersion, limit), DEPENDS.changes);
  }

  /** Existing names that may be close to `ref` (for "did you mean"). */
  nameCandidates(table: NamedTable, ref: string): Promise<string[]> {
    return this.read(
      (reader) => reader.nameCandidates(table, ref),
      table === 'resource_type' ? DEPENDS.types : DEPENDS.list(table),
    );
  }

  /** The id of the thing of this kind last renamed away from `name`, if the change log knows one. */
  renamedFrom(kind: ChangeKind, name: string): Promise<string | undefined> {
    return this.read((reader) => reader.renamedFrom(kind, name), DEPENDS.changes);
  }

  get resourceById(): DataLoader<string, ResourceRecord | null> {
    return this.loader('resourceById', () =>
      this.cachedBatch(
        'resource',
        async (r, ids) => byKey(ids, await r.resourcesByIds(ids), (x) => x.id),
        byIdDependency('resource'),
      ),
    );
  }

  get resourceByRef(): DataLoader<string, ResourceRecord | null> {
    return this.loader('resourceByRef', () =>
      this.cachedBatch(
        'resource-ref',
        async (r, refs) => byRef(refs, await r.resourcesByRefs(refs)),
        byRefDependency('resource'),
      ),
    );
  }

  get toolById(): DataLoader<string, ToolRecord | null> {
    return this.loader('toolById', () =>
      this.cachedBatch(
        'tool',
        async (r, ids) => byKey(ids, await r.toolsByIds(ids), (x) => x.id),
        byIdDependency('tool'),
      ),
    );
  }

  get toolByRef(): DataLoader<string, ToolRecord | null> {
    return this.loader('toolByRef', () =>
      this.cachedBatch('tool-ref', async (r, refs) => byRef(refs, await r.toolsByRefs(refs)), byRefDependency('tool')),
    );
  }

  get projectById(): DataLoader<string, ProjectRecord | null> {
    return this.loader('projectById', () =>
      this.cachedBatch(
        'project',
        async (r, ids) => byKey(ids, await r.projectsByIds(ids), (x) => x.id),
        byIdDependency('project'),
      ),
    );
  }

  get projectByRef(): DataLoader<string, ProjectRecord | null> {
    return this.loader('projectByRef', () =>
      this.cachedBatch(
        'project-ref',
        async (r, refs) => byRef(refs, await r.projectsByRefs(refs)),
        byRefDependency('project'),
      ),
    );
  }

  /** Change-log entries by id (entries never change, but the pinned version decides which exist). */
  get changeById(): DataLoader<string, ChangeRecord | null> {
    return this.loader(
      'changeById',
      () => (ids) => this.read(async (r) => byKey(ids, await r.changesByIds(ids), (x) => x.id), DEPENDS.changes),
    );
  }

  /** Each tool's slots, in declaration order. */
  get slotsByToolId(): DataLoader<string, SlotRecord[]> {
    return this.loader('slotsByToolId', () =>
      this.cachedGroups(
        'slots',
        async (r, ids) => groupBy(ids, await r.slotsByToolIds(ids), (x) => x.toolId),
        (id) => [DEPENDS.thing('tool', id)],
      ),
    );
  }

  /** Each project's links with their resources, ordered by resource name. */
  get linksByProjectId(): DataLoader<string, LinkRecord[]> {
    return this.loader('linksByProjectId', () =>
      this.cachedGroups(
        'links',
        async (r, ids) => groupBy(ids, await r.linksByProjectIds(ids), (x) => x.projectId),
        // A link carries its resource's record, so the answer depends on each linked resource too.
        (id, links) => [
          DEPENDS.thing('project', id),
          ...(links ?? []).map((l) => DEPENDS.thing('resource', l.resource.id)),
        ],
      ),
    );
  }

  /** The tool slots that bind a resource statically. */
  get staticSlotsByResourceId(): DataLoader<string, { toolId: string; slot: string }[]> {
    return this.loader(
      'staticSlotsByResourceId',
      () => (ids) =>
        this.read(
          async (r) => groupBy(ids, await r.staticSlotsByResourceIds(ids), (x) => x.resourceId),
          DEPENDS.staticBindings,
        ),
    );
  }

  /** The projects that link a resource, with the alias. */
  get linksByResourceId(): DataLoader<string, { projectId: string; alias: string | null }[]> {
    return this.loader('linksByResourceId', () => (ids) => {
      for (const id of ids) this.depends.add(DEPENDS.linksOf(id));
      return this.read(async (r) => groupBy(ids, await r.linksByResourceIds(ids), (x) => x.resourceId));
    });
  }

  /** A page of the resources that fill a slot of a type (the type and its sub-types). */
  get compatibleResources(): DataLoader<CompatibleResourcesKey, Page<ResourceRecord>, string> {
    let loader = this.made.get('compatibleResources') as
      DataLoader<CompatibleResourcesKey, Page<ResourceRecord>, string> | undefined;
    if (!loader) {
      loader = new DataLoader((keys) => this.compatiblePages(keys), { cacheKeyFn: compatibleKey });
      this.made.set('compatibleResources', loader);
    }
    return loader;
  }

  // --- the one way to the reader ---------------------------------------------

  /** Pins the registry version (once per session, until a reset). */
  private pin(): Promise<RegistryState> {
    return (this.pinned ??= this.caches.clock.current().then(
      (state) => (this.pinnedState = state),
      (error: unknown) => {
        // A failed read pins nothing: the next read of this session tries again.
        this.pinned = null;
        throw error;
      },
    ));
  }

  /** Every read of registry data: records what it depends on, pins the version, then reads. */
  private async read<T>(use: (reader: RegistryReader) => Promise<T>, ...depends: DependencyKey[]): Promise<T> {
    for (const key of depends) this.depends.add(key);
    await this.pin();
    return use(this.#reader);
  }

  /** The loader of this name, made on first use. */
  private loader<V>(
    name: string,
    batch: () => (keys: readonly string[]) => Promise<(V | Error)[]>,
  ): DataLoader<string, V> {
    let loader = this.made.get(name) as DataLoader<string, V> | undefined;
    if (!loader) {
      loader = new DataLoader<string, V>(batch());
      this.made.set(name, loader);
    }
    return loader;
  }

  /**
   * A batch through the record cache: what is cached and still right at the
   * pinned version (no write since touched what it depends on, the same keys
   * the request records) is answered from memory, the rest is read in one
   * statement.
   */
  private cachedBatch<V>(
    kind: string,
    load: (reader: RegistryReader, keys: readonly string[]) => Promise<(V | null)[]>,
    dependsOn: (key: string, value: V | null) => DependencyKey[],
  ): (keys: readonly string[]) => Promise<(V | null)[]> {
    return async (keys) => {
      const { version } = await this.pin();
      const { changes, records } = this.caches;
      const catchingUp = records ? changes.caughtUpTo(version) : undefined;
      if (catchingUp) await catchingUp;
      const found = records
        ? records.lookup<V>(version, kind, keys, (key, value, since) =>
            changes.unchangedSinceKnown(since, dependsOn(key, value), version),
          )
        : keys.map(() => undefined);
      const missing = keys.filter((_, i) => found[i] === undefined);
      let values = found as (V | null)[];
      if (missing.length > 0) {
        const loaded = await this.read((reader) => load(reader, missing));
        records?.store(
          version,
          kind,
          missing.map((key, i) => [key, loaded[i]] as const),
        );
        let next = 0;
        values = found.map((value) => (value === undefined ? loaded[next++] : value));
      }
      // Whether from the record cache or the database, the answer depends on what was read.
      let answered = this.answered.get(kind);
      if (!answered) this.answered.set(kind, (answered = new Map<string, unknown>()));
      keys.forEach((key, i) => {
        for (const dependency of dependsOn(key, values[i])) this.depends.add(dependency);
        answered.set(key, values[i]);
      });
      return values;
    };
  }

  /** Like cachedBatch, for lookups whose every key has a list (never a miss). */
  private cachedGroups<V>(
    kind: string,
    load: (reader: RegistryReader, keys: readonly string[]) => Promise<V[][]>,
    dependsOn: (key: string, value: V[] | null) => DependencyKey[],
  ): (keys: readonly string[]) => Promise<V[][]> {
    const batch = this.cachedBatch<V[]>(kind, load, dependsOn);
    return async (keys) => (await batch(keys)).map((group) => group ?? []);
  }

  /** One pair of statements per distinct window; a dashboard asks the same page of every row. */
  private async compatiblePages(keys: readonly CompatibleResourcesKey[]): Promise<Page<ResourceRecord>[]> {
    const types = await this.hierarchy();
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
      const pages = await this.read(
        (reader) => reader.resourcePagesByTypeSets(sets, window, types.size),
        DEPENDS.list('resource'),
      );
      for (const key of group) results.set(compatibleKey(key), pages.get(key.typeId)!);
    }
    return keys.map((key) => results.get(compatibleKey(key))!);
  }
}

/** A DataLoader.loadMany entry: the value, or null for a miss; a failed load is rethrown, never read as a miss. */
export function loaded<T>(entry: T | null | Error): T | null {
  if (entry instanceof Error) throw entry;
  return entry;
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
