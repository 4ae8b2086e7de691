/**
 * A request's loaders: one DataLoader per kind of lookup, made on the
 * request's first load of the kind and shared by the request's sessions (the
 * root and its forks), so that every part of the request is read in the same
 * batches. Each session sees them through its own views (`SessionLoader`),
 * which record what each answer depends on in that session. The kinds
 * themselves are in ./loader-kinds.ts.
 */
import DataLoader from 'dataloader';
import type { TypeHierarchy } from '../../core/type-hierarchy';
import type { NamedItem, Page } from '../../persistence/records';
import type { RegistryReader } from '../../persistence/registry-reader';
import type { DependencyKey } from './dependencies';
import type { DeferredDependencies, DependencyRecorder } from './dependency-recorder';
import type { Loader } from './loader';
import type { SessionCaches } from './session-caches';
import type { VersionPin } from './version-pin';

/** Numbers the loaders a session hands out (each kind, each view by id or name), so that it keeps them in arrays. */
let loaderSlots = 0;
export const newLoaderSlot = (): number => loaderSlots++;

/** How the loaders of one kind work, the same for every request: made once per kind (./loader-kinds.ts). */
export interface LoaderKind<K, V> {
  /** The loader's name: one loader of each name per request. */
  readonly name: string;
  /** Where a request and a session keep their loader of the kind. */
  readonly slot: number;
  /** Its DataLoader, made on the request's first load of the kind. */
  readonly make: (registry: LoaderRegistry) => DataLoader<K, V, unknown>;
  /** Records in `recorder` what the answer for `key` depends on. */
  readonly record: (recorder: DependencyRecorder, registry: LoaderRegistry, key: K, value: V) => void;
  /** The answer for `key` when it is known without reading (see Loader.peek), else undefined. */
  readonly peek?: (registry: LoaderRegistry, key: K) => V | undefined;
  /** How it reads through the record cache, for a kind made by `throughCache`. */
  readonly cached?: CachedKind<V, K>;
}

/** A kind of record read through the record cache (see `throughCache`). */
export interface CachedKind<V, K = string> {
  /** Its kind in the record cache, and its loader's name. */
  readonly name: string;
  /** Reads the records of `keys`, in key order (null: none), with the registry whose batch it is. */
  readonly load: (reader: RegistryReader, keys: readonly K[], registry: LoaderRegistry) => Promise<(V | null)[]>;
  /** The key of `key` in the record cache, when the loader's keys are not strings. */
  readonly keyOf?: (key: K) => string;
  /** What an answer for a key (as the record cache keys it) depends on. */
  readonly dependsOn: (key: string, value: V | null) => DependencyKey[];
  /** What a key with nothing found answers (null, or for lists an empty one). */
  readonly empty: V | null;
}

/** What a request's loaders read the type hierarchy through: the request's root session. */
interface HierarchySource {
  hierarchy(): Promise<TypeHierarchy>;
}

/**
 * An answer of a cached batch, and the dependency keys of reading it: worked
 * out only when asked for (when an answer is kept, or a part's or a fork's
 * dependencies are taken), since most requests' answers are not kept.
 */
class LoadedAnswer implements DeferredDependencies {
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

/** One request's loaders, shared by its sessions; every read of theirs goes through the request's version pin. */
export class LoaderRegistry {
  /** The DataLoaders made so far, by kind slot. */
  private readonly made: (DataLoader<never, unknown, unknown> | undefined)[] = [];
  /**
   * What the cached batches answered, by kind and key, with the dependency
   * keys of each answer: for the synchronous `loaded…` reads, and for each
   * load to record what it depends on without working it out again.
   */
  private readonly answers = new Map<string, Map<string, LoadedAnswer>>();
  /** The pages read so far, by their arguments (see ReadSession.pageRead). */
  readonly pages = new Map<string, Promise<Page<NamedItem>>>();
  /** A true private field: not even a cast reaches it from outside. */
  readonly #reader: RegistryReader;

  constructor(
    reader: RegistryReader,
    private readonly caches: SessionCaches,
    /** The request's root session's pin. */
    private readonly pin: VersionPin,
    private readonly root: HierarchySource,
  ) {
    this.#reader = reader;
  }

  /** The request's DataLoader of a kind, made on first use. */
  dataLoader<K, V>(kind: LoaderKind<K, V>): DataLoader<K, V, unknown> {
    let loader = this.made[kind.slot] as DataLoader<K, V, unknown> | undefined;
    if (!loader) {
      loader = kind.make(this);
      this.made[kind.slot] = loader;
    }
    return loader;
  }

  /** What a cached batch of this request answered for `key` of `kind` (its value, and its dependencies if asked). */
  answer(kind: string, key: string): ({ readonly value: unknown } & DeferredDependencies) | undefined {
    return this.answers.get(kind)?.get(key);
  }

  /** The type hierarchy at the pinned version, through the request's root session (which records it). */
  hierarchy(): Promise<TypeHierarchy> {
    return this.root.hierarchy();
  }

  /** A read of registry data for a batch: pins the version first. */
  async read<T>(use: (reader: RegistryReader) => Promise<T>): Promise<T> {
    await this.pin.pin();
    return use(this.#reader);
  }

  /** Forgets every loader and everything read (after the request's write). */
  clear(): void {
    this.answers.clear();
    this.made.length = 0;
    this.pages.clear();
  }

  /**
   * What a cached batch would answer for one key, when it is known at once:
   * loaded by this request already, or in the record cache and right at the
   * pinned version (the change index caught up to it). Else undefined.
   */
  cachedNow<V>(
    kind: string,
    key: string,
    dependsOn: (key: string, value: V | null) => DependencyKey[],
  ): V | null | undefined {
    let answered = this.answers.get(kind);
    const known = answered?.get(key);
    if (known !== undefined) return known.value as V | null;
    const version = this.pin.state?.version;
    const { changes, records } = this.caches;
    if (version === undefined || !records || changes.caughtUpTo(version) !== undefined) return undefined;
    const entry = records.entryOf<V>(version, kind, key, (k, v, since) =>
      changes.unchangedSinceKnown(since, dependsOn(k, v), version),
    );
    if (entry === undefined) return undefined;
    if (!answered) this.answers.set(kind, (answered = new Map<string, LoadedAnswer>()));
    answered.set(key, new LoadedAnswer(entry.value, key, dependsOn));
    return entry.value;
  }

  /**
   * Records of `kind` read along with another read of this request, at its
   * pinned version (a page's records with the page, the static resources of
   * slots with the slots): answered to this request's loads of the kind as if
   * its batch had read them, and kept in the record cache. Keys the request
   * has an answer for already keep it.
   */
  prime<V>(kind: LoaderKind<string, V>, entries: readonly (readonly [string, V | null])[]): void {
    const cached = kind.cached;
    const version = this.pin.state?.version;
    if (!cached || version === undefined || entries.length === 0) return;
    let answered = this.answers.get(cached.name);
    if (!answered) this.answers.set(cached.name, (answered = new Map<string, LoadedAnswer>()));
    const fresh: (readonly [string, V | null])[] = [];
    for (const [key, value] of entries) {
      if (answered.has(key)) continue;
      answered.set(key, new LoadedAnswer(value, key, cached.dependsOn));
      fresh.push([key, value]);
    }
    this.caches.records?.store(version, cached.name, fresh);
  }

  /**
   * A page read with its items' records: the records answer this request's
   * loads of them (`prime`), the page gives each item's id and name.
   */
  primedPage<T extends NamedItem>(kind: LoaderKind<string, T | null>, page: Page<T>): Page<NamedItem> {
    this.prime(
      kind,
      page.items.map((item) => [item.id, item] as const),
    );
    return { ...page, items: page.items.map(({ id, name }) => ({ id, name })) };
  }

  /**
   * A batch through the record cache: what is cached and still right at the
   * pinned version (no write since touched what it depends on, the same keys
   * the request records) is answered from memory, the rest is read in one
   * statement.
   */
  async cachedBatch<V, K>(kind: CachedKind<V, K>, keys: readonly K[]): Promise<(V | null)[]> {
    const { name, load, dependsOn } = kind;
    const keyOf = cacheKeyOf(kind);
    const { version } = await this.pin.pin();
    const { changes, records } = this.caches;
    const catchingUp = records ? changes.caughtUpTo(version) : undefined;
    if (catchingUp) await catchingUp;
    const cacheKeys = keys.map(keyOf);
    let answered = this.answers.get(name);
    // Answered already by this request: read along with another of its reads (`prime`).
    const found = cacheKeys.map(
      (key) =>
        (answered?.get(key) as { readonly value: V } | undefined) ??
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
    const loaded = new Map<string, LoadedAnswer>();
    if (missing.length > 0) {
      const values = await this.read((reader) => load(reader, missing, this));
      records?.store(
        version,
        name,
        missingKeys.map((key, i) => [key, values[i]] as const),
      );
      missingKeys.forEach((key, i) => loaded.set(key, new LoadedAnswer(values[i], key, dependsOn)));
    }
    // Kept for the synchronous `loaded…` reads, and for each load to record its answer's dependencies.
    answered = this.answers.get(name);
    if (!answered) this.answers.set(name, (answered = new Map<string, LoadedAnswer>()));
    return cacheKeys.map((key, i) => {
      const entry = found[i];
      const answer = entry ? new LoadedAnswer(entry.value, key, dependsOn) : loaded.get(key)!;
      answered.set(key, answer);
      return answer.value as V | null;
    });
  }
}

/**
 * A kind of record read through the record cache (see cachedBatch): its
 * batches answer from the cache what is right at the pinned version, and
 * each load records the dependency keys its batch kept with the answer.
 */
export function throughCache<V, K = string>(kind: CachedKind<V, K>): LoaderKind<K, V> {
  const { name, dependsOn, empty } = kind;
  const keyOf = cacheKeyOf(kind);
  return {
    name,
    slot: newLoaderSlot(),
    make: (registry) =>
      new DataLoader<K, V, string>(
        async (keys) => (await registry.cachedBatch(kind, keys)).map((value) => value ?? (empty as V)),
        kind.keyOf ? { cacheKeyFn: kind.keyOf } : undefined,
      ),
    // The batch (or the peek) kept each answer: a load records the answer, whose keys are worked out if asked for.
    record: (recorder, registry, key, value) => {
      const cacheKey = keyOf(key);
      const answer = registry.answer(name, cacheKey);
      if (answer) recorder.recordDependencies(answer);
      else for (const dependency of dependsOn(cacheKey, value)) recorder.recordDependency(dependency);
    },
    peek: (registry, key) => {
      const value = registry.cachedNow(name, keyOf(key), dependsOn);
      return value === undefined ? undefined : ((value ?? empty) as V);
    },
    cached: kind,
  };
}

/** A kind of loader that does not go through the record cache, whose every answer depends on what `dependsOn` says. */
export function uncachedKind<K, V>(
  name: string,
  make: (registry: LoaderRegistry) => DataLoader<K, V, unknown>,
  dependsOn: (key: K) => DependencyKey[],
): LoaderKind<K, V> {
  return {
    name,
    slot: newLoaderSlot(),
    make,
    record: (recorder, _registry, key) => {
      for (const dependency of dependsOn(key)) recorder.recordDependency(dependency);
    },
  };
}

/** A kind's key in the record cache: its own `keyOf`, or the loader's key itself when that is a string. */
function cacheKeyOf<V, K>(kind: CachedKind<V, K>): (key: K) => string {
  return kind.keyOf ?? ((key: K) => key as unknown as string);
}

/**
 * A session's view of one of its request's loaders: the same batches, and
 * after each load its answer's dependencies recorded in the session that
 * asked (the root or a fork: so a fork's dependencies are its own, even for
 * keys another part loaded first).
 */
export class SessionLoader<K, V> implements Loader<K, V> {
  constructor(
    private readonly kind: LoaderKind<K, V>,
    private readonly registry: LoaderRegistry,
    private readonly recorder: DependencyRecorder,
  ) {}

  async load(key: K): Promise<V> {
    const value = await this.registry.dataLoader(this.kind).load(key);
    this.kind.record(this.recorder, this.registry, key, value);
    return value;
  }

  async loadMany(keys: ArrayLike<K>): Promise<(V | Error)[]> {
    const values = await this.registry.dataLoader(this.kind).loadMany(keys);
    for (let i = 0; i < keys.length; i++) {
      const value = values[i];
      if (!(value instanceof Error)) this.kind.record(this.recorder, this.registry, keys[i], value);
    }
    return values;
  }

  peek(key: K): V | undefined {
    const value = this.kind.peek?.(this.registry, key);
    if (value !== undefined) this.kind.record(this.recorder, this.registry, key, value);
    return value;
  }
}
