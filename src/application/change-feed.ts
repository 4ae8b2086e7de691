import type { ChangeHead, ChangeRecord } from '../persistence/records';
import { isPromise } from '../jsutils/is-promise';
import { FEED_LIMITS } from './feed-limits';
import { TurnBudget } from './turn-budget';
import { WriterPacing } from './writer-pacing';
import type { RegistryVersioning } from './versioning';

/** Where an entry stands in the change log: its version, then its place within the version. */
export interface LogPosition {
  readonly version: number;
  readonly seq: number;
}

export { FEED_LIMITS } from './feed-limits';

/** What a subscription asks of the feed. */
export interface FeedRequest<T> {
  /** Replay every entry after this version from the log first; null: only what commits from now on. */
  readonly afterVersion: number | null;
  /** Whether it shows binding changes: entries are then read with them (in smaller pages). */
  readonly bindingChanges: boolean;
  /**
   * What it sends for one entry (none, one or several items), e.g. the entry itself when its kind is wanted;
   * a promise when that needs a read (whether the subscriber may see an access entry).
   */
  readonly items: (entry: ChangeRecord) => readonly T[] | Promise<readonly T[]>;
  /**
   * A transport that does not hold back on its own while its client does not read (Server-Sent Events) says here
   * when it can take more: a promise of that moment, or null for now. WebSocket sends are awaited, so it needs none.
   */
  readonly ready?: () => Promise<void> | null;
}

/** Sees each change-log entry as the feed reads it for its subscribers (the metrics: the feed's lag). */
export interface FeedObserver {
  /** An entry committed at `at` (ISO time, on whichever instance wrote it) was read from the log. */
  changeRead(at: string): void;
}

/** An entry with or without its binding changes, as kept in the window. */
type Entry = ChangeHead | ChangeRecord;

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * The live change log. Every committed change is signalled (by this
 * process's own writes, and on PostgreSQL by NOTIFY from every instance); the
 * feed then reads the new entries from the log once, into a window of the
 * newest entries, and wakes the subscribers.
 *
 * Each subscription is a cursor over the log: the position of the last
 * entry it sent. It takes the entry after that position from the window when
 * the window holds it, and otherwise (a replay with afterVersion, or a
 * subscriber that fell behind the window while its client did not read)
 * reads it from the log in small pages of its own. So a subscriber holds at
 * most one page, whatever its client does, and the memory of the feed is the
 * window's, whatever the number of subscribers; a client that stops reading
 * is simply not sent more until it reads again, and misses nothing. The log
 * is the one source: a lost signal or a dropped connection only delays
 * delivery until the next signal.
 *
 * Every delivery, and every page read, spends from a budget per turn of
 * the event loop (./turn-budget.ts), so neither a long replay nor an event
 * fanned out to many subscribers holds the thread: replays and page reads
 * from one of a plain count, live deliveries (entries from the window) from
 * one that grows with the length of the rest of the turn.
 *
 * Ending a subscription (the client completes it, or its connection closes)
 * frees it at once, even while it waits for the next change.
 */
export class ChangeFeed {
  private readonly cursors = new Set<FeedCursor<unknown>>();
  /** How many of them show binding changes: the feed then reads them with the entries. */
  private showingBindingChanges = 0;
  private readonly sleepers = new Set<() => void>();
  /** Page reads and the deliveries of what a cursor read from the log itself (a replay): a plain count per turn. */
  readonly turns = new TurnBudget(FEED_LIMITS.perTurn);
  /**
   * Deliveries of entries kept in the window (subscribers up to date): a budget that grows with how long the rest
   * of each turn took, when the feed has a clock, so that fanning changes out keeps up with a server busy writing.
   */
  readonly liveTurns: TurnBudget;
  /** The newest entries read, oldest first: every entry after `windowStart` up to `head`. */
  private window: Entry[] = [];
  private windowFrom = 0;
  private windowBindingChanges = 0;
  private windowStart: LogPosition = { version: 0, seq: Number.MAX_SAFE_INTEGER };
  /** The end of the log as far as the feed has read it. */
  private head: LogPosition | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** The newest version a signal named; null when a signal named none (then the version is read). */
  private target: number | null = 0;
  /** Writes waiting for their version to be handed to the subscribers who keep up (`settled`). */
  private readonly pacing = new WriterPacing((version) => {
    const now = performance.now();
    for (const cursor of this.cursors) if (!cursor.settledAt(version, now)) return false;
    return true;
  }, FEED_LIMITS.stalledMs);

  /** `clock` (milliseconds): the turn budget grows with the turns' length (./turn-budget.ts); none in the tests. */
  constructor(
    private readonly versioning: RegistryVersioning,
    private readonly observer?: FeedObserver,
    clock: (() => number) | null = null,
  ) {
    this.liveTurns = new TurnBudget(FEED_LIMITS.perTurn, clock, FEED_LIMITS.livePerMs);
  }

  /** Starts at the current version: what committed before is in the log, for replay. */
  async start(): Promise<void> {
    this.moveHead({ version: (await this.versioning.current()).version, seq: Number.MAX_SAFE_INTEGER });
  }

  /**
   * A change committed (at `version`, when the signal knows it; a reconnect does not): read the log up to
   * there and wake the subscribers. Signals that come while reading are coalesced. With nobody subscribed nothing is read.
   */
  signal(version?: number): void {
    if (this.stopped || this.head === null) return;
    this.target = version === undefined || this.target === null ? null : Math.max(this.target, version);
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.catchUp().finally(() => {
      this.running = null;
      if (this.again) this.signal();
    });
  }

  /** Items handed to subscriptions since the start (each event a subscriber was sent). */
  delivered = 0;

  /** Number of live subscriptions. */
  get size(): number {
    return this.cursors.size;
  }

  /** Entries and binding changes held in memory (for tests and the benchmark). */
  get held(): { entries: number; bindingChanges: number } {
    return { entries: this.window.length - this.windowFrom, bindingChanges: this.windowBindingChanges };
  }

  /** Ends every subscription (at shutdown). */
  stop(): void {
    this.stopped = true;
    for (const cursor of [...this.cursors]) void cursor.return();
    this.pacing.releaseAll();
  }

  /**
   * Back-pressure: resolves once every subscriber that keeps up (not stalled by its client, not replaying) was
   * handed every entry up to `version`, or after `limitMs`. A write awaits it before it answers, so writers go at
   * the pace of the fan-out rather than queue writes up ahead of the subscribers.
   */
  settled(version: number, limitMs: number = FEED_LIMITS.settleMs): Promise<void> {
    if (this.stopped || this.cursors.size === 0) return Promise.resolve();
    return this.pacing.wait(version, limitMs);
  }

  /** A cursor moved, or started or stopped waiting for its client: the writes it held up may go on. */
  progressed(): void {
    this.pacing.progressed();
  }

  /** The items for one subscription, in log order: replayed from the log when asked, then live. */
  subscribe<T>(request: FeedRequest<T>): AsyncIterableIterator<T> & { return(): Promise<IteratorResult<T>> } {
    const from: LogPosition =
      request.afterVersion === null
        ? (this.head ?? { version: 0, seq: Number.MAX_SAFE_INTEGER })
        : { version: request.afterVersion, seq: Number.MAX_SAFE_INTEGER };
    const cursor = new FeedCursor<T>(this, request, from);
    this.cursors.add(cursor);
    if (request.bindingChanges) this.showingBindingChanges++;
    if (this.stopped) void cursor.return();
    return cursor;
  }

  /**
   * The entry after `position` when the window holds it; when nothing is known after it yet, the position it is
   * caught up to (the head); else 'read': the cursor reads the log itself.
   */
  next(position: LogPosition, bindingChanges: boolean): Entry | { readonly caughtUp: LogPosition } | 'read' {
    const head = this.head;
    if (head === null || !after(head, position)) return { caughtUp: position };
    if (after(this.windowStart, position)) return 'read';
    // The first kept entry after the position: the window is in log order.
    let low = this.windowFrom;
    let high = this.window.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (after(this.window[middle], position)) high = middle;
      else low = middle + 1;
    }
    const entry = this.window[low];
    // The window holds every entry after its start up to the head: none after the position means none up to the head.
    if (entry === undefined) return { caughtUp: head };
    return bindingChanges && !('bindingChanges' in entry) ? 'read' : entry;
  }

  /** Entries after `position`, from the log, up to the registry's current version (a cursor's own page). */
  async read(position: LogPosition, bindingChanges: boolean): Promise<{ entries: Entry[]; end: number }> {
    const session = this.versioning.session();
    const end = await session.currentVersion();
    const entries = bindingChanges
      ? await session.changesAfter(position, end, FEED_LIMITS.changesPage)
      : await session.changeHeadsAfter(position, end, FEED_LIMITS.headsPage);
    return { entries, end };
  }

  /**
   * Resolves once the head moves past `position` (at once if it already has) or the feed stops; `wake` ends the
   * wait early (the subscription ended).
   */
  sleep(position: LogPosition): { slept: Promise<void>; wake: () => void } {
    let wake!: () => void;
    const slept = new Promise<void>((resolve) => (wake = resolve));
    const sleeper = (): void => {
      this.sleepers.delete(sleeper);
      wake();
    };
    this.sleepers.add(sleeper);
    if (this.stopped || (this.head !== null && after(this.head, position))) sleeper();
    return { slept, wake: sleeper };
  }

  /** A subscription ended. */
  forget(cursor: FeedCursor<unknown>): void {
    if (!this.cursors.delete(cursor)) return;
    if (cursor.bindingChanges) this.showingBindingChanges--;
    if (this.cursors.size === 0) this.clearWindow();
    this.progressed();
  }

  private async catchUp(): Promise<void> {
    do {
      this.again = false;
      const named = this.target;
      this.target = 0;
      if (this.cursors.size === 0) {
        // Nobody listens: nothing to read. A later subscriber replays from the log.
        const upTo = named ?? (await this.versioning.current()).version;
        if (upTo > this.head!.version) this.moveHead({ version: upTo, seq: Number.MAX_SAFE_INTEGER });
        continue;
      }
      const session = this.versioning.session();
      const upTo = named ?? (await session.currentVersion());
      while (this.head!.version < upTo && this.cursors.size > 0 && !this.stopped) {
        const withChanges = this.showingBindingChanges > 0;
        const size = withChanges ? FEED_LIMITS.changesPage : FEED_LIMITS.headsPage;
        const page = withChanges
          ? await session.changesAfter(this.head!, upTo, size)
          : await session.changeHeadsAfter(this.head!, upTo, size);
        for (const entry of page) {
          this.keep(entry);
          this.observer?.changeRead(entry.at);
        }
        this.moveHead(page.length < size ? { version: upTo, seq: Number.MAX_SAFE_INTEGER } : page[page.length - 1]);
        this.wakeAll();
        await this.turns.take(FEED_LIMITS.pageCost);
      }
      this.wakeAll();
    } while (this.again && !this.stopped);
  }

  /** Adds an entry to the window, letting the oldest go beyond its limits. */
  private keep(entry: Entry): void {
    this.window.push(entry);
    this.windowBindingChanges += changeCount(entry);
    while (
      this.window.length - this.windowFrom > FEED_LIMITS.window ||
      this.windowBindingChanges > FEED_LIMITS.windowBindingChanges
    ) {
      const oldest = this.window[this.windowFrom];
      this.windowBindingChanges -= changeCount(oldest);
      this.windowStart = oldest;
      this.windowFrom++;
    }
    // Compact now and then, so the array does not grow without end.
    if (this.windowFrom > FEED_LIMITS.window) {
      this.window = this.window.slice(this.windowFrom);
      this.windowFrom = 0;
    }
  }

  private moveHead(position: LogPosition): void {
    this.head = position;
    // Nothing kept: the window starts at the head.
    if (this.window.length === this.windowFrom) this.windowStart = position;
  }

  private clearWindow(): void {
    this.window = [];
    this.windowFrom = 0;
    this.windowBindingChanges = 0;
    if (this.head) this.windowStart = this.head;
  }

  private wakeAll(): void {
    for (const sleeper of [...this.sleepers]) sleeper();
  }
}

/** One subscription's place in the log (see ChangeFeed). */
class FeedCursor<T> implements AsyncIterableIterator<T> {
  private ended = false;
  /** Entries read from the log for this cursor, not yet sent. */
  private page: Entry[] = [];
  /** Items of the entry being sent, not yet sent. */
  private items: T[] = [];
  /** Whether that entry came from the feed's window (a live delivery) rather than a page of this cursor's own. */
  private live = false;
  private wake: (() => void) | null = null;
  /** Whether its entries come from pages of its own read from the log (a replay, or behind the window). */
  private replaying = false;
  /** Since when (performance.now()) its client has the last event and has not asked for the next; null: it has asked. */
  private withClientSince: number | null = null;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly request: FeedRequest<T>,
    private position: LogPosition,
  ) {}

  get bindingChanges(): boolean {
    return this.request.bindingChanges;
  }

  /**
   * Whether a write at `version` need not wait for this cursor: its client has taken every entry up to it and
   * asked for more (the cursor is caught up past it, or has moved on to a later version), or has stalled.
   */
  settledAt(version: number, now: number): boolean {
    // A replay (reading the log in pages of its own) is not up to date: writers do not wait for it.
    if (this.replaying) return true;
    if (after(this.position, { version, seq: Number.MAX_SAFE_INTEGER - 1 })) return true;
    return this.withClientSince !== null && now - this.withClientSince > FEED_LIMITS.stalledMs;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<T>> {
    // The client took the last event and asks for the next.
    this.withClientSince = null;
    for (;;) {
      if (this.ended) return DONE;
      const ready = this.request.ready?.();
      if (ready) {
        // An SSE stream its client does not drain: waiting on the client.
        this.withClientSince = performance.now();
        await ready;
        this.withClientSince = null;
      }
      if (this.ended) return DONE;
      if (this.items.length > 0) {
        // A delivery spends one unit of the turn; taking an entry kept in memory, or finding none, spends nothing
        // (a page read from the log spends its own: readPage).
        const turn = (this.live ? this.feed.liveTurns : this.feed.turns).take();
        if (turn) await turn;
        if (this.ended) return DONE;
        this.feed.delivered++;
        const value = this.items.shift()!;
        this.withClientSince = performance.now();
        return { done: false, value };
      }
      const entry = await this.nextEntry();
      if (this.ended) return DONE;
      if (entry === null) {
        // Caught up with the log: whatever a write waits for up to here is handed over.
        this.feed.progressed();
        const { slept, wake } = this.feed.sleep(this.position);
        this.wake = wake;
        await slept;
        this.wake = null;
        continue;
      }
      const moved = entry.version > this.position.version;
      this.position = entry;
      if (moved) this.feed.progressed(); // on to a later version: every entry before it was taken
      const items = this.request.items(entry as ChangeRecord);
      this.items = [...(isPromise(items) ? await items : items)];
    }
  }

  /** Ends the subscription now, also while it waits: it holds nothing after this. */
  async return(): Promise<IteratorResult<T>> {
    if (!this.ended) {
      this.ended = true;
      this.page = [];
      this.items = [];
      this.feed.forget(this);
      this.wake?.();
    }
    return DONE;
  }

  async throw(error?: unknown): Promise<IteratorResult<T>> {
    await this.return();
    throw error;
  }

  /** The next entry to send, or null when the log has nothing after this cursor yet. */
  private async nextEntry(): Promise<Entry | null> {
    const fromPage = this.page.shift();
    this.live = false;
    this.replaying = fromPage !== undefined;
    if (fromPage) return fromPage;
    const kept = this.feed.next(this.position, this.request.bindingChanges);
    if (kept === 'read') {
      this.replaying = true;
      const read = await this.readPage();
      this.replaying = read !== null;
      return read;
    }
    if ('caughtUp' in kept) {
      this.position = kept.caughtUp;
      return null;
    }
    this.live = true;
    return kept;
  }

  /** Reads the next page of the log after this cursor's position, and gives its first entry. */
  private async readPage(): Promise<Entry | null> {
    const turn = this.feed.turns.take(FEED_LIMITS.pageCost);
    if (turn) await turn;
    if (this.ended) return null;
    const { entries, end } = await this.feed.read(this.position, this.request.bindingChanges);
    if (entries.length === 0) {
      // Nothing in the log up to its end: everything up to there was sent.
      if (end > this.position.version) this.position = { version: end, seq: Number.MAX_SAFE_INTEGER };
      return null;
    }
    this.page = entries;
    return this.page.shift()!;
  }
}

/** True when `a` comes after `b` in the log. */
function after(a: LogPosition, b: LogPosition): boolean {
  return a.version > b.version || (a.version === b.version && a.seq > b.seq);
}

function changeCount(entry: Entry): number {
  return 'bindingChanges' in entry ? entry.bindingChanges.length : 0;
}
