/** Limits of the live change feed (./change-feed.ts) and of the writers it paces (./writer-pacing.ts). */
export const FEED_LIMITS = {
  /** Entries read from the log per statement without their binding changes (small rows). */
  headsPage: 200,
  /** Entries read per statement with their binding changes (up to 1,000 each). */
  changesPage: 10,
  /** The newest entries kept in memory for the subscribers who are up to date. */
  window: 2_000,
  /** Binding changes kept in memory with those entries, all together; beyond, the oldest entries go. */
  windowBindingChanges: 20_000,
  /** Deliveries per turn of the event loop, across every subscriber (./turn-budget.ts). */
  perTurn: 64,
  /**
   * Live deliveries (entries kept in the window) per millisecond of the rest of a turn, when the feed has a clock:
   * about three times what a millisecond of other work lets through at 64 (a delivery takes about 15 µs), so that a
   * server kept busy by writers gives the subscribers who are up to date what they need at once, and they do not
   * fall behind (at 64 per ms, 100 subscribers beside 10 unpaced writers fell about a second behind). The slice is
   * still at most MAX_SCALE × perTurn.
   */
  livePerMs: 256,
  /** What reading a page from the log counts for in that budget. */
  pageCost: 16,
  /**
   * Back-pressure on writers (ChangeFeed.settled): how long a committed write waits, at most, for the
   * subscribers who are up to date to be handed it, so that writers cannot run ahead of the fan-out.
   */
  settleMs: 250,
  /**
   * A subscriber whose own client has not taken its last event for this long (its socket is full, or an SSE
   * stream is not drained) is not waited for: one slow client does not slow the writers down.
   */
  stalledMs: 20,
} as const;
