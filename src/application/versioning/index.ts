/**
 * The registry version's one home. The rule: a request reads the registry
 * version once, before any registry data, and every cache serves only what
 * was read at that version; every write moves the version in the transaction
 * that makes it.
 *
 * This module owns everything that rule touches: the clock (where the version
 * is learnt), the caches keyed by version (type hierarchy, records), the
 * per-request read session (the only holder of the registry reader), and the
 * write transaction's version bookkeeping. Nothing outside it can read the
 * registry without pinning a version, or write without moving it.
 */
import type { RegistryEdit } from '../../core/registry-edit';
import { changesTypes, subjectOf } from '../../core/registry-edit';
import { TypeHierarchy } from '../../core/type-hierarchy';
import type { Database } from '../../persistence/database';
import type { RegistryState } from '../../persistence/records';
import { RegistryReader } from '../../persistence/registry-reader';
import { RegistryWriter } from '../../persistence/registry-writer';
import { AccessCache } from './access-cache';
import { ChangeIndex } from './change-index';
import { keysTouchedBy, type DependencyKey } from './dependencies';
import { HierarchyCache } from './hierarchy-cache';
import { NameIndexes } from './name-index';
import { RecordCache } from './record-cache';
import { LocalClock, SharedDatabaseClock, type RegistryClock } from './registry-clock';
import { ReadSession } from './read-session';
import type { SessionCaches } from './session-caches';

export { ReadSession, type Freshness, type VersionProbe } from './read-session';
export type { DependencyKey } from './dependencies';
export type { RecordCache } from './record-cache';
export { loaded, loadManyNow, loadNow, type Loader } from './loader';
export { fittingLinksKey, type CompatibleResourcesKey, type FittingLinks } from './loader-kinds';

/** Reads inside a write transaction: they see the write's own changes. */
export type WriteReader = RegistryWriter['reader'];

/** What a write sees: the writer (which records every edit), and the registry as it stood before. */
export interface WriteScope {
  readonly writer: RegistryWriter;
  /** The counters before this write. */
  readonly before: RegistryState;
  /** The registry version this write commits. */
  readonly version: number;
  /** The type hierarchy as committed before this write. */
  readonly hierarchy: () => Promise<TypeHierarchy>;
}

/**
 * A write that committed (or was rolled back: a dry run, or a write that
 * changed nothing): its result, the counters it left, and its edits.
 */
export interface WriteOutcome<T> {
  readonly result: T;
  /** The counters after the write; when nothing was committed, those before it (the current ones). */
  readonly state: RegistryState;
  readonly edits: readonly RegistryEdit[];
  readonly dryRun: boolean;
  /** True when the write committed: not a dry run, and it made at least one edit. */
  readonly committed: boolean;
}

/** Thrown inside a transaction that commits nothing (a dry run, or no edit made) to roll it back, carrying what the work produced. */
class Rollback<T> extends Error {
  constructor(readonly outcome: WriteOutcome<T>) {
    super('rolled back');
  }
}

/** How much a shared cache holds, as it counts: entries and bytes. */
export interface CacheUsage {
  readonly entries: number;
  readonly bytes: number;
}

/** The registry version, its caches, its read sessions and its writes. */
export class RegistryVersioning {
  private readonly caches: SessionCaches;
  /** The version-keyed caches a caller keeps of its own (`keptCache`), by name. */
  private readonly kept = new Map<string, RecordCache>();
  readonly #reader: RegistryReader;

  private constructor(
    private readonly db: Database,
    reader: RegistryReader,
    clock: RegistryClock,
    startVersion: number,
    recordCache: boolean,
    recordCacheBytes: number | undefined,
  ) {
    this.#reader = reader;
    const changes = new ChangeIndex(startVersion, (after, upTo, limit) => reader.changesAfter(after, upTo, limit));
    this.caches = {
      clock,
      hierarchy: new HierarchyCache(),
      records: recordCache ? new RecordCache(recordCacheBytes) : null,
      names: recordCache ? new NameIndexes(changes) : null,
      changes,
      access: new AccessCache(reader, changes),
    };
  }

  /**
   * Opens versioning over a migrated database. On SQLite this process owns the
   * file (a lock refuses a second server), so the version lives in memory; on
   * PostgreSQL, where several instances share the database, it is read for each request, by a read sent after the
   * request asked, shared by the requests that asked before it was sent (./registry-clock.ts).
   * `recordCache: false` (RECORD_CACHE=false): every session reads every record, and every list of names, from
   * the database. `recordCacheBytes` (RECORD_CACHE_BYTES): the record cache's budget (RECORD_CACHE_BYTES of
   * ./record-cache.ts unless given).
   */
  static async open(
    db: Database,
    options: { recordCache?: boolean; recordCacheBytes?: number } = {},
  ): Promise<RegistryVersioning> {
    const reader = new RegistryReader(db.read, db.sql);
    const clock = db.dialect === 'sqlite' ? await LocalClock.start(reader) : new SharedDatabaseClock(reader);
    return new RegistryVersioning(
      db,
      reader,
      clock,
      (await clock.current()).version,
      options.recordCache !== false,
      options.recordCacheBytes,
    );
  }

  /**
   * A version-keyed cache of `name` within `bytes`, for what a caller keeps
   * across requests itself (checked against a session's `freshness`); made on
   * first ask, then the same one. `clearRecordCache` clears it, and the
   * figures and usage show it under its name.
   */
  keptCache(name: string, bytes: number): RecordCache {
    let cache = this.kept.get(name);
    if (!cache) this.kept.set(name, (cache = new RecordCache(bytes)));
    return cache;
  }

  /** Forgets the cached records, the kept caches and name lists (for tests that count what a request reads from the database). */
  clearRecordCache(): void {
    this.caches.records?.clear();
    for (const cache of this.kept.values()) cache.clear();
    this.caches.names?.clear();
  }

  /** How much the shared caches hold (entries and bytes as they count them), for the debug route and tests. */
  cacheUsage(): { records: CacheUsage; names: number; kept: Record<string, CacheUsage> } {
    const usage = (cache: RecordCache | null) => ({ entries: cache?.size ?? 0, bytes: cache?.bytes ?? 0 });
    const kept: Record<string, CacheUsage> = {};
    for (const [name, cache] of this.kept) kept[name] = usage(cache);
    return { records: usage(this.caches.records), names: this.caches.names?.size ?? 0, kept };
  }

  /** Hits, misses and evictions so far, and the bytes held now, of the record cache and the kept caches (for the metrics). */
  cacheFigures(): Record<string, { hits: number; misses: number; evictions: number; bytes: number }> {
    const figures: Record<string, { hits: number; misses: number; evictions: number; bytes: number }> = {};
    for (const [name, cache] of [['records', this.caches.records] as const, ...this.kept]) {
      if (cache) figures[name] = { ...cache.counts, bytes: cache.bytes };
    }
    return figures;
  }

  /** A new read session for one request (or one unit of work). */
  session(): ReadSession {
    return new ReadSession(this.#reader, this.caches);
  }

  /**
   * Version reads sent so far, the requests the one in flight answers, and those waiting for the next (PostgreSQL's
   * shared clock; none on SQLite, where the version is kept in memory): for the tests and the benchmark.
   */
  versionReads(): { sent: number; answering: number; waiting: number } {
    const clock = this.caches.clock;
    if (!(clock instanceof SharedDatabaseClock)) return { sent: 0, answering: 0, waiting: 0 };
    return { sent: clock.reads, answering: clock.answering, waiting: clock.waitingCount };
  }

  /** The counters now. */
  current(): Promise<RegistryState> {
    return this.caches.clock.current();
  }

  /**
   * Notes that an API token authenticated a request, now: bookkeeping, not a
   * change of the registry, so it moves no version and logs nothing (callers
   * write it at most every few minutes per token).
   */
  async noteTokenUse(tokenId: string, at: string): Promise<void> {
    await this.db.write((tx) => new RegistryWriter(tx, at).noteTokenUse(tokenId));
  }

  /**
   * Runs `work` in one write transaction. The version moves first (on
   * PostgreSQL its row lock orders writers across instances); the types
   * version moves when the edits change types. After the commit the clock
   * advances. With `dryRun`, everything runs and is then rolled back: nothing
   * is stored and the version does not move. A write that makes no edit (an
   * update that changes nothing) is rolled back the same way: the version
   * stays, and its outcome says so (`committed` false).
   */
  async write<T>(
    work: (scope: WriteScope) => Promise<T>,
    options: { dryRun?: boolean } = {},
  ): Promise<WriteOutcome<T>> {
    const dryRun = options.dryRun ?? false;
    let outcome: WriteOutcome<T>;
    try {
      outcome = await this.db.write(
        async (tx) => {
          const writer = new RegistryWriter(tx, new Date().toISOString());
          const committed = await writer.state.bump();
          const before = { version: committed.version - 1, typesVersion: committed.typesVersion };
          let hierarchy: Promise<TypeHierarchy> | null = null;
          const result = await work({
            writer,
            before,
            version: committed.version,
            hierarchy: () => (hierarchy ??= this.writeHierarchy(before.typesVersion, writer)),
          });
          const typesMoved = changesTypes(writer.edits);
          if (typesMoved) await writer.state.bumpTypes();
          const state = { version: committed.version, typesVersion: committed.typesVersion + (typesMoved ? 1 : 0) };
          if (dryRun || writer.edits.length === 0) {
            throw new Rollback({ result, state: before, edits: writer.edits, dryRun, committed: false });
          }
          return { result, state, edits: writer.edits, dryRun, committed: true };
        },
        { rollsBack: dryRun },
      );
    } catch (error) {
      if (error instanceof Rollback) return error.outcome as WriteOutcome<T>;
      throw error;
    }
    if (outcome.committed) {
      // The index first, then the clock: a request that sees the new version finds what it touched recorded.
      this.caches.changes.committed(outcome.state.version, touchedBy(outcome.edits));
      this.caches.names?.committed(outcome.state.version, outcome.edits);
      this.caches.clock.committed(outcome.state);
    }
    return outcome;
  }

  /**
   * The type hierarchy a write starts from. Shared through the cache when it
   * is a committed one: on SQLite a write may run in the transaction of
   * others not committed yet (group commit), and a hierarchy one of them
   * changed must not be kept under a types version that may never commit.
   */
  private writeHierarchy(typesVersion: number, writer: RegistryWriter): Promise<TypeHierarchy> {
    const committed = this.caches.clock.currentNow?.()?.typesVersion ?? typesVersion;
    if (typesVersion !== committed) return writer.reader.allTypes().then((types) => new TypeHierarchy(types));
    return this.caches.hierarchy.get(typesVersion, () => writer.reader.allTypes());
  }
}

/** The dependency keys a write's edits touch: those of each edit's change-log subject (see ./dependencies.ts). */
function touchedBy(edits: readonly RegistryEdit[]): Set<DependencyKey> {
  const keys = new Set<DependencyKey>();
  for (const edit of edits) {
    const subject = subjectOf(edit);
    const touched = keysTouchedBy({
      kind: edit.kind,
      id: subject.id,
      name: subject.name,
      previousName: subject.previousName,
      relatedId: subject.related?.id ?? null,
    });
    for (const key of touched) keys.add(key);
  }
  return keys;
}
