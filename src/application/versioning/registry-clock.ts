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

/**
 * Several server instances share one PostgreSQL database, so each request
 * reads the counters (one cheap statement): another instance's write is seen
 * at once.
 */
export class SharedDatabaseClock implements RegistryClock {
  constructor(private readonly reader: RegistryReader) {}

  current(): Promise<RegistryState> {
    return this.reader.registryState();
  }

  committed(): void {}
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
