/**
 * A budget of work per turn of the event loop, shared by everyone who takes
 * from it: once `perTurn` units are spent, the next taker waits for a later
 * turn (setImmediate), so the requests that arrived meanwhile are read and
 * served in between. Takers are let go first in, first out. The budget is a
 * count, not a clock, so what runs in each turn is the same from run to run.
 *
 * The live feed takes one unit per change it delivers to a subscriber and a
 * few per page it reads from the log: a replay of 100,000 entries, or an
 * event fanned out to 10,000 subscribers, runs in slices between which the
 * server answers everything else.
 *
 * With a clock, a turn's budget also grows with how long the rest of the
 * turn took (from the moment the budget ran out, or a taker began to wait,
 * to the next turn: the requests served meanwhile): `perTurn` for each
 * SLICE_MS of it, up to MAX_SCALE times
 * `perTurn`. Without that, a server kept busy by requests (10 connections
 * writing as fast as they can, each turn serving several) gave the feed 64
 * deliveries per long turn, and subscribers fell seconds behind; with it,
 * the feed's share of the thread follows the rest's, and a turn of light
 * requests still gives it `perTurn` alone. Without a clock (the tests), the
 * budget is a plain count, the same from run to run.
 */
export class TurnBudget {
  private left: number;
  private readonly waiting: { units: number; go: () => void }[] = [];
  private scheduled = false;
  /** When this turn's budget ran out, or a taker began to wait (by the clock). */
  private ranOutAt = 0;

  /**
   * `perMs` (with a clock): units per millisecond of the rest of the turn, `perTurn` unless given; a turn's budget
   * is never less than `perTurn` nor more than MAX_SCALE × `perTurn`.
   */
  constructor(
    private readonly perTurn: number,
    private readonly clock: (() => number) | null = null,
    private readonly perMs: number = perTurn / SLICE_MS,
  ) {
    this.left = perTurn;
  }

  /** Spends `units` now, if this turn has them and nobody waits before; else a promise of a later turn that has. */
  take(units = 1): Promise<void> | null {
    if (this.waiting.length === 0 && this.left >= units) {
      this.left -= units;
      if (this.left === 0) this.schedule();
      return null;
    }
    const turn = new Promise<void>((go) => this.waiting.push({ units, go }));
    this.schedule();
    return turn;
  }

  /** Takers waiting for a later turn (for tests). */
  get queued(): number {
    return this.waiting.length;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    if (this.clock) this.ranOutAt = this.clock();
    setImmediate(() => {
      this.scheduled = false;
      const full = this.refill();
      this.left = full;
      // A taker asking more than a whole turn still goes, alone, at the start of one.
      while (this.waiting.length > 0 && (this.left >= this.waiting[0].units || this.left === full)) {
        const next = this.waiting.shift()!;
        this.left = Math.max(0, this.left - next.units);
        next.go();
      }
      if (this.waiting.length > 0 || this.left === 0) this.schedule();
    });
  }

  /** This turn's budget: `perTurn`, or with a clock, `perMs` per millisecond the rest of the turn took (see above). */
  private refill(): number {
    if (!this.clock) return this.perTurn;
    const rest = this.clock() - this.ranOutAt;
    return Math.min(this.perTurn * MAX_SCALE, Math.max(this.perTurn, Math.floor(rest * this.perMs)));
  }
}

/** Milliseconds of the rest of a turn that earn the feed another `perTurn` (about what `perTurn` deliveries take). */
export const SLICE_MS = 1;
/** At most this many times `perTurn` in one turn (a turn of 16 ms or more). */
export const MAX_SCALE = 16;
