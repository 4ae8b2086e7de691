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
import type { TypeHierarchy } from '../../core/type-hierarchy';
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
import { ReadSession, type SessionCaches } from './read-session';

export {
  ReadSession,
  allNow,
  isPromise,
  thenNow,
  loaded,
  loadManyNow,
  loadNow,
  type AnswerPart,
  type VersionProbe,
  type CompatibleResourcesKey,
} from './read-session';

/**
 * The budget of the answer parts kept across requests (see ReadSession.parts),
 * as the record cache counts bytes (strings at two a character): at the
 * benchmark's default size, every tool's part of a dashboard page (5,000 of
 * about 940 characters, with their dependencies) is about 11 MB of it.
 */
export const ANSWER_PARTS_BYTES = 16 * 1024 * 1024;

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

/** A write that committed (or, for a dry run, was rolled back): its result, the counters it left, and its edits. */
export interface WriteOutcome<T> {
  readonly result: T;
  /** The counters after the write; for a dry run, those before it. */
  readonly state: RegistryState;
  readonly edits: readonly RegistryEdit[];
  readonly dryRun: boolean;
}

/** Thrown inside a dry run's transaction to roll it back, carrying what the work produced. */
class DryRunRollback<T> extends Error {
  constructor(readonly outcome: WriteOutcome<T>) {
    super('dry run');
  }
}

/** The registry version, its caches, its read sessions and its writes. */
export class RegistryVersioning {
  private readonly caches: SessionCaches;
  readonly #reader: RegistryReader;

  private constructor(
    private readonly db: Database,
    reader: RegistryReader,
    clock: RegistryClock,
    startVersion: number,
    recordCache: boolean,
  ) {
    this.#reader = reader;
    const changes = new ChangeIndex(startVersion, (after, upTo, limit) => reader.changesAfter(after, upTo, limit));
    this.caches = {
      clock,
      hierarchy: new HierarchyCache(),
      records: recordCache ? new RecordCache() : null,
      parts: recordCache ? new RecordCache(ANSWER_PARTS_BYTES) : null,
      names: recordCache ? new NameIndexes(changes) : null,
      changes,
      access: new AccessCache(reader, changes),
    };
  }

  /**
   * Opens versioning over a migrated database. On SQLite this process owns the
   * file (a lock refuses a second server), so the version lives in memory; on
   * PostgreSQL, where several instances share the database, it is read per request.
   * `recordCache: false` (RECORD_CACHE=false): every session reads every record from the database.
   */
  static async open(db: Database, options: { recordCache?: boolean } = {}): Promise<RegistryVersioning> {
    const reader = new RegistryReader(db.read, db.sql);
    const clock = db.dialect === 'sqlite' ? await LocalClock.start(reader) : new SharedDatabaseClock(reader);
    return new RegistryVersioning(db, reader, clock, (await clock.current()).version, options.recordCache !== false);
  }

  /** Forgets the cached records, answer parts and name lists (for tests that count what a request reads from the database). */
  clearRecordCache(): void {
    this.caches.records?.clear();
    this.caches.parts?.clear();
    this.caches.names?.clear();
  }

  /** How much the shared caches hold (entries and bytes as they count them), for the debug route and tests. */
  cacheUsage(): Record<'records' | 'parts', { entries: number; bytes: number }> & { names: number } {
    const usage = (cache: RecordCache | null) => ({ entries: cache?.size ?? 0, bytes: cache?.bytes ?? 0 });
    return {
      records: usage(this.caches.records),
      parts: usage(this.caches.parts),
      names: this.caches.names?.size ?? 0,
    };
  }

  /** A new read session for one request (or one unit of work). */
  session(): ReadSession {
    return new ReadSession(this.#reader, this.caches);
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
   * is stored and the version does not move.
   */
  async write<T>(
    work: (scope: WriteScope) => Promise<T>,
    options: { dryRun?: boolean } = {},
  ): Promise<WriteOutcome<T>> {
    const dryRun = options.dryRun ?? false;
    let outcome: WriteOutcome<T>;
    try {
      outcome = await this.db.write(async (tx) => {
        const writer = new RegistryWriter(tx, new Date().toISOString());
        const committed = await writer.bumpVersion();
        const before = { version: committed.version - 1, typesVersion: committed.typesVersion };
        let hierarchy: Promise<TypeHierarchy> | null = null;
        const result = await work({
          writer,
          before,
          version: committed.version,
          hierarchy: () =>
            (hierarchy ??= this.caches.hierarchy.get(before.typesVersion, () => writer.reader.allTypes())),
        });
        const typesMoved = changesTypes(writer.edits);
        if (typesMoved) await writer.bumpTypesVersion();
        const state = { version: committed.version, typesVersion: committed.typesVersion + (typesMoved ? 1 : 0) };
        if (dryRun) throw new DryRunRollback({ result, state: before, edits: writer.edits, dryRun });
        await writer.announce(state.version);
        return { result, state, edits: writer.edits, dryRun };
      });
    } catch (error) {
      if (error instanceof DryRunRollback) return error.outcome as WriteOutcome<T>;
      throw error;
    }
    if (!outcome.dryRun) {
      // The index first, then the clock: a request that sees the new version finds what it touched recorded.
      this.caches.changes.committed(outcome.state.version, touchedBy(outcome.edits));
      this.caches.names?.committed(outcome.state.version, outcome.edits);
      this.caches.clock.committed(outcome.state);
    }
    return outcome;
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
