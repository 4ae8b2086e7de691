import type { RegistryState } from '../../persistence/records';
import type { RegistryReader } from '../../persistence/registry-reader';

/**
 * Where a request learns the registry version its caches must match.
 * Writes report what they committed through `committed`.
 */
export interface RegistryClock {
  /** The registry version now. */
  current(): Promise<RegistryState>;
  /** The registry version now when it is known without a read (kept in memory), else undefined. */
  currentNow?(): RegistryState | undefined;
  /** Called after a write commits, with the counters it left. */
  committed(state: RegistryState): void;
}

/** One caller waiting for the version: settled by the first read sent after it asked. */
interface Waiter {
  resolve(state: RegistryState): void;
  reject(error: unknown): void;
}

/**
 * Several server instances share one PostgreSQL database, so the counters are
 * read from it (one cheap statement): another instance's write is seen at once.
 *
 * Concurrent requests share those reads, with one rule: a caller is answered
 * only by a read sent after it asked. A read sees every write committed before
 * the read was sent, so a request that starts after a commit on any instance
 * still sees it. One read is in flight at a time, sent at the end of the turn
 * of the event loop in which someone asked, for everyone who asked in that
 * turn (the requests whose bytes came in together are parsed in callbacks of
 * their own, one after another: sent from the first one's promise callbacks,
 * as before, a read was shared by the first alone); callers that ask while
 * it is in flight wait for the next, sent at the end of the turn in which it
 * comes back, for all of them (a read already in flight may have been sent
 * before a commit they must see, so they never join it). Under N concurrent
 * requests that is at most two reads per round trip instead of N; a lone
 * request still costs one.
 */
export class SharedDatabaseClock implements RegistryClock {
  /** A read is in flight, or about to be sent. */
  private busy = false;
  private waiting: Waiter[] = [];
  /** Version reads sent so far (for the tests and the benchmark). */
  reads = 0;

  constructor(private readonly reader: Pick<RegistryReader, 'registryState'>) {}

  /** Callers answered by the read in flight. */
  answering = 0;

  /** Callers waiting for a read not sent yet. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  current(): Promise<RegistryState> {
    return new Promise<RegistryState>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      if (this.busy) return;
      // Sent once the requests that are ready in this turn of the event loop have asked too (a read sent after
      // they asked: one for all of them).
      this.busy = true;
      setImmediate(() => this.send());
    });
  }

  committed(): void {}

  /** Sends one read for everyone waiting now; those who ask from here on wait for the next. */
  private send(): void {
    const batch = this.waiting;
    this.waiting = [];
    this.reads += 1;
    this.answering = batch.length;
    // (An async wrapper, so that a read that throws at once fails its batch like one that rejects.)
    const read = async () => this.reader.registryState();
    read().then(
      (state) => this.settle(batch, (waiter) => waiter.resolve(state)),
      (error: unknown) => this.settle(batch, (waiter) => waiter.reject(error)),
    );
  }

  private settle(batch: readonly Waiter[], answer: (waiter: Waiter) => void): void {
    this.answering = 0;
    // The next read, for those who asked while this one was in flight, and for the requests whose bytes came in
    // with its answer (sent at the end of this turn of the event loop, once they have asked).
    if (this.waiting.length > 0) setImmediate(() => this.send());
    else this.busy = false;
    for (const waiter of batch) answer(waiter);
  }
}

/**
 * On SQLite one server process owns the database file (start-up takes a lock
 * that refuses a second one), so every write goes through this process and the
 * counters can live in memory: read once at start, advanced by each commit.
 */
export class LocalClock implements RegistryClock {
  private state: RegistryState;
  private readonly resolved: { promise: Promise<RegistryState> };

  private constructor(initial: RegistryState) {
    this.state = initial;
    this.resolved = { promise: Promise.resolve(initial) };
  }

  static async start(reader: RegistryReader): Promise<LocalClock> {
    return new LocalClock(await reader.registryState());
  }

  current(): Promise<RegistryState> {
    return this.resolved.promise;
  }

  currentNow(): RegistryState {
    return this.state;
  }

  committed(state: RegistryState): void {
    if (state.version <= this.state.version) return;
    this.state = state;
    this.resolved.promise = Promise.resolve(state);
  }
}
