import { expect } from 'chai';
import fc from 'fast-check';
import { SharedDatabaseClock } from '../../src/application/versioning/registry-clock';
import type { RegistryState } from '../../src/persistence/records';

/**
 * A database whose version reads are answered only when the test says so. Each read takes the version committed
 * when it was sent, as a statement's snapshot does.
 */
function heldDatabase() {
  let committed = 0;
  const reads: { version: number; settle: (error?: Error) => void }[] = [];
  const reader = {
    registryState: () =>
      new Promise<RegistryState>((resolve, reject) => {
        const version = committed;
        reads.push({
          version,
          settle: (error) => (error ? reject(error) : resolve({ version, typesVersion: 0 })),
        });
      }),
  };
  return {
    reader,
    commit: () => ++committed,
    get committed() {
      return committed;
    },
    /**
     * Answers the oldest read not answered yet, and lets the clock's callbacks run: the answer's, then the next
     * read's, sent at the end of that turn of the event loop.
     */
    async answerOldest(error?: Error) {
      const read = reads.shift();
      if (!read) throw new Error('no read in flight');
      read.settle(error);
      await settled();
      await settled();
    },
    get inFlight() {
      return reads.length;
    },
  };
}

/** Lets every queued promise callback run, and what they set for the end of the turn (the clock sends its reads then). */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the PostgreSQL registry clock (version reads shared by concurrent requests)', () => {
  it('answers 50 requests that ask together with one read, and those that ask while it is in flight with one more', async () => {
    const db = heldDatabase();
    const clock = new SharedDatabaseClock(db.reader);
    const first = Array.from({ length: 50 }, () => clock.current());
    await settled();
    expect(clock.reads, 'one read for the 50 that asked in one turn').to.equal(1);
    const later = Array.from({ length: 50 }, () => clock.current());
    await settled();
    expect(db.inFlight, 'those who asked later wait: one read in flight at a time').to.equal(1);
    await db.answerOldest();
    expect(clock.reads).to.equal(2);
    await db.answerOldest();
    await Promise.all([...first, ...later]);
    expect(clock.reads, 'two reads for 100 requests, where each used to send its own').to.equal(2);
    expect(db.inFlight).to.equal(0);
  });

  it('sends one read for the requests that ask in the same turn of the event loop, each from its own callback', async () => {
    // Requests whose bytes arrive together are parsed in callbacks of their own, one after another in one turn:
    // the read waits for the end of that turn, so they share it.
    const db = heldDatabase();
    const clock = new SharedDatabaseClock(db.reader);
    const answers: Promise<RegistryState>[] = [];
    await new Promise<void>((resolve) => {
      for (let i = 0; i < 5; i++) setImmediate(() => answers.push(clock.current()));
      setImmediate(resolve);
    });
    await settled();
    expect(answers).to.have.length(5);
    expect(clock.reads).to.equal(1);
    await db.answerOldest();
    expect((await Promise.all(answers)).map((a) => a.version)).to.deep.equal([0, 0, 0, 0, 0]);
  });

  it('never answers a request with a read sent before it asked: a commit in between is seen', async () => {
    const db = heldDatabase();
    const clock = new SharedDatabaseClock(db.reader);
    const before = clock.current();
    await settled();
    db.commit(); // another instance commits while the first read is in flight
    const after = clock.current();
    await db.answerOldest();
    expect((await before).version, 'the read sent before the commit').to.equal(0);
    await db.answerOldest();
    expect((await after).version, 'a request that asked after the commit sees it').to.equal(1);
  });

  it('fails every request of a failed read, and sends a new read for the next', async () => {
    const db = heldDatabase();
    const clock = new SharedDatabaseClock(db.reader);
    const outcomes = Promise.allSettled([clock.current(), clock.current()]);
    await settled();
    await db.answerOldest(new Error('connection lost'));
    expect(
      (await outcomes).map((o) => (o.status === 'rejected' ? (o.reason as Error).message : 'answered')),
    ).to.deep.equal(['connection lost', 'connection lost']);
    const next = clock.current();
    await settled();
    await db.answerOldest();
    expect(await next).to.deep.equal({ version: 0, typesVersion: 0 });
    expect(clock.reads).to.equal(2);
  });

  it('(property) under any interleaving of requests, commits and answers, each request sees every commit made before it asked', async () => {
    type Step = 'ask' | 'commit' | 'answer';
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<Step>('ask', 'ask', 'commit', 'answer'), { maxLength: 60 }),
        async (steps) => {
          const db = heldDatabase();
          const clock = new SharedDatabaseClock(db.reader);
          const asked: { atLeast: number; answer: Promise<RegistryState> }[] = [];
          for (const step of steps) {
            if (step === 'ask') asked.push({ atLeast: db.committed, answer: clock.current() });
            else if (step === 'commit') db.commit();
            else if (db.inFlight > 0) await db.answerOldest();
            await settled();
          }
          while (db.inFlight > 0) await db.answerOldest();
          for (const { atLeast, answer } of asked) expect((await answer).version).to.be.at.least(atLeast);
          expect(clock.reads).to.be.at.most(asked.length);
        },
      ),
      { numRuns: 200 },
    );
  });
});
