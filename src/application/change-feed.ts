import type { ChangeRecord } from '../persistence/records';
import type { RegistryVersioning } from './versioning';

/** Where an entry stands in the change log: its version, then its place within the version. */
export interface LogPosition {
  readonly version: number;
  readonly seq: number;
}

/** Limits of the live change feed. */
export const FEED_LIMITS = {
  /** Entries read from the log per statement, when catching up or replaying. */
  page: 500,
  /** Entries a subscriber may have waiting; beyond, it is too slow and is dropped (it resumes with afterVersion). */
  queue: 1_000,
} as const;

/** Sees each change-log entry the feed hands to its subscribers (the metrics: events and lag). */
export interface FeedObserver {
  /** An entry committed at `at` (ISO time, on whichever instance wrote it) went to `subscribers` subscribers. */
  changeDelivered(at: string, subscribers: number): void;
}

/** A subscriber that fell too far behind. */
export class SlowConsumerError extends Error {
  constructor() {
    super('too many changes were waiting to be sent; resume with afterVersion');
  }
}

interface Subscriber {
  readonly queue: ChangeRecord[];
  wake: (() => void) | null;
  overflowed: boolean;
  readonly onOverflow: (() => void) | undefined;
}

/** What a subscription asks for. */
export interface FeedRequest {
  /** Replay every entry after this version from the log first; null: only what commits from now on. */
  readonly afterVersion: number | null;
  /**
   * Called once, as soon as the subscriber falls too far behind (the transport closes the connection): at
   * once, not when it next asks for an entry, since a consumer stuck on a send may never ask again.
   */
  readonly onOverflow?: () => void;
}

/**
 * The live change log. Every committed change is signalled (by this
 * process's own writes, and on PostgreSQL by NOTIFY from every instance); the
 * feed then reads the log from the last entry it delivered up to the current
 * version, through a read session, and hands each entry, in order, to every
 * subscriber. The log is the one source: a lost signal or a dropped
 * connection only delays delivery until the next signal, never loses an entry.
 *
 * A subscriber with `afterVersion` is registered first and then replays the
 * log, so entries committed meanwhile wait in its queue; entries it has
 * already sent are skipped by position, so the seam has no gap and no
 * duplicate. Each subscriber's queue is bounded.
 */
export class ChangeFeed {
  private readonly subscribers = new Set<Subscriber>();
  private readonly queueLimit: number;
  private readonly observer: FeedObserver | undefined;
  private delivered: LogPosition | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** The newest version a signal named; null when a signal named none (then the version is read). */
  private target: number | null = 0;

  constructor(
    private readonly versioning: RegistryVersioning,
    options: { queueLimit?: number; observer?: FeedObserver } = {},
  ) {
    this.queueLimit = options.queueLimit ?? FEED_LIMITS.queue;
    this.observer = options.observer;
  }

  /** Starts at the current version: what committed before is in the log, for replay. */
  async start(): Promise<void> {
    this.delivered = { version: (await this.versioning.current()).version, seq: Number.MAX_SAFE_INTEGER };
  }

  /**
   * A change committed (at `version`, when the signal knows it; a reconnect does not): read the log up to
   * there and deliver it. Signals that come while reading are coalesced. With nobody subscribed nothing is read.
   */
  signal(version?: number): void {
    if (this.stopped || this.delivered === null) return;
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

  /** Number of subscribers (for tests and the benchmark). */
  get size(): number {
    return this.subscribers.size;
  }

  /** Ends every subscription (at shutdown). */
  stop(): void {
    this.stopped = true;
    for (const subscriber of this.subscribers) {
      subscriber.wake?.();
    }
  }

  /** The entries for one subscriber, in log order: replayed from the log when asked, then live. */
  async *subscribe(request: FeedRequest): AsyncGenerator<ChangeRecord> {
    const subscriber: Subscriber = { queue: [], wake: null, overflowed: false, onOverflow: request.onOverflow };
    this.subscribers.add(subscriber);
    try {
      let sent: LogPosition | null =
        request.afterVersion === null ? null : { version: request.afterVersion, seq: Number.MAX_SAFE_INTEGER };
      if (sent !== null) {
        // Replay: everything after afterVersion that the log holds now, page by page.
        const session = this.versioning.session();
        const upTo = await session.currentVersion();
        for (;;) {
          const page = await session.changesAfter(sent, upTo, FEED_LIMITS.page);
          for (const entry of page) {
            sent = entry;
            yield entry;
          }
          if (page.length < FEED_LIMITS.page) break;
        }
      }
      for (;;) {
        while (subscriber.queue.length > 0) {
          const entry = subscriber.queue.shift()!;
          if (sent !== null && !after(entry, sent)) continue;
          sent = entry;
          yield entry;
        }
        if (subscriber.overflowed) throw new SlowConsumerError();
        if (this.stopped) return;
        await new Promise<void>((resolve) => (subscriber.wake = resolve));
        subscriber.wake = null;
      }
    } finally {
      this.subscribers.delete(subscriber);
    }
  }

  private async catchUp(): Promise<void> {
    do {
      this.again = false;
      const session = this.versioning.session();
      const named = this.target;
      this.target = 0;
      const upTo = named ?? (await session.currentVersion());
      if (this.subscribers.size === 0) {
        // Nobody listens: nothing to read. A later subscriber replays from the log.
        if (this.delivered!.version < upTo) this.delivered = { version: upTo, seq: Number.MAX_SAFE_INTEGER };
        continue;
      }
      while (this.delivered!.version < upTo) {
        const page = await session.changesAfter(this.delivered!, upTo, FEED_LIMITS.page);
        if (page.length === 0) {
          this.delivered = { version: upTo, seq: Number.MAX_SAFE_INTEGER };
          break;
        }
        for (const entry of page) this.deliver(entry);
        this.delivered = page[page.length - 1];
        if (page.length < FEED_LIMITS.page) {
          this.delivered = { version: upTo, seq: Number.MAX_SAFE_INTEGER };
          break;
        }
      }
    } while (this.again && !this.stopped);
  }

  private deliver(entry: ChangeRecord): void {
    let queued = 0;
    for (const subscriber of this.subscribers) {
      if (subscriber.overflowed) continue;
      if (subscriber.queue.length >= this.queueLimit) {
        // Dropped: it gets nothing more, and stops counting as a subscriber now.
        subscriber.overflowed = true;
        subscriber.queue.length = 0;
        this.subscribers.delete(subscriber);
        subscriber.onOverflow?.();
      } else {
        subscriber.queue.push(entry);
        queued += 1;
      }
      subscriber.wake?.();
    }
    this.observer?.changeDelivered(entry.at, queued);
  }
}

/** True when `a` comes after `b` in the log. */
function after(a: LogPosition, b: LogPosition): boolean {
  return a.version > b.version || (a.version === b.version && a.seq > b.seq);
}
