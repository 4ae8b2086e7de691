// Fair sharing of the thread: the heavy lane's order, and a heavy request's resolvers yielding to the event loop.
import { expect } from 'chai';
import { buildSchema, getIntrospectionQuery, graphql } from 'graphql';
import DataLoader from 'dataloader';
import { CALLS_PER_TURN, FairShare, newFairShare, shareTime } from '../../src/engine/fair-share';
import { Lane, LaneFullError } from '../../src/engine/admission/heavy-lane';

describe('fair share', () => {
  it('hands the lane to the next holder on a later turn of the event loop, never within the same one', async () => {
    const lane = new Lane(1);
    const leaveA = await lane.enter();
    let admitted = false;
    const b = lane.enter().then((leave) => ((admitted = true), leave));
    leaveA();
    expect(lane.queued, 'b has the next place').to.equal(0);
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(admitted, 'not within the turn that left').to.equal(false);
    await new Promise(setImmediate);
    (await b)();
    expect(admitted).to.equal(true);
  });

  it('lets one holder at a time through the heavy lane, first in first out', async () => {
    const lane = new Lane(1);
    const order: string[] = [];
    const leaveA = await lane.enter();
    const b = lane.enter().then((leave) => (order.push('b'), leave));
    const c = lane.enter().then((leave) => (order.push('c'), leave));
    await new Promise(setImmediate);
    expect(order).to.deep.equal([]);
    expect(lane.queued).to.equal(2);
    leaveA();
    leaveA(); // leaving twice gives back one place only
    const leaveB = await b;
    expect(order).to.deep.equal(['b']);
    leaveB();
    (await c)();
    expect(order).to.deep.equal(['b', 'c']);
    expect(lane.queued).to.equal(0);
    await lane.enter(); // the place is free again
  });

  it("yields to the event loop during a heavy request's execution, CALLS_PER_TURN calls a turn, and never during another's", async () => {
    const schema = shareTime(buildSchema('type Query { items: [Item!]! } type Item { n: Int! }'));
    const count = 2 * CALLS_PER_TURN + 50;
    schema.getQueryType()!.getFields().items.resolve = () => Array.from({ length: count }, (_, n) => ({ n }));
    const item = schema.getType('Item') as any;
    // Each call loads through one DataLoader, whose batches show which calls ran in the same turn.
    let batches: number[] = [];
    let loader = new DataLoader<number, number>(async (keys) => (batches.push(keys.length), keys));
    item.getFields().n.resolve = ({ n }: { n: number }) => loader.load(n);
    shareTime(schema); // wraps the resolvers set after the first call too, and the first ones only once

    for (const heavy of [false, true]) {
      batches = [];
      loader = new DataLoader<number, number>(async (keys) => (batches.push(keys.length), keys));
      let others = 0;
      let running = true;
      const other = () => {
        others++;
        if (running) setImmediate(other);
      };
      setImmediate(other);
      // Every request's context holds a share; only a started one (a heavy request's) yields.
      const contextValue = { fairShare: heavy ? newFairShare() : new FairShare() };
      const result = await graphql({ schema, source: '{ items { n } }', contextValue });
      running = false;
      expect(result.errors).to.equal(undefined);
      expect((result.data as any).items.map((i: any) => i.n)).to.deep.equal(Array.from({ length: count }, (_, n) => n));
      if (heavy) {
        // The list's resolver spent one call of the first turn: 99 items then, 100 the next turn, the rest after.
        expect(batches).to.deep.equal([CALLS_PER_TURN - 1, CALLS_PER_TURN, count - 2 * CALLS_PER_TURN + 1]);
        expect(others, 'others ran while it executed').to.be.at.least(2);
        // Introspection's resolvers are shared too: a full introspection lets others run.
        const before = others;
        running = true;
        setImmediate(other);
        const introspection = await graphql({
          schema,
          source: getIntrospectionQuery(),
          contextValue: { fairShare: newFairShare() },
        });
        running = false;
        expect(introspection.errors).to.equal(undefined);
        expect(others - before).to.be.at.least(1);
      } else {
        expect(batches).to.deep.equal([count]);
        expect(others).to.be.at.most(1);
      }
    }
  });
});

describe("fair share: a request's share, made with its context", () => {
  it('pauses only between start and stop', async () => {
    const share = new FairShare();
    expect(share.pauseIfDue(), 'idle').to.equal(undefined);
    share.start();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const pause = share.pauseIfDue();
    expect(pause, 'heavy, with its slice spent').to.be.an.instanceOf(Promise);
    await pause;
    share.stop();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(share.pauseIfDue(), 'stopped').to.equal(undefined);
  });
});

describe('fair share: the heavy lane is bounded', () => {
  it('refuses to queue past its limit, and takes waiters again once the queue moves', async () => {
    const lane = new Lane(1, 2);
    const leaveA = await lane.enter();
    const b = lane.enter();
    const c = lane.enter();
    let refused: unknown = null;
    await lane.enter().catch((error: unknown) => (refused = error));
    expect(refused).to.be.instanceOf(LaneFullError);
    expect(lane.queued).to.equal(2);
    leaveA(); // b runs, c waits: there is room for one more
    const d = lane.enter();
    expect(lane.queued).to.equal(2);
    (await b)();
    (await c)();
    (await d)();
    expect(lane.queued).to.equal(0);
  });
});
