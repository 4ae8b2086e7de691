import type { TypeHierarchy } from '../../core/type-hierarchy';
import type { ChangeKind } from '../../core/registry-edit';
import type {
  ChangeFilter,
  ChangePageRequest,
  ChangeHead,
  ChangeRecord,
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
} from '../../persistence/records';
import type { NamedTable, RegistryReader } from '../../persistence/registry-reader';
import { AccessReads } from './access-reads';
import { DEPENDS, type DependencyKey, type Named } from './dependencies';
import { DependencyRecorder } from './dependency-recorder';
import { loaded, type Loader } from './loader';
import {
  ByIdOrName,
  LOADER_KINDS,
  REF_LOADER_SLOTS,
  type CompatibleResourcesKey,
  type FittingLinks,
} from './loader-kinds';
import { LoaderRegistry, SessionLoader, type LoaderKind } from './loader-registry';
import type { SessionCaches } from './session-caches';
import { VersionPin } from './version-pin';

export type { Loader } from './loader';
export type { CompatibleResourcesKey, FittingLinks } from './loader-kinds';
export type { SessionCaches } from './session-caches';

/** The version a session reads at, and whether what was computed earlier is still right at it (ReadSession.freshness). */
export interface Freshness {
  readonly version: number;
  readonly unchangedSince: (since: number, dependencies: readonly DependencyKey[]) => boolean;
}

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
 * One request's reads of the registry. The session pins the registry version
 * once, before its first read (./version-pin.ts), and every read goes through
 * `read`, which pins first: so whatever the request shows is no older than
 * the version it reports, and the shared caches answer only for that version.
 * The session is the only holder of the registry reader; nothing else can reach it.
 *
 * Lookups are the request's loaders (./loader-registry.ts, ./loader-kinds.ts),
 * DataLoaders made on first use, that batch the keys asked for in one tick
 * into one statement each (and answer from the record cache what the pinned
 * version has cached). Every read records what it depends on
 * (./dependency-recorder.ts). A request that reads nothing (an answer from
 * the response cache, `{ __typename }`) costs next to nothing.
 */
export class ReadSession implements VersionProbe {
  private readonly pin: VersionPin;
  /** The request's loaders, made by its root session and shared with its forks. */
  private readonly loaders: LoaderRegistry;
  private readonly recorder = new DependencyRecorder();
  private hierarchyPromise: Promise<TypeHierarchy> | null = null;
  private hierarchyLoaded: TypeHierarchy | undefined;
  /** This session's views of the request's loaders (see `loaderOf`), by kind slot. */
  private readonly views: (Loader<never, unknown> | undefined)[] = [];
  /** A true private field: not even a cast reaches it from outside. */
  readonly #reader: RegistryReader;
  private accessReads: AccessReads | undefined;

  /** A request's session; with `forkOf`, a fork of that session (see `fork`). */
  constructor(
    reader: RegistryReader,
    private readonly caches: SessionCaches,
    forkOf?: ReadSession,
  ) {
    this.#reader = reader;
    if (forkOf) {
      this.pin = forkOf.pin.copy();
      this.loaders = forkOf.loaders;
      this.hierarchyPromise = forkOf.hierarchyPromise;
      this.hierarchyLoaded = forkOf.hierarchyLoaded;
    } else {
      this.pin = new VersionPin(caches.clock);
      this.loaders = new LoaderRegistry(reader, caches, this.pin, this);
    }
  }

  /**
   * A session for a part of this request's work whose dependencies must be
   * told apart: it reads at this session's registry version (pinning it first
   * if need be) through the same loaders, so that parts computed together are
   * read in the same batches as one request's reads are, and it records for
   * itself what each of its reads depended on (`dependencies()`), which this
   * session takes only when told to (`recordDependencies`).
   */
  async fork(): Promise<ReadSession> {
    await this.pin.pin();
    return new ReadSession(this.#reader, this.caches, this);
  }

  /** Grants and API tokens (./access-reads.ts), read like everything else, through this session (made on first use). */
  get access(): AccessReads {
    return (this.accessReads ??= new AccessReads(this.caches.access, {
      pinned: async () => (await this.pin.pin()).version,
      pinnedNow: () => (this.pinnedNow() ? this.pin.state!.version : undefined),
      read: (use) => this.read(use, DEPENDS.access),
      recordAccess: () => this.recorder.recordDependency(DEPENDS.access),
    }));
  }

  /** Records that this request's answer depends on `keys` too (e.g. what a fork or a kept part read). */
  recordDependencies(keys: readonly DependencyKey[]): void {
    this.recorder.recordDependencies(keys);
  }

  /**
   * The pinned version (pinned first), and a check, answered at once, of
   * whether something computed at an earlier version that read
   * `dependencies` is still right at it: no write since touched any of them.
   * For what a caller keeps across requests in a version-keyed cache of its
   * own (RegistryVersioning.keptCache); what it then uses, it records here
   * (`recordDependencies`).
   */
  async freshness(): Promise<Freshness> {
    const { version } = await this.pin.pin();
    const { changes } = this.caches;
    const catchingUp = changes.caughtUpTo(version);
    if (catchingUp) await catchingUp;
    return {
      version,
      unchangedSince: (since, dependencies) => changes.unchangedSinceKnown(since, dependencies, version),
    };
  }

  // --- the version -----------------------------------------------------------

  pinnedVersion(): number | undefined {
    return this.pin.state?.version;
  }

  /**
   * Pins the registry version now when that needs no wait (already pinned,
   * or a clock that keeps the version in memory, as on SQLite) and says so;
   * false when a pin must be waited for (`currentVersion`).
   */
  pinnedNow(): boolean {
    return this.pin.pinNow();
  }

  async currentVersion(): Promise<number> {
    return (await this.pin.pin()).version;
  }

  dependencies(): readonly DependencyKey[] {
    return this.recorder.dependencies();
  }

  async unchangedSince(version: number, dependencies: readonly DependencyKey[]): Promise<boolean> {
    return this.caches.changes.unchangedSince(version, dependencies, await this.currentVersion());
  }

  /** Forgets everything read and the pinned version; called after this request writes, so it reads its change. */
  reset(): void {
    this.pin.reset();
    this.hierarchyPromise = null;
    this.hierarchyLoaded = undefined;
    this.loaders.clear();
    this.recorder.clear();
    this.views.length = 0;
  }

  // --- reads -----------------------------------------------------------------

  /** The type hierarchy at the pinned version. */
  hierarchy(): Promise<TypeHierarchy> {
    this.recorder.recordDependency(DEPENDS.types);
    return (this.hierarchyPromise ??= this.pin
      .pin()
      .then((state) => this.caches.hierarchy.get(state.typesVersion, () => this.#reader.allTypes()))
      .then((types) => (this.hierarchyLoaded = types)));
  }

  /** The hierarchy if this session has loaded it already, so a caller can answer without a promise. */
  loadedHierarchy(): TypeHierarchy | undefined {
    const pinned = this.pin.state;
    if (!this.hierarchyLoaded && pinned) {
      // Pinned already, and the shared copy is the one for the pinned types version: no need to wait for it.
      const cached = this.caches.hierarchy.peek(pinned.typesVersion);
      if (cached) {
        this.hierarchyLoaded = cached;
        this.hierarchyPromise ??= Promise.resolve(cached);
      }
    }
    // A fork may hold the hierarchy its parent loaded: what it answers with, it depends on.
    if (this.hierarchyLoaded) this.recorder.recordDependency(DEPENDS.types);
    return this.hierarchyLoaded;
  }

  /**
   * A tool's slots if this request has loaded them already (through
   * slotsByToolId), so a caller can answer without a promise.
   */
  loadedSlots(toolId: string): SlotRecord[] | undefined {
    const slots = this.loaders.answer(LOADER_KINDS.slots.name, toolId);
    if (slots === undefined) return undefined;
    // Loaded by this request, perhaps for another of its parts: the answer depends on them here too.
    this.recorder.recordDependencies(slots);
    return (slots.value as SlotRecord[] | null) ?? [];
  }

  /** A resource (null: none) if this session has loaded it already through resourceById; undefined if not. */
  loadedResource(id: string): ResourceRecord | null | undefined {
    const resource = this.loaders.answer(LOADER_KINDS.resource.name, id);
    if (resource === undefined) return undefined;
    this.recorder.recordDependencies(resource);
    return resource.value as ResourceRecord | null;
  }

  /**
   * A page of tools by name, optionally only those with a slot of one of the
   * types: each item's id and name (for their records, `recordsOf`: read with
   * the page when it is read from the database, else from the record cache). Read once per request for the same page (a page's
   * skeleton and the page run whole read the same one).
   */
  pageTools(request: PageRequest, slotTypeIds: readonly string[] | null = null): Promise<Page<NamedItem>> {
    return this.pageRead('tool', request, slotTypeIds, [], async (reader) =>
      this.loaders.primedPage(LOADER_KINDS.tool, await reader.pageTools(request, slotTypeIds)),
    );
  }

  /** A page of projects by name, optionally only those linking a resource (ids and names, as pageTools). */
  pageProjects(request: PageRequest, linksResourceId: string | null = null): Promise<Page<NamedItem>> {
    return this.pageRead(
      'project',
      request,
      linksResourceId,
      linksResourceId === null ? [] : [DEPENDS.links],
      async (reader) =>
        this.loaders.primedPage(LOADER_KINDS.project, await reader.pageProjects(request, linksResourceId)),
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

  /** Like changesAfter, without the binding changes (the live feed's reads for subscriptions that show none). */
  changeHeadsAfter(after: { version: number; seq: number }, upToVersion: number, limit: number): Promise<ChangeHead[]> {
    return this.read((reader) => reader.changeHeadsAfter(after, upToVersion, limit), DEPENDS.changes);
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

  // --- loaders ---------------------------------------------------------------
  // Each getter hands over a kind made once (./loader-kinds.ts), so that asking for a loader the session has
  // already made allocates nothing: a resolve asks for one a dozen times.

  get resourceById(): Loader<string, ResourceRecord | null> {
    return this.loaderOf(LOADER_KINDS.resource);
  }

  get resourceByRef(): Loader<string, ResourceRecord | null> {
    return this.refLoader(REF_LOADER_SLOTS.resource, LOADER_KINDS.resource, LOADER_KINDS.resourceRef);
  }

  get toolById(): Loader<string, ToolRecord | null> {
    return this.loaderOf(LOADER_KINDS.tool);
  }

  get toolByRef(): Loader<string, ToolRecord | null> {
    return this.refLoader(REF_LOADER_SLOTS.tool, LOADER_KINDS.tool, LOADER_KINDS.toolRef);
  }

  get projectById(): Loader<string, ProjectRecord | null> {
    return this.loaderOf(LOADER_KINDS.project);
  }

  get projectByRef(): Loader<string, ProjectRecord | null> {
    return this.refLoader(REF_LOADER_SLOTS.project, LOADER_KINDS.project, LOADER_KINDS.projectRef);
  }

  /** Each tool's slots, in declaration order. */
  get slotsByToolId(): Loader<string, SlotRecord[]> {
    return this.loaderOf(LOADER_KINDS.slots);
  }

  /** Each project's links with their resources, ordered by resource name. */
  get linksByProjectId(): Loader<string, LinkRecord[]> {
    return this.loaderOf(LOADER_KINDS.links);
  }

  /** A project's links whose resource fits a slot type, by `fittingLinksKey(project, type)` (see FittingLinks). */
  get fittingLinks(): Loader<string, FittingLinks | null> {
    return this.loaderOf(LOADER_KINDS.fittingLinks);
  }

  /** Change-log entries by id (entries never change, but the pinned version decides which exist). */
  get changeById(): Loader<string, ChangeRecord | null> {
    return this.loaderOf(LOADER_KINDS.changes);
  }

  /** The tool slots that bind a resource statically. */
  get staticSlotsByResourceId(): Loader<string, { toolId: string; slot: string }[]> {
    return this.loaderOf(LOADER_KINDS.staticSlots);
  }

  /** The projects that link a resource, with the alias. */
  get linksByResourceId(): Loader<string, { projectId: string; alias: string | null }[]> {
    return this.loaderOf(LOADER_KINDS.resourceLinks);
  }

  /** A page of the resources that fill a slot of a type (the type and its sub-types). */
  get compatibleResources(): Loader<CompatibleResourcesKey, Page<ResourceRecord>> {
    return this.loaderOf(LOADER_KINDS.compatible);
  }

  // --- the one way to the reader ---------------------------------------------

  /** Every read of registry data: records what it depends on, pins the version, then reads. */
  private async read<T>(use: (reader: RegistryReader) => Promise<T>, ...depends: DependencyKey[]): Promise<T> {
    for (const key of depends) this.recorder.recordDependency(key);
    await this.pin.pin();
    return use(this.#reader);
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
    this.recorder.recordDependency(DEPENDS.list(kind));
    for (const key of depends) this.recorder.recordDependency(key);
    const key = JSON.stringify([kind, request, filter]);
    const { pages } = this.loaders;
    let page = pages.get(key);
    if (!page) {
      const { names } = this.caches;
      page =
        names && filter === null && !request.nameContains
          ? this.pin
              .pin()
              .then((state: RegistryState) =>
                names.page(kind, request, state.version, () => this.read((reader) => reader.allNames(kind))),
              )
          : this.read(read);
      pages.set(key, page);
      // A failed read is not kept: the next asker reads again.
      page.catch(() => pages.delete(key));
    }
    return page;
  }

  /**
   * The session's loader of a kind, made on first use: a view of the
   * request's loader (./loader-registry.ts) that records each answer's
   * dependencies in this session, the root or a fork.
   */
  private loaderOf<K, V>(kind: LoaderKind<K, V>): Loader<K, V> {
    let view = this.views[kind.slot] as Loader<K, V> | undefined;
    if (!view) {
      view = new SessionLoader(kind, this.loaders, this.recorder);
      this.views[kind.slot] = view;
    }
    return view;
  }

  /**
   * A lookup by ref: an id through the by-id loader (the same record, read
   * and cached once, with the same dependency), a name through the by-name one.
   */
  private refLoader<V>(slot: number, byId: LoaderKind<string, V>, byName: LoaderKind<string, V>): Loader<string, V> {
    let view = this.views[slot] as Loader<string, V> | undefined;
    if (!view) {
      view = new ByIdOrName(this.loaderOf(byId), this.loaderOf(byName));
      this.views[slot] = view;
    }
    return view;
  }
}
