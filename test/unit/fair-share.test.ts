// Fair sharing of the thread: the heavy lane's order, and a heavy request's resolvers yielding to the event loop.
import { expect } from 'chai';
import { buildSchema, getIntrospectionQuery, graphql } from 'graphql';
import { Lane, newFairShare, shareTime, WAVE_LIMIT_MS } from '../../src/graphql/fair-share';

describe('fair share', () => {
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

  it("yields to the event loop during a heavy request's execution, and never during another's", async () => {
    const schema = shareTime(buildSchema('type Query { items: [Item!]! } type Item { n: Int! }'));
    const busy = (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };
    schema.getQueryType()!.getFields().items.resolve = () => Array.from({ length: 20 }, (_, n) => ({ n }));
    const item = schema.getType('Item') as any;
    item.getFields().n.resolve = ({ n }: { n: number }) => (busy(WAVE_LIMIT_MS / 4), n);
    shareTime(schema); // wraps the resolvers set after the first call too, and the first ones only once

    for (const heavy of [false, true]) {
      let others = 0;
      let running = true;
      const other = () => {
        others++;
        if (running) setImmediate(other);
      };
      setImmediate(other);
      const contextValue = heavy ? { fairShare: newFairShare() } : {};
      const result = await graphql({ schema, source: '{ items { n } }', contextValue });
      running = false;
      expect(result.errors).to.equal(undefined);
      expect((result.data as any).items).to.have.length(20);
      if (heavy) {
        // Introspection yields at every slice: a full introspection, its slice already spent, lets others run.
        const spent = newFairShare();
        spent.since -= 1000;
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
      }
      if (heavy) expect(others, 'others ran while it executed').to.be.at.least(3);
      else expect(others).to.be.at.most(1);
    }
  });
});
