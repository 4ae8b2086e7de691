import type { RegistryState } from '../../persistence/records';
import type { RegistryClock } from './registry-clock';

/**
 * The registry version one session reads at: pinned once, before its first
 * read, from the clock, and kept until a reset (after the request's own
 * write, so that it reads its change).
 */
export class VersionPin {
  private pinning: Promise<RegistryState> | null = null;
  private pinned: RegistryState | undefined;

  constructor(private readonly clock: RegistryClock) {}

  /** The pinned counters, or undefined before the pin. */
  get state(): RegistryState | undefined {
    return this.pinned;
  }

  /** Pins the registry version (once, until a reset). */
  pin(): Promise<RegistryState> {
    return (this.pinning ??= this.clock.current().then(
      (state) => (this.pinned = state),
      (error: unknown) => {
        // A failed read pins nothing: the next read of the session tries again.
        this.pinning = null;
        throw error;
      },
    ));
  }

  /**
   * Pins the version now when that needs no wait (already pinned, or a clock
   * that keeps the version in memory, as on SQLite) and says so; false when
   * a pin must be waited for (`pin`).
   */
  pinNow(): boolean {
    if (this.pinned) return true;
    if (this.pinning) return false;
    const state = this.clock.currentNow?.();
    if (state === undefined) return false;
    this.pinned = state;
    this.pinning = Promise.resolve(state);
    return true;
  }

  /** A pin at the same version, for a fork (its own from then on: a reset of either leaves the other). */
  copy(): VersionPin {
    const copy = new VersionPin(this.clock);
    copy.pinning = this.pinning;
    copy.pinned = this.pinned;
    return copy;
  }

  /** Forgets the pinned version: the next read pins again. */
  reset(): void {
    this.pinning = null;
    this.pinned = undefined;
  }
}
