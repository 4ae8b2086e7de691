import DataLoader from 'dataloader';
import { isIdRef } from '../../core/grammar';
import type { TypeHierarchy } from '../../core/type-hierarchy';
import type {
  AccessVisibility,
  ApiTokenRecord,
  ChangeFilter,
  ChangePageRequest,
  ChangeRecord,
  GrantFilter,
  GrantRecord,
  LinkRecord,
  NamedItem,
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
import type { AccessCache } from './access-cache';
import type { HierarchyCache } from './hierarchy-cache';
import type { ChangeIndex } from './change-index';
import { DEPENDS, type DependencyKey, type Named } from './dependencies';
import type { NameIndexes } from './name-index';
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

/**
 * A part of an answer that a later request may use again: a serialized piece
 * (GraphQL's page assembly keeps the JSON of one item under one selection),
 * with what its computation read.
 */
export interface AnswerPart {
  /** Its text, as UTF-8. */
  readonly bytes: Buffer;
  readonly dependencies: readonly DependencyKey[];
}

/**
 * A loader as a session hands it out: one key or many, batched with the
 * other loads of the request; `peek` gives the answer at once when it is
 * known without reading (loaded by this request already, or in the record
 * cache and right at the pinned version), else undefined.
 */
export interface Loader<K, V> extends Pick<DataLoader<K, V>, 'load' | 'loadMany'> {
  peek(key: K): V | undefined;
}

/** Numbers the loaders a session hands out (each kind, each view by id or name), so that it keeps them in arrays. */
let loaderSlots = 0;
const newLoaderSlot = (): number => loaderSlots++;

/** Where a session keeps its loaders by ref (id or name), beside those of each kind. */
const REF_VIEWS = { resource: newLoaderSlot(), tool: newLoaderSlot(), project: newLoaderSlot() } as const;

/** How the loaders of one kind work, the same for every session: made once per kind (see `ReadSession.kinds`). */
interface LoaderKind<K, V> {
  /** The loader's name: one loader of each name per request. */
  readonly name: string;
  /** Where a session keeps its loader of the kind (see `loaderOf`). */
  readonly slot: number;
  /** Its DataLoader, made by the request's root session on the request's first load of the kind. */
  readonly make: (root: ReadSession) => DataLoader<K, V, unknown>;
  /** Records in `session` what the answer for `key` depends on. */
  readonly record: (session: ReadSession, key: K, value: V) => void;
  /** The answer for `key` when it is known without reading (see Loader.peek), else undefined. */
  readonly peek?: (root: ReadSession, key: K) => V | undefined;
}

/** One request's loader of a kind, shared by the request's sessions: its DataLoader made on the first load. */
class RequestLoader<K, V> {
  private dataLoader: DataLoader<K, V, unknown> | undefined;

  constructor(
    readonly kind: LoaderKind<K, V>,
    readonly root: ReadSession,
  ) {}

  get loader(): DataLoader<K, V, unknown> {
    return (this.dataLoader ??= this.kind.make(this.root));
  }
}

/** A session's view of a request's loader: the same batches, and after each load its answer's dependencies recorded in the session. */
class SessionLoader<K, V> implements Loader<K, V> {
  constructor(
    private readonly session: ReadSession,
    private readonly shared: RequestLoader<K, V>,
  ) {}

  async load(key: K): Promise<V> {
    const value = await this.shared.loader.load(key);
    this.shared.kind.record(this.session, key, value);
    return value;
  }

  async loadMany(keys: ArrayLike<K>): Promise<(V | Error)[]> {
    const values = await this.shared.loader.loadMany(keys);
    for (let i = 0; i < keys.length; i++) {
      const value = values[i];
      if (!(value instanceof Error)) this.shared.kind.record(this.session, keys[i], value);
    }
    return values;
  }

  peek(key: K): V | undefined {
    const { kind, root } = this.shared;
    const value = kind.peek?.(root, key);
    if (value !== undefined) kind.record(this.session, key, value);
    return value;
  }
}

/**
 * An answer of a cached batch, and the dependency keys of reading it: worked
 * out only when asked for (when an answer is kept, or a part's or a fork's
 * dependencies are taken), since most requests' answers are not kept.
 */
class Answered {
  private keys: readonly DependencyKey[] | undefined;

  constructor(
    readonly value: unknown,
    private readonly key: string,
    private readonly dependsOn: (key: string, value: never) => DependencyKey[],
  ) {}

  get dependencies(): readonly DependencyKey[] {
    return (this.keys ??= this.dependsOn(this.key, this.value as never));
  }
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
  /** Parts of answers kept for later requests (see `parts`); null when records are not cached either. */
  readonly parts: RecordCache | null;
  /** Every tool, project and resource by name, for pages with no filter; null when records are not cached either. */
  readonly names: NameIndexes | null;
  /** Which version last touched each dependency key. */
  readonly changes: ChangeIndex;
  /** Grants and API tokens, as every authenticated request reads them. */
  readonly access: AccessCache;
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
  /** The loaders, made on first use by the root session of the request and shared with its forks. */
  private made: (RequestLoader<never, unknown> | undefined)[] = [];
  /**
   * What the cached batches answered, by kind and key, with the dependency
   * keys of each answer (shared with forks): for the synchronous `loaded…`
   * reads, and for each load to record what it depends on without working it out again.
   */
  private answered = new Map<string, Map<string, Answered>>();
  /** The request's own session: itself, or for a fork the session it was forked from (see `fork`). */
  private root: ReadSession = this;
  /** The pages read so far, by their arguments (shared with forks, as the loaders are). */
  private pageReads = new Map<string, Promise<Page<NamedItem>>>();
  /** This session's views of the loaders (see `loader`). */
  private readonly views: (Loader<never, unknown> | undefined)[] = [];
  private readonly depends = new Set<DependencyKey>();
  /**
   * Lists of keys depended on as a whole (a kept part's, a fork's), and
   * answers read (whose keys are worked out then), joined to `depends` only when asked for.
   */
  private readonly dependsOnLists: (readonly DependencyKey[] | Answered)[] = [];
  /** A true private field: not even a cast reaches it from outside. */
  readonly #reader: RegistryReader;

  constructor(
    reader: RegistryReader,
    private readonly caches: SessionCaches,
  ) {
    this.#reader = reader;
  }

  /**
   * A session for a part of this request's work whose dependencies must be
   * told apart: it reads at this session's registry version (pinning it first
   * if need be) through the same loaders, so that parts computed together are
   * read in the same batches as one request's reads are, and it records for
   * itself what each of its reads depended on (`dependencies()`), which this
   * session takes only when told to (`depend`).
   */
  async fork(): Promise<ReadSession> {
    await this.pin();
    const fork = new ReadSession(this.#reader, this.caches);
    fork.root = this.root;
    fork.made = this.root.made;
    fork.answered = this.root.answered;
    fork.pageReads = this.root.pageReads;
    fork.pinned = this.pinned;
    fork.pinnedState = this.pinnedState;
    fork.hierarchyPromise = this.hierarchyPromise;
    fork.hierarchyLoaded = this.hierarchyLoaded;
    return fork;
  }

  /** Records that this request's answer depends on `keys` too (e.g. what a fork or a kept part read). */
  depend(keys: readonly DependencyKey[]): void {
    this.dependsOnLists.push(keys);
  }

  /** Records that this request's answer depends on what reading `answered` depends on. */
  private dependOn(answered: Answered): void {
    this.dependsOnLists.push(answered);
  }

  /**
   * The kept parts of `kind` for `keys`, right at the pinned version (no
   * write since each was computed touched what it read), or undefined where
   * none is; the answer then depends on what each part found read.
   */
  async parts(kind: string, keys: readonly string[]): Promise<(AnswerPart | undefined)[]> {
    const { version } = await this.pin();
    const { changes, parts } = this.caches;
    if (!parts) return keys.map(() => undefined);
    const catchingUp = changes.caughtUpTo(version);
    if (catchingUp) await catchingUp;
    const found = parts.lookup<AnswerPart>(version, kind, keys, (_key, part, since) =>
      part === null ? false : changes.unchangedSinceKnown(since, part.dependencies, version),
    );
    return found.map((part) => {
      if (!part) return undefined;
      this.depend(part.dependencies);
      return part;
    });
  }

  /** Keeps parts computed at this session's pinned version, for later requests. */
  keepParts(kind: string, entries: readonly (readonly [string, AnswerPart])[]): void {
    const version = this.pinnedState?.version;
    if (version === undefined || !this.caches.parts) return;
    this.caches.parts.store(version, kind, entries);
  }

  // --- the version -----------------------------------------------------------

  pinnedVersion(): number | undefined {
    return this.pinnedState?.version;
  }

  /**
   * Pins the registry version now when that needs no wait (already pinned,
   * or a clock that keeps the version in memory, as on SQLite) and says so;
   * false when a pin must be waited for (`currentVersion`).
   */
  pinnedNow(): boolean {
    if (this.pinnedState) return true;
    if (this.pinned) return false;
    const state = this.caches.clock.currentNow?.();
    if (state === undefined) return false;
    this.pinnedState = state;
    this.pinned = Promise.resolve(state);
    return true;
  }

  async currentVersion(): Promise<number> {
    return (await this.pin()).version;
  }

  dependencies(): readonly DependencyKey[] {
    if (this.dependsOnLists.length === 0) return [...this.depends];
    const all = new Set(this.depends);
    for (const list of this.dependsOnLists)
      for (const key of list instanceof Answered ? list.dependencies : list) all.add(key);
    return [...all];
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
    this.dependsOnLists.length = 0;
    this.made.length = 0;
    this.views.length = 0;
    this.pageReads.clear();
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
    if (!this.hierarchyLoaded && this.pinnedState) {
      // Pinned already, and the shared copy is the one for the pinned types version: no need to wait for it.
      const cached = this.caches.hierarchy.peek(this.pinnedState.typesVersion);
      if (cached) {
        this.hierarchyLoaded = cached;
        this.hierarchyPromise ??= Promise.resolve(cached);
      }
    }
    // A fork may hold the hierarchy its parent loaded: what it answers with, it depends on.
    if (this.hierarchyLoaded) this.depends.add(DEPENDS.types);
    return this.hierarchyLoaded;
  }

  /**
   * A tool's slots if this request has loaded them already (through
   * slotsByToolId), so field resolvers can answer without a promise.
   */
  loadedSlots(toolId: string): SlotRecord[] | undefined {
    const slots = this.answered.get('slots')?.get(toolId);
    if (slots === undefined) return undefined;
    // Loaded by this request, perhaps for another of its parts: the answer depends on them here too.
    this.dependOn(slots);
    return (slots.value as SlotRecord[] | null) ?? [];
  }

  /** A resource (null: none) if this session has loaded it already through resourceById; undefined if not. */
  loadedResource(id: string): ResourceRecord | null | undefined {
    const resource = this.answered.get('resource')?.get(id);
    if (resource === undefined) return undefined;
    this.dependOn(resource);
    return resource.value as ResourceRecord | null;
  }

  /**
   * A page of tools by name, optionally only those with a slot of one of the
   * types: each item's id and name, from the name index alone (for their
   * records, `recordsOf`). Read once per request for the same page (a page's
   * skeleton and the page run whole read the same one).
   */
  pageTools(request: PageRequest, slotTypeIds: readonly string[] | null = null): Promise<Page<NamedItem>> {
    return this.pageRead('tool', request, slotTypeIds, [], (reader) => reader.pageToolNames(request, slotTypeIds));
  }

  /** A page of projects by name, optionally only those linking a resource (ids and names, as pageTools). */
  pageProjects(request: PageRequest, linksResourceId: string | null = null): Promise<Page<NamedItem>> {
    return this.pageRead(
      'project',
      request,
      linksResourceId,
      linksResourceId === null ? [] : [DEPENDS.links],
      (reader) => reader.pageProjectNames(request, linksResourceId),
    );
  }

  /** A page of resource types by name. */
  pageTypes(request: PageRequest): Promise<Page<Omit<TypeRecord, 'parentIds'>>> {
    return this.read((reader) => reader.pageTypes(request), DEPENDS.types);
  }

  /** A page of resources by name, optionally only of the given types (ids and names, as pageTools). */
  pageResources(request: PageRequest, typeIds: readonly string[] | null, typeCount = 0): Promise<Page<NamedItem>> {
    return this.pageRead('resource', request, typeIds, [], (reader) =>
      reader.pageResourceNames(request, typeIds, typeCount),
    );
  }

  /**
   * A page by name, read once per request (and its forks) for the same
   * arguments; each asker records the dependencies. With no filter at all it
   * comes from the kept list of every name of the kind (./name-index.ts),
   * else from its statements.
   */
  private pageRead(
    kind: Named,
    request: PageRequest,
    filter: unknown,
    depends: readonly DependencyKey[],
    read: (reader: RegistryReader) => Promise<Page<NamedItem>>,
  ): Promise<Page<NamedItem>> {
    this.depends.add(DEPENDS.list(kind));
    for (const key of depends) this.depends.add(key);
    const key = JSON.stringify([kind, request, filter]);
    let page = this.pageReads.get(key);
    if (!page) {
      const { names } = this.caches;
      page =
        names && filter === null && !request.nameContains
          ? this.pin().then((state) =>
              names.page(kind, request, state.version, () => this.read((reader) => reader.allNames(kind))),
            )
          : this.read(read);
      this.pageReads.set(key, page);
      // A failed read is not kept: the next asker reads again.
      page.catch(() => this.pageReads.delete(key));
    }
    return page;
  }

  /**
   * A page of items as a page of their records, through a loader (the record
   * cache, then one statement for the rest). An item whose record is gone (a
   * delete committed between the two reads) is left out: the page then shows
   * the registry as it stands after that delete, which the write's version says.
   */
  async recordsOf<T>(page: Page<NamedItem>, loader: Loader<string, T | null>): Promise<Page<T>> {
    const records = await loader.loadMany(page.items.map((item) => item.id));
    const items: T[] = [];
    for (const record of records) {
      const found = loaded(record);
      if (found !== null) items.push(found);
    }
    return { ...page, items };
  }

  /** A page of the change log, oldest first. */
  pageChanges(filter: ChangeFilter, request: ChangePageRequest): Promise<Page<ChangeRecord>> {
    return this.read((reader) => reader.pageChanges(filter, request), DEPENDS.changes);
  }

  /** Change-log entries after a position, up to a version, oldest first (the live feed's reads). */
  changesAfter(after: { version: number; seq: number }, upToVersion: number, limit: number): Promise<ChangeRecord[]> {
    return this.read((reader) => reader.changesAfter(after, upToVersion, limit), DEPENDS.changes);
  }

  // --- access ---------------------------------------------------------------

  /** Every grant these principals hold, at the pinned version (kept across requests while access is unchanged). */
  async grantsOf(principals: readonly string[]): Promise<GrantRecord[]> {
    this.depends.add(DEPENDS.access);
    const { version } = await this.pin();
    return this.caches.access.grantsOf(principals, version);
  }

  /** The API token whose secret has this SHA-256 digest (hex), or null, at the pinned version (kept as grants are). */
  async apiTokenByDigest(digest: string): Promise<ApiTokenRecord | null> {
    this.depends.add(DEPENDS.access);
    const { version } = await this.pin();
    return this.caches.access.tokenByDigest(digest, version);
  }

  /**
   * The API token with this digest (or null) when it is known without a read: the version pinned without a wait
   * (in memory, as on SQLite, or already), and the token kept since a version no access change has followed.
   * Undefined otherwise (then apiTokenByDigest reads it).
   */
  apiTokenByDigestNow(digest: string): ApiTokenRecord | null | undefined {
    if (!this.pinnedNow()) return undefined;
    const found = this.caches.access.tokenNow(digest, this.pinnedState!.version);
    if (found !== undefined) this.depends.add(DEPENDS.access);
    return found;
  }

  /** A page of role grants, of those visible to the asker. */
  pageGrants(filter: GrantFilter, window: Window<string>): Promise<Page<GrantRecord>> {
    return this.read((reader) => reader.pageGrants(filter, window), DEPENDS.access);
  }

  /** Grants by id. */
  grantsByIds(ids: readonly string[]): Promise<GrantRecord[]> {
    return this.read((reader) => reader.grantsByIds(ids), DEPENDS.access);
  }

  /** API tokens by id, revoked or not. */
  apiTokensByIds(ids: readonly string[]): Promise<ApiTokenRecord[]> {
    return this.read((reader) => reader.apiTokensByIds(ids), DEPENDS.access);
  }

  /** A page of API tokens, of those visible to the asker. */
  pageApiTokens(visible: AccessVisibility, window: Window<string>): Promise<Page<ApiTokenRecord>> {
    return this.read((reader) => reader.pageApiTokens(visible, window), DEPENDS.access);
  }

  /** The API token a ref (id or name) names, revoked or not. */
  apiTokenByRef(ref: string): Promise<ApiTokenRecord | undefined> {
    return this.read((reader) => reader.apiTokenByRef(ref), DEPENDS.access);
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

  // Each getter hands over a kind made once (`kinds`), so that asking for a loader the session has already
  // made allocates nothing: a resolve asks for one a dozen times.

  get resourceById(): Loader<string, ResourceRecord | null> {
    return this.loaderOf(ReadSession.kinds.resource);
  }

  get resourceByRef(): Loader<string, ResourceRecord | null> {
    return this.refLoader(REF_VIEWS.resource, ReadSession.kinds.resource, ReadSession.kinds.resourceRef);
  }

  get toolById(): Loader<string, ToolRecord | null> {
    return this.loaderOf(ReadSession.kinds.tool);
  }

  get toolByRef(): Loader<string, ToolRecord | null> {
    return this.refLoader(REF_VIEWS.tool, ReadSession.kinds.tool, ReadSession.kinds.toolRef);
  }

  get projectById(): Loader<string, ProjectRecord | null> {
    return this.loaderOf(ReadSession.kinds.project);
  }

  get projectByRef(): Loader<string, ProjectRecord | null> {
    return this.refLoader(REF_VIEWS.project, ReadSession.kinds.project, ReadSession.kinds.projectRef);
  }

  /** Each tool's slots, in declaration order. */
  get slotsByToolId(): Loader<string, SlotRecord[]> {
    return this.loaderOf(ReadSession.kinds.slots);
  }

  /** Each project's links with their resources, ordered by resource name. */
  get linksByProjectId(): Loader<string, LinkRecord[]> {
    return this.loaderOf(ReadSession.kinds.links);
  }

  /** Change-log entries by id (entries never change, but the pinned version decides which exist). */
  get changeById(): Loader<string, ChangeRecord | null> {
    return this.loaderOf(ReadSession.kinds.changes);
  }

  /** The tool slots that bind a resource statically. */
  get staticSlotsByResourceId(): Loader<string, { toolId: string; slot: string }[]> {
    return this.loaderOf(ReadSession.kinds.staticSlots);
  }

  /** The projects that link a resource, with the alias. */
  get linksByResourceId(): Loader<string, { projectId: string; alias: string | null }[]> {
    return this.loaderOf(ReadSession.kinds.resourceLinks);
  }

  /** A page of the resources that fill a slot of a type (the type and its sub-types). */
  get compatibleResources(): Loader<CompatibleResourcesKey, Page<ResourceRecord>> {
    return this.loaderOf(ReadSession.kinds.compatible);
  }

  /**
   * A kind of record read through the record cache (see cachedBatch): its
   * batches answer from the cache what is right at the pinned version, and
   * each load records the dependency keys its batch kept with the answer.
   */
  private static throughCache<V, K = string>(kind: CachedKind<V, K>): LoaderKind<K, V> {
    const { name, dependsOn, empty } = kind;
    const keyOf = cacheKeyOf(kind);
    return {
      name,
      slot: newLoaderSlot(),
      make: (root) =>
        new DataLoader<K, V, string>(
          async (keys) => (await root.cachedBatch(kind)(keys)).map((value) => value ?? (empty as V)),
          kind.keyOf ? { cacheKeyFn: kind.keyOf } : undefined,
        ),
      // The batch (or the peek) kept each answer: a load records the answer, whose keys are worked out if asked for.
      record: (session, key, value) => {
        const cacheKey = keyOf(key);
        const answered = session.root.answered.get(name)?.get(cacheKey);
        if (answered) session.dependOn(answered);
        else for (const dependency of dependsOn(cacheKey, value)) session.depends.add(dependency);
      },
      peek: (root, key) => {
        const value = root.cachedNow(name, keyOf(key), dependsOn);
        return value === undefined ? undefined : ((value ?? empty) as V);
      },
    };
  }

  /** A kind of loader that does not go through the record cache, whose every answer depends on what `dependsOn` says. */
  private static plain<K, V>(
    name: string,
    make: (root: ReadSession) => DataLoader<K, V, unknown>,
    dependsOn: (key: K) => DependencyKey[],
  ): LoaderKind<K, V> {
    return {
      name,
      slot: newLoaderSlot(),
      make,
      record: (session, key) => {
        for (const dependency of dependsOn(key)) session.depends.add(dependency);
      },
    };
  }

  /** Every kind of loader, made once for all sessions (static, so that they may read through `read`). */
  private static readonly kinds = {
    resource: ReadSession.throughCache<ResourceRecord | null>({
      name: 'resource',
      load: async (r, ids) => byKey(ids, await r.resourcesByIds(ids), (x) => x.id),
      dependsOn: byIdDependency('resource'),
      empty: null,
    }),
    resourceRef: ReadSession.throughCache<ResourceRecord | null>({
      name: 'resource-ref',
      load: async (r, refs) => byRef(refs, await r.resourcesByRefs(refs)),
      dependsOn: byRefDependency('resource'),
      empty: null,
    }),
    tool: ReadSession.throughCache<ToolRecord | null>({
      name: 'tool',
      load: async (r, ids) => byKey(ids, await r.toolsByIds(ids), (x) => x.id),
      dependsOn: byIdDependency('tool'),
      empty: null,
    }),
    toolRef: ReadSession.throughCache<ToolRecord | null>({
      name: 'tool-ref',
      load: async (r, refs) => byRef(refs, await r.toolsByRefs(refs)),
      dependsOn: byRefDependency('tool'),
      empty: null,
    }),
    project: ReadSession.throughCache<ProjectRecord | null>({
      name: 'project',
      load: async (r, ids) => byKey(ids, await r.projectsByIds(ids), (x) => x.id),
      dependsOn: byIdDependency('project'),
      empty: null,
    }),
    projectRef: ReadSession.throughCache<ProjectRecord | null>({
      name: 'project-ref',
      load: async (r, refs) => byRef(refs, await r.projectsByRefs(refs)),
      dependsOn: byRefDependency('project'),
      empty: null,
    }),
    slots: ReadSession.throughCache<SlotRecord[]>({
      name: 'slots',
      load: async (r, ids) => groupBy(ids, await r.slotsByToolIds(ids), (x) => x.toolId),
      dependsOn: (id) => [DEPENDS.thing('tool', id)],
      empty: [],
    }),
    links: ReadSession.throughCache<LinkRecord[]>({
      name: 'links',
      load: async (r, ids) => groupBy(ids, await r.linksByProjectIds(ids), (x) => x.projectId),
      // A link carries its resource's record, so the answer depends on each linked resource too.
      dependsOn: (id, links) => [
        DEPENDS.thing('project', id),
        ...(links ?? []).map((l) => DEPENDS.thing('resource', l.resource.id)),
      ],
      empty: [],
    }),
    changes: ReadSession.plain<string, ChangeRecord | null>(
      'changeById',
      (root) => new DataLoader((ids) => root.read(async (r) => byKey(ids, await r.changesByIds(ids), (x) => x.id))),
      () => [DEPENDS.changes],
    ),
    // What refers to a resource, and the pages of what fills a type: each kept like a record, with the same
    // dependencies a response that shows it records (a heavy page asks for hundreds of them).
    staticSlots: ReadSession.throughCache<{ toolId: string; slot: string }[]>({
      name: 'staticSlotsByResourceId',
      load: async (r, ids) => groupBy(ids, await r.staticSlotsByResourceIds(ids), (x) => x.resourceId),
      dependsOn: () => [DEPENDS.staticBindings],
      empty: [],
    }),
    resourceLinks: ReadSession.throughCache<{ projectId: string; alias: string | null }[]>({
      name: 'linksByResourceId',
      load: async (r, ids) => groupBy(ids, await r.linksByResourceIds(ids), (x) => x.resourceId),
      dependsOn: (id) => [DEPENDS.linksOf(id)],
      empty: [],
    }),
    compatible: ReadSession.throughCache<Page<ResourceRecord>, CompatibleResourcesKey>({
      name: 'compatibleResources',
      load: (r, keys, root) => root.compatiblePages(r, keys),
      keyOf: compatibleKey,
      dependsOn: () => [DEPENDS.types, DEPENDS.list('resource')],
      empty: null,
    }),
  };

  /**
   * A lookup by ref: an id through the by-id loader (the same record, read
   * and cached once, with the same dependency), a name through the by-name one.
   */
  private refLoader<V>(slot: number, byId: LoaderKind<string, V>, byName: LoaderKind<string, V>): Loader<string, V> {
    const made = this.views[slot] as Loader<string, V> | undefined;
    if (made) return made;
    const view = new ByIdOrName(this.loaderOf(byId), this.loaderOf(byName));
    this.views[slot] = view;
    return view;
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

  /**
   * The session's loader of a kind, made on first use: its DataLoader is the
   * request's, made by the root session (its batches read through the root,
   * so a fork's loads are batched with the rest of the request's). Each load
   * records what its answer depends on in the session that asked, the root
   * or a fork: so a fork's dependencies are its own, even for keys another
   * part loaded first.
   */
  private loaderOf<K, V>(kind: LoaderKind<K, V>): Loader<K, V> {
    const view = this.views[kind.slot] as Loader<K, V> | undefined;
    if (view) return view;
    let shared = this.made[kind.slot] as RequestLoader<K, V> | undefined;
    if (!shared) {
      shared = new RequestLoader(kind, this.root);
      this.made[kind.slot] = shared as unknown as RequestLoader<never, unknown>;
    }
    const made = new SessionLoader(this, shared);
    this.views[kind.slot] = made;
    return made;
  }

  /**
   * What a cached batch would answer for one key, when it is known at once:
   * loaded by this request already, or in the record cache and right at the
   * pinned version (the change index caught up to it). Else undefined.
   */
  private cachedNow<V>(
    kind: string,
    key: string,
    dependsOn: (key: string, value: V | null) => DependencyKey[],
  ): V | null | undefined {
    let answered = this.answered.get(kind);
    const known = answered?.get(key);
    if (known !== undefined) return known.value as V | null;
    const version = this.pinnedState?.version;
    const { changes, records } = this.caches;
    if (version === undefined || !records || changes.caughtUpTo(version) !== undefined) return undefined;
    const entry = records.entryOf<V>(version, kind, key, (k, v, since) =>
      changes.unchangedSinceKnown(since, dependsOn(k, v), version),
    );
    if (entry === undefined) return undefined;
    if (!answered) this.answered.set(kind, (answered = new Map<string, Answered>()));
    answered.set(key, new Answered(entry.value, key, dependsOn));
    return entry.value;
  }

  /**
   * A batch through the record cache: what is cached and still right at the
   * pinned version (no write since touched what it depends on, the same keys
   * the request records) is answered from memory, the rest is read in one
   * statement.
   */
  private cachedBatch<V, K>(kind: CachedKind<V, K>): (keys: readonly K[]) => Promise<(V | null)[]> {
    const { name, load, dependsOn } = kind;
    const keyOf = cacheKeyOf(kind);
    return async (keys) => {
      const { version } = await this.pin();
      const { changes, records } = this.caches;
      const catchingUp = records ? changes.caughtUpTo(version) : undefined;
      if (catchingUp) await catchingUp;
      const cacheKeys = keys.map(keyOf);
      const found = cacheKeys.map((key) =>
        records?.entryOf<V>(version, name, key, (k, v, since) =>
          changes.unchangedSinceKnown(since, dependsOn(k, v), version),
        ),
      );
      const missing: K[] = [];
      const missingKeys: string[] = [];
      found.forEach((entry, i) => {
        if (entry !== undefined) return;
        missing.push(keys[i]);
        missingKeys.push(cacheKeys[i]);
      });
      const loaded = new Map<string, Answered>();
      if (missing.length > 0) {
        const values = await this.read((reader) => load(reader, missing, this));
        records?.store(
          version,
          name,
          missingKeys.map((key, i) => [key, values[i]] as const),
        );
        missingKeys.forEach((key, i) => loaded.set(key, new Answered(values[i], key, dependsOn)));
      }
      // Kept for the synchronous `loaded…` reads, and for each load to record its answer's dependencies (see `loader`).
      let answered = this.answered.get(name);
      if (!answered) this.answered.set(name, (answered = new Map<string, Answered>()));
      return cacheKeys.map((key, i) => {
        const entry = found[i];
        const answer = entry ? new Answered(entry.value, key, dependsOn) : loaded.get(key)!;
        answered.set(key, answer);
        return answer.value as V | null;
      });
    };
  }

  /**
   * The pages of compatible resources for `keys`, read by `reader` (inside a
   * cached batch): one pair of statements per distinct window; a dashboard
   * asks the same page of every row.
   */
  private async compatiblePages(
    reader: RegistryReader,
    keys: readonly CompatibleResourcesKey[],
  ): Promise<Page<ResourceRecord>[]> {
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
      const pages = await reader.resourcePagesByTypeSets(sets, window, types.size);
      for (const key of group) results.set(compatibleKey(key), pages.get(key.typeId)!);
    }
    return keys.map((key) => results.get(compatibleKey(key))!);
  }
}

/** A load that answers at once when the loader knows the answer (see Loader.peek), else the promise of it. */
export function loadNow<V>(loader: Loader<string, V>, key: string): V | Promise<V> {
  const known = loader.peek(key);
  return known !== undefined ? known : loader.load(key);
}

/** loadMany the same way: every answer at once when each is known, else the promise of them all. */
export function loadManyNow<V>(loader: Loader<string, V>, keys: readonly string[]): V[] | Promise<(V | Error)[]> {
  const known: V[] = [];
  for (const key of keys) {
    const value = loader.peek(key);
    if (value === undefined) return loader.loadMany(keys);
    known.push(value);
  }
  return known;
}

/** Several reads at once: their answers now when none must be waited for, else the promise of them all. */
export function allNow<T extends readonly unknown[]>(
  reads: T,
): { -readonly [K in keyof T]: Awaited<T[K]> } | Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  type Answers = { -readonly [K in keyof T]: Awaited<T[K]> };
  return reads.some((read) => read instanceof Promise) ? Promise.all(reads) : (reads as unknown as Answers);
}

/** Whether a value is a promise (a load that must be waited for). */
export function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return value instanceof Promise;
}

/** `use` of a value now when it is one, or once its promise settles (a plain answer stays plain). */
export function thenNow<T, R>(value: T | Promise<T>, use: (value: T) => R | Promise<R>): R | Promise<R> {
  return isPromise(value) ? value.then(use) : use(value);
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

/** A kind of record read through the record cache (see `ReadSession.throughCache`). */
interface CachedKind<V, K = string> {
  /** Its kind in the record cache, and its loader's name. */
  readonly name: string;
  /** Reads the records of `keys`, in key order (null: none), with the session whose batch it is. */
  readonly load: (reader: RegistryReader, keys: readonly K[], session: ReadSession) => Promise<(V | null)[]>;
  /** The key of `key` in the record cache, when the loader's keys are not strings. */
  readonly keyOf?: (key: K) => string;
  /** What an answer for a key (as the record cache keys it) depends on. */
  readonly dependsOn: (key: string, value: V | null) => DependencyKey[];
  /** What a key with nothing found answers (null, or for lists an empty one). */
  readonly empty: V | null;
}

/** A kind's key in the record cache: its own `keyOf`, or the loader's key itself when that is a string. */
function cacheKeyOf<V, K>(kind: CachedKind<V, K>): (key: K) => string {
  return kind.keyOf ?? ((key: K) => key as unknown as string);
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
class ByIdOrName<V> implements Loader<string, V> {
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
