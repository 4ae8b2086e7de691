import { expect } from 'chai';
import { ChangeFeed, FEED_LIMITS } from '../../src/application/change-feed';
import { MAX_SCALE, TurnBudget } from '../../src/application/turn-budget';
import type { RegistryVersioning } from '../../src/application/versioning';
import type { ChangeHead, ChangeRecord } from '../../src/persistence/records';

/** A change log in memory, read the way the feed reads the real one; it counts the reads. */
class FakeLog {
  readonly entries: ChangeRecord[] = [];
  reads: { kind: 'heads' | 'changes'; after: number; limit: number }[] = [];

  get version(): number {
    return this.entries.at(-1)?.version ?? 0;
  }

  /** Commits a version of `count` entries, each with `changes` binding changes. */
  commit(count = 1, changes = 0): void {
    const version = this.version + 1;
    for (let seq = 1; seq <= count; seq++) {
      this.entries.push({
        id: `${version}.${seq}`,
        version,
        seq,
        at: '2026-12-04T00:00:00.000Z',
        actor: 'anonymous',
        operation: 'createProject',
        kind: 'PROJECT',
        entityId: `e${version}`,
        entityName: `p${version}.${seq}`,
        previousName: null,
        relatedId: null,
        relatedName: null,
        summary: '',
        impactCount: changes,
        impactComplete: true,
        namespace: null,
        bindingChanges: Array.from({ length: changes }, (_, i) => ({ n: i }) as never),
      });
    }
  }

  private after(position: { version: number; seq: number }, upTo: number, limit: number): ChangeRecord[] {
    return this.entries
      .filter(
        (e) =>
          (e.version > position.version || (e.version === position.version && e.seq > position.seq)) &&
          e.version <= upTo,
      )
      .slice(0, limit);
  }

  versioning(): RegistryVersioning {
    const session = () => ({
      currentVersion: async () => this.version,
      changesAfter: async (position: { version: number; seq: number }, upTo: number, limit: number) => {
        this.reads.push({ kind: 'changes', after: position.version, limit });
        return this.after(position, upTo, limit);
      },
      changeHeadsAfter: async (position: { version: number; seq: number }, upTo: number, limit: number) => {
        this.reads.push({ kind: 'heads', after: position.version, limit });
        return this.after(position, upTo, limit).map(({ bindingChanges: _, ...head }): ChangeHead => head);
      },
    });
    return { current: async () => ({ version: this.version, typesVersion: 0 }), session } as never;
  }
}

const entry = (e: ChangeRecord) => [e];

async function take<T>(iterator: AsyncIterator<T>, count: number): Promise<T[]> {
  const items: T[] = [];
  while (items.length < count) {
    const next = await iterator.next();
    if (next.done) break;
    items.push(next.value);
  }
  return items;
}

function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('TurnBudget', () => {
  it('lets the first `perTurn` units go at once, and the rest on later turns, first in first out', async () => {
    const budget = new TurnBudget(3);
    expect([budget.take(), budget.take(), budget.take()]).to.deep.equal([null, null, null]);
    const order: number[] = [];
    const waits = [4, 5, 6, 7].map((n) => budget.take()!.then(() => order.push(n)));
    expect(budget.queued).to.equal(4);
    await turn();
    await Promise.resolve();
    expect(order).to.deep.equal([4, 5, 6]);
    await Promise.all(waits);
    expect(order).to.deep.equal([4, 5, 6, 7]);
  });

  it('lets a taker of more than a whole turn go alone, at the start of a turn', async () => {
    const budget = new TurnBudget(4);
    expect(budget.take(2)).to.equal(null);
    const big = budget.take(10);
    expect(big).to.be.an.instanceOf(Promise);
    await big;
    expect(budget.queued).to.equal(0);
  });

  /**
   * A budget on a clock of the test's own, and how many of `count` takers go in its next turn when the rest of the
   * turn took `ms`.
   */
  function clocked(perTurn: number, perMs?: number) {
    let now = 1_000;
    const budget = new TurnBudget(perTurn, () => now, perMs);
    return async (ms: number, count: number): Promise<number> => {
      while (budget.take() === null); // spend what is left of this turn (that taker waits, first)
      let gone = 0;
      const waits = Array.from({ length: count }, () => budget.take()!.then(() => gone++));
      now += ms;
      await turn();
      await Promise.resolve();
      const inTurn = gone;
      await Promise.all(waits);
      return inTurn;
    };
  }

  it('with a clock, gives a turn `perTurn` per millisecond the rest of the turn took, from 1 to MAX_SCALE times', async () => {
    const goInOneTurn = clocked(2);
    // A short turn: perTurn (2), the first of which is the taker queued first.
    expect(await goInOneTurn(0.5, 40)).to.equal(1);
    // A turn of 5 ms: 5 × 2 = 10 units, one for the taker queued first.
    expect(await goInOneTurn(5, 40)).to.equal(9);
    // A turn of 100 ms: at most MAX_SCALE × 2.
    expect(await goInOneTurn(100, 80)).to.equal(MAX_SCALE * 2 - 1);
  });

  it('with a rate per millisecond of its own, gives a turn that many per millisecond of the rest, within the same bounds', async () => {
    const goInOneTurn = clocked(2, 8);
    // A very short turn: never less than perTurn (2).
    expect(await goInOneTurn(0.1, 40)).to.equal(1);
    // A turn of 2.5 ms: 2.5 × 8 = 20 units.
    expect(await goInOneTurn(2.5, 40)).to.equal(19);
    // A turn of 100 ms: still at most MAX_SCALE × perTurn.
    expect(await goInOneTurn(100, 80)).to.equal(MAX_SCALE * 2 - 1);
  });
});

describe('ChangeFeed', () => {
  it('delivers what commits after a live subscription starts, in log order', async () => {
    const log = new FakeLog();
    log.commit();
    const feed = new ChangeFeed(log.versioning());
    await feed.start();
    const live = feed.subscribe({ afterVersion: null, bindingChanges: false, items: entry });
    const got = take(live, 3);
    log.commit(2);
    feed.signal(log.version);
    log.commit();
    feed.signal(log.version);
    expect((await got).map((e) => e.entityName)).to.deep.equal(['p2.1', 'p2.2', 'p3.1']);
  });

  it('reads each new page of the log once for every subscriber that is up to date, without binding changes', async () => {
    const log = new FakeLog();
    const feed = new ChangeFeed(log.versioning());
    await feed.start();
    const subscribers = Array.from({ length: 20 }, () =>
      feed.subscribe({ afterVersion: null, bindingChanges: false, items: entry }),
    );
    const got = subscribers.map((s) => take(s, 5));
    log.reads = [];
    log.commit(5);
    feed.signal(log.version);
    for (const items of await Promise.all(got)) expect(items).to.have.length(5);
    expect(log.reads).to.deep.equal([{ kind: 'heads', after: 0, limit: FEED_LIMITS.headsPage }]);
  });

  it('replays from afterVersion in pages of its own, then goes on live with no gap and no duplicate', async () => {
    const log = new FakeLog();
    for (let i = 0; i < 450; i++) log.commit();
    const feed = new ChangeFeed(log.versioning());
    await feed.start();
    const replay = feed.subscribe({ afterVersion: 10, bindingChanges: false, items: entry });
    const first = await take(replay, 440);
    expect(first.map((e) => e.version)).to.deep.equal(Array.from({ length: 440 }, (_, i) => 11 + i));
    expect(log.reads.filter((r) => r.kind === 'heads').map((r) => r.after)).to.deep.equal([10, 210, 410]);
    const next = take(replay, 2);
    log.commit();
    log.commit();
    feed.signal(log.version);
    expect((await next).map((e) => e.version)).to.deep.equal([451, 452]);
  });

  it('reads binding changes, in small pages, only for subscriptions that show them', async () => {
    const log = new FakeLog();
    for (let i = 0; i < 25; i++) log.commit(1, 3);
    const feed = new ChangeFeed(log.versioning());
    await feed.start();
    const showing = feed.subscribe({ afterVersion: 0, bindingChanges: true, items: (e) => e.bindingChanges });
    expect(await take(showing, 75)).to.have.length(75);
    expect(log.reads.map((r) => [r.kind, r.after, r.limit])).to.deep.equal([
      ['changes', 0, FEED_LIMITS.changesPage],
      ['changes', 10, FEED_LIMITS.changesPage],
      ['changes', 20, FEED_LIMITS.changesPage],
    ]);
  });

  it('ends a subscription at once when it is returned, even while it waits for the next change', async () => {
    const log = new FakeLog();
    const feed = new ChangeFeed(log.versioning());
    await feed.start();
    const live = feed.subscribe({ afterVersion: null, bindingChanges: false, items: entry });
    const waiting = live.next();
    await turn();
    expect(feed.size).to.equal(1);
    await live.return();
    expect(feed.size).to.equal(0);
    expect(await waiting).to.deep.equal({ done: true, value: undefined });
  });

  it('keeps a bounded window of the newest entries, and a subscriber behind it reads the log, missing nothing', async () => {
    const log = new FakeLog();
    const feed = new ChangeFeed(log.versioning());
    await feed.start();
    // One subscriber up to date keeps the feed reading; another takes nothing for a while.
    const reader = feed.subscribe({ afterVersion: null, bindingChanges: false, items: entry });
    const laggard = feed.subscribe({ afterVersion: null, bindingChanges: false, items: entry });
    const total = FEED_LIMITS.window + 500;
    const read = take(reader, total);
    for (let i = 0; i < total; i++) log.commit();
    feed.signal(log.version);
    expect(await read).to.have.length(total);
    expect(feed.held.entries).to.equal(FEED_LIMITS.window);
    log.reads = [];
    const behind = await take(laggard, total);
    expect(behind.map((e) => e.version)).to.deep.equal(Array.from({ length: total }, (_, i) => i + 1));
    // The first 500 came from the log (in pages of its own), the rest from the window.
    expect(log.reads.map((r) => r.after)).to.deep.equal([0, 200, 400]);
  });

  it('keeps no more binding changes in memory than its limit, whatever the entries hold', async () => {
    const log = new FakeLog();
    const feed = new ChangeFeed(log.versioning());
    await feed.start();
    const showing = feed.subscribe({ afterVersion: null, bindingChanges: true, items: entry });
    const got = take(showing, 60);
    for (let i = 0; i < 60; i++) log.commit(1, 1000);
    feed.signal(log.version);
    expect(await got).to.have.length(60);
    expect(feed.held.bindingChanges).to.be.at.most(FEED_LIMITS.windowBindingChanges);
  });

  describe('back-pressure on writers (settled)', () => {
    /** Notes when a promise settles, without waiting for it. */
    function watch(promise: Promise<void>): { done: boolean } {
      const state = { done: false };
      void promise.then(() => (state.done = true));
      return state;
    }
    /** A long limit: a test that passes did not wait for it (mocha's timeout is far shorter). */
    const NEVER = 600_000;

    it('holds a write until every subscriber that keeps up has taken its entries and asked for more', async () => {
      const log = new FakeLog();
      const feed = new ChangeFeed(log.versioning());
      await feed.start();
      // Nobody subscribed: nothing to wait for.
      await feed.settled(1, NEVER);
      const a = feed.subscribe({ afterVersion: null, bindingChanges: false, items: entry });
      const b = feed.subscribe({ afterVersion: null, bindingChanges: false, items: entry });
      const firstA = a.next();
      const firstB = b.next();
      await turn();
      log.commit(2);
      feed.signal(log.version);
      const write = watch(feed.settled(log.version, NEVER));
      await firstA;
      await firstB;
      expect(write.done, 'each has the first entry only').to.equal(false);
      await a.next();
      await b.next();
      for (let i = 0; i < 5; i++) await turn();
      expect(write.done, 'each has both entries, and has not asked for more').to.equal(false);
      const afterA = a.next();
      for (let i = 0; i < 5; i++) await turn();
      expect(write.done, 'one has asked for more').to.equal(false);
      const afterB = b.next();
      for (let i = 0; i < 5; i++) await turn();
      expect(write.done, 'both have').to.equal(true);
      await a.return();
      await b.return();
      await Promise.all([afterA, afterB]);
    });

    it('does not wait for a subscriber whose client has stalled, nor for one that replays the log', async () => {
      const log = new FakeLog();
      for (let i = 0; i < 500; i++) log.commit();
      const feed = new ChangeFeed(log.versioning());
      await feed.start();
      // Replaying from the start of the log, in pages of its own: not up to date.
      const replay = feed.subscribe({ afterVersion: 0, bindingChanges: false, items: entry });
      await take(replay, 3);
      const pending = replay.next();
      // Up to date, then given an entry its client never takes.
      const stalled = feed.subscribe({ afterVersion: null, bindingChanges: false, items: entry });
      const first = stalled.next();
      await turn();
      log.commit();
      feed.signal(log.version);
      await first;
      log.commit();
      feed.signal(log.version);
      // Released once the stalled client has held its event past FEED_LIMITS.stalledMs, long before NEVER.
      await feed.settled(log.version, NEVER);
      await pending;
      await replay.return();
      await stalled.return();
    });

    it('releases every waiting write when the feed stops, and a subscription that ends holds nothing up', async () => {
      const log = new FakeLog();
      const feed = new ChangeFeed(log.versioning());
      await feed.start();
      /** A live subscriber handed a new entry it has not taken yet, and a write waiting for it. */
      async function heldWrite() {
        const live = feed.subscribe({ afterVersion: null, bindingChanges: false, items: entry });
        const waiting = live.next();
        await turn();
        log.commit();
        feed.signal(log.version);
        await waiting;
        const write = watch(feed.settled(log.version, NEVER));
        await turn();
        expect(write.done).to.equal(false);
        return { live, write };
      }
      const { live, write } = await heldWrite();
      await live.return();
      await turn();
      expect(write.done, 'its only subscriber ended').to.equal(true);
      const { write: held } = await heldWrite();
      feed.stop();
      await turn();
      expect(held.done, 'the feed stopped').to.equal(true);
    });
  });
});
