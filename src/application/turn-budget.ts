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
 */
export class TurnBudget {
  private left: number;
  private readonly waiting: { units: number; go: () => void }[] = [];
  private scheduled = false;

  constructor(private readonly perTurn: number) {
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
    setImmediate(() => {
      this.scheduled = false;
      this.left = this.perTurn;
      // A taker asking more than a whole turn still goes, alone, at the start of one.
      while (this.waiting.length > 0 && (this.left >= this.waiting[0].units || this.left === this.perTurn)) {
        const next = this.waiting.shift()!;
        this.left = Math.max(0, this.left - next.units);
        next.go();
      }
      if (this.waiting.length > 0 || this.left === 0) this.schedule();
    });
  }
}
