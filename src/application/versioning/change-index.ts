import { LRUCache } from 'lru-cache';
import type { ChangePosition, ChangeRecord } from '../../persistence/records';
import { keysTouchedBy, type DependencyKey } from './dependencies';

/** How many keys the index remembers; past that, the least recently changed are forgotten (see `forgottenUpTo`). */
const REMEMBERED_KEYS = 50_000;

/** Change-log entries read per statement when catching up. */
const CATCH_UP_PAGE = 1_000;

/** Reads the change log after a position, up to a version, oldest first (for writes this process did not make). */
export type ReadChangesAfter = (after: ChangePosition, upToVersion: number, limit: number) => Promise<ChangeRecord[]>;

/**
 * For each dependency key, the last registry version whose write touched it:
 * so that an answer computed at version v can be told still right at the
 * current version c (no write in (v, c] touched what it read).
 *
 * This process's writes are recorded as they commit, from their edits. Writes
 * of other instances (PostgreSQL) are learnt from the change log, which each
 * write fills in its own transaction: before answering for a version c it has
 * not caught up to, the index reads the entries in (known, c], one statement
 * per thousand entries, shared by every request that asks meanwhile.
 */
export class ChangeIndex {
  private readonly lastChanged: LRUCache<DependencyKey, number>;
  /** The highest version of a key forgotten to stay within REMEMBERED_KEYS: older answers cannot be vouched for. */
  private forgottenUpTo = 0;
  /** Every write up to this version is recorded. */
  private known: number;
  /** Versions above `known` this process recorded already (its own commits, out of order with other instances'). */
  private readonly ahead = new Set<number>();
  private catchingUp: Promise<void> | null = null;

  constructor(
    startVersion: number,
    private readonly readChangesAfter: ReadChangesAfter,
    rememberedKeys = REMEMBERED_KEYS,
  ) {
    this.known = startVersion;
    this.lastChanged = new LRUCache<DependencyKey, number>({
      max: rememberedKeys,
      dispose: (version, _key, reason) => {
        if (reason === 'evict') this.forgottenUpTo = Math.max(this.forgottenUpTo, version);
      },
    });
  }

  /** Records a committed write of this process: its version and the keys it touched. */
  committed(version: number, keys: Iterable<DependencyKey>): void {
    this.touch(version, keys);
    if (version === this.known + 1) {
      this.known = version;
      while (this.ahead.delete(this.known + 1)) this.known++;
    } else if (version > this.known) {
      // Another instance committed the versions between; they are read from the log when needed.
      this.ahead.add(version);
    }
  }

  /**
   * True when nothing an answer computed at `version` read (`keys`) was
   * touched by a write after it, up to `current`.
   */
  async unchangedSince(version: number, keys: readonly DependencyKey[], current: number): Promise<boolean> {
    if (version > current) return false;
    if (version === current) return true;
    await this.catchUpTo(current);
    return this.unchangedSinceKnown(version, keys, current);
  }

  /**
   * What unchangedSince answers, without reading the change log: false when
   * the index has not caught up to `current` yet (see `caughtUpTo`), since
   * it cannot vouch for what it has not seen.
   */
  unchangedSinceKnown(version: number, keys: readonly DependencyKey[], current: number): boolean {
    if (version > current || this.known < current) return false;
    for (const key of keys) {
      const changed = this.lastChanged.peek(key);
      if (changed === undefined ? version < this.forgottenUpTo : changed > version) return false;
    }
    return true;
  }

  /** Nothing when every write up to `current` is recorded; else the promise of reading the rest from the change log. */
  caughtUpTo(current: number): Promise<void> | undefined {
    return this.known >= current ? undefined : this.catchUpTo(current);
  }

  /** The version up to which every write is recorded (for tests and the debug route). */
  get knownVersion(): number {
    return this.known;
  }

  private touch(version: number, keys: Iterable<DependencyKey>): void {
    for (const key of keys) {
      const before = this.lastChanged.get(key);
      if (before === undefined || before < version) this.lastChanged.set(key, version);
    }
  }

  private async catchUpTo(current: number): Promise<void> {
    while (this.known < current) {
      this.catchingUp ??= this.readUpTo(current).finally(() => (this.catchingUp = null));
      await this.catchingUp;
    }
  }

  /** Reads the log after `known` up to `current` and records every entry, then moves `known` to `current`. */
  private async readUpTo(current: number): Promise<void> {
    // After every entry of `known` (a version's entries can span two pages: each page starts after the last entry read).
    let after: ChangePosition = { version: this.known, seq: Number.MAX_SAFE_INTEGER };
    for (;;) {
      const entries = await this.readChangesAfter(after, current, CATCH_UP_PAGE);
      for (const entry of entries) this.touch(entry.version, keysTouchedBy(subjectOfEntry(entry)));
      if (entries.length < CATCH_UP_PAGE) break;
      const last = entries[entries.length - 1];
      after = { version: last.version, seq: last.seq };
    }
    // Every entry up to `current` is committed (a write's entries commit with its version), so all are recorded now.
    if (current > this.known) this.known = current;
    for (const version of [...this.ahead]) if (version <= this.known) this.ahead.delete(version);
    while (this.ahead.delete(this.known + 1)) this.known++;
  }
}

/** A change-log entry as the subject keysTouchedBy reads. */
function subjectOfEntry(entry: ChangeRecord) {
  return {
    kind: entry.kind,
    id: entry.entityId,
    name: entry.entityName,
    previousName: entry.previousName,
    relatedId: entry.relatedId,
  };
}
