/**
 * Writes waiting for the live feed (ChangeFeed.settled): each waits until
 * its version has been handed to every subscriber that keeps up, as
 * `isSettled` judges, or until its limit. They are released in version
 * order: a version settled settles every one before it.
 */
export class WriterPacing {
  /** Oldest version first. */
  private waiters: { version: number; done: () => void }[] = [];

  constructor(
    private readonly isSettled: (version: number) => boolean,
    /** After this long, a client that has not taken its event counts as stalled: the waiters are judged again. */
    private readonly stalledMs: number,
  ) {}

  /** Resolves once `version` is settled, or after `limitMs`. */
  wait(version: number, limitMs: number): Promise<void> {
    if (this.isSettled(version)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timers: ReturnType<typeof setTimeout>[] = [];
      const waiter = {
        version,
        done: () => {
          for (const timer of timers) clearTimeout(timer);
          resolve();
        },
      };
      let at = this.waiters.length;
      while (at > 0 && this.waiters[at - 1].version > version) at--;
      this.waiters.splice(at, 0, waiter);
      // A client that stops taking events counts as stalled only once the time has passed: judge again then.
      timers.push(setTimeout(() => this.progressed(), this.stalledMs + 1).unref());
      timers.push(
        setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          waiter.done();
        }, limitMs).unref(),
      );
    });
  }

  /** Something moved: releases the waiters whose version is settled now. */
  progressed(): void {
    let settledUpTo = 0;
    for (const waiter of this.waiters) {
      if (!this.isSettled(waiter.version)) break;
      settledUpTo = waiter.version;
    }
    if (settledUpTo > 0) this.release(settledUpTo);
  }

  /** Releases every waiter (the feed stopped). */
  releaseAll(): void {
    this.release(Number.MAX_SAFE_INTEGER);
  }

  private release(upTo: number): void {
    const done = this.waiters.filter((w) => w.version <= upTo);
    this.waiters = this.waiters.filter((w) => w.version > upTo);
    for (const waiter of done) waiter.done();
  }
}
