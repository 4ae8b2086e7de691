// SQLite's group commit: the writes that wait while one runs share its transaction, with no savepoint while writes
// succeed (a failing one rolls the group back, and the ones before it run again, with savepoints), and are answered
// after the one commit. The statements sent, and when each write is answered, are checked here on
// a connection that records them; test/integration/group-commit.test.ts runs the same on a real database.
import { expect } from 'chai';
import { GROUP_COMMIT_MAX, GroupCommit, JOIN_TURNS_MAX } from '../../src/persistence/group-commit';

/**
 * A connection that records each statement, and fails the ones `failing` names; a rollback is recorded a turn of
 * the event loop after it is sent, as a slow statement would finish.
 */
function recorder(failing: (sql: string) => boolean = () => false) {
  const sent: string[] = [];
  const connection = {
    run: async (sql: string) => {
      if (sql.startsWith('ROLLBACK')) await new Promise((resolve) => setImmediate(resolve));
      sent.push(sql);
      if (failing(sql)) throw new Error(`${sql} failed`);
    },
  };
  return { sent, connection };
}

/** Settles every promise, recording each one's value or error message, in the order given. */
async function outcomes<T>(promises: Promise<T>[]): Promise<(T | string)[]> {
  const settled = await Promise.allSettled(promises);
  return settled.map((s) => (s.status === 'fulfilled' ? s.value : `refused: ${(s.reason as Error).message}`));
}

describe('group commit (SQLite writes)', () => {
  it('runs a lone write in a transaction of its own, with no savepoint', async () => {
    const { sent, connection } = recorder();
    const group = new GroupCommit(connection);
    const value = await group.write(async () => {
      sent.push('work');
      return 7;
    });
    expect(value).to.equal(7);
    expect(sent).to.deep.equal(['BEGIN IMMEDIATE', 'work', 'COMMIT']);
    expect(group.figures).to.deep.equal({ commits: 1, writes: 1, rerun: 0 });
  });

  it('opens a transaction with the statement it is given (PostgreSQL: BEGIN)', async () => {
    const { sent, connection } = recorder();
    const group = new GroupCommit(connection, { begin: 'BEGIN' });
    await Promise.all([group.write(async () => sent.push('work 1')), group.write(async () => sent.push('work 2'))]);
    expect(sent).to.deep.equal(['BEGIN', 'work 1', 'work 2', 'COMMIT']);
  });

  it('runs the writes that wait in the same transaction, with no savepoint, and answers them after the commit', async () => {
    const { sent, connection } = recorder();
    const group = new GroupCommit(connection);
    const answered: number[] = [];
    const writes = [1, 2, 3].map((n) =>
      group
        .write(async () => {
          sent.push(`work ${n}`);
          return n;
        })
        .then((value) => {
          // Answered only once the commit is sent.
          expect(sent).to.include('COMMIT');
          answered.push(value);
          return value;
        }),
    );
    expect(await Promise.all(writes)).to.deep.equal([1, 2, 3]);
    expect(answered).to.deep.equal([1, 2, 3]);
    expect(sent).to.deep.equal(['BEGIN IMMEDIATE', 'work 1', 'work 2', 'work 3', 'COMMIT']);
    expect(group.figures).to.deep.equal({ commits: 1, writes: 3, rerun: 0 });
  });

  it('lets a write that arrives in the next turn of the event loop join before the commit', async () => {
    const { sent, connection } = recorder();
    const group = new GroupCommit(connection);
    let late: Promise<string> | null = null;
    const first = group.write(async () => {
      sent.push('work 1');
      // A request that becomes ready while the first write runs reaches its write in a later turn.
      setImmediate(() => {
        late = group.write(async () => {
          sent.push('work 2');
          return 'late';
        });
      });
      return 'first';
    });
    expect(await first).to.equal('first');
    expect(await late!).to.equal('late');
    expect(sent.filter((s) => s === 'COMMIT')).to.have.length(1);
    expect(sent.indexOf('work 2')).to.be.below(sent.indexOf('COMMIT'));
  });

  /** Resolves after `turns` turns of the event loop. */
  async function turns(count: number): Promise<void> {
    for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
  }

  /**
   * A group of `before` writes at once; then a write, and another `lateBy` turns of the event loop after the first
   * started its work. Returns the commits of the second pair.
   */
  async function commitsOfLatePair(group: GroupCommit, sent: string[], before: number, lateBy: number) {
    await Promise.all(Array.from({ length: before }, (_, i) => group.write(async () => sent.push(`before ${i}`))));
    const commitsBefore = sent.filter((s) => s === 'COMMIT').length;
    let late: Promise<unknown> | null = null;
    await group.write(async () => {
      sent.push('first');
      late = turns(lateBy).then(() => group.write(async () => sent.push('late')));
    });
    await late!;
    return sent.filter((s) => s === 'COMMIT').length - commitsBefore;
  }

  it('waits more turns of the event loop for writes while its group is smaller than the one before it', async () => {
    const { sent, connection } = recorder();
    // The group before held 3 writes: the next waits for a write that comes 4 turns after the first.
    const commits = await commitsOfLatePair(new GroupCommit(connection), sent, 3, 4);
    expect(commits).to.equal(1);
    expect(sent.indexOf('late')).to.be.below(sent.lastIndexOf('COMMIT'));
  });

  it('waits one turn only after a lone write, and at most JOIN_TURNS_MAX turns', async () => {
    // After a lone write, a write 4 turns late commits on its own.
    const lone = recorder();
    expect(await commitsOfLatePair(new GroupCommit(lone.connection), lone.sent, 1, 4)).to.equal(2);
    // After a group of 3, a write later than JOIN_TURNS_MAX turns commits on its own too.
    const big = recorder();
    expect(await commitsOfLatePair(new GroupCommit(big.connection), big.sent, 3, JOIN_TURNS_MAX + 2)).to.equal(2);
  });

  it('commits at once, without a turn of the event loop, when told not to wait for writes to join', async () => {
    const { sent, connection } = recorder();
    const group = new GroupCommit(connection, { waitForJoiners: false });
    let late: Promise<number> | null = null;
    await group.write(async () => {
      setImmediate(() => {
        late = group.write(async () => 2);
      });
      return 1;
    });
    expect(late).to.equal(null); // answered before the next turn
    await new Promise((resolve) => setImmediate(resolve));
    expect(await late!).to.equal(2);
    expect(sent.filter((s) => s === 'COMMIT')).to.have.length(2);
  });

  /** A write that records its work, fails when told, and checks it is refused only after a rollback. */
  function writer(group: GroupCommit, sent: string[]) {
    return (n: number, fails: boolean, rollsBack = false) =>
      group
        .write(async () => {
          sent.push(`work ${n}`);
          if (fails) throw new Error(`write ${n} failed`);
          return n;
        }, rollsBack)
        .catch((error: unknown) => {
          // Refused only once its changes are rolled back.
          expect(
            sent.slice(sent.lastIndexOf(`work ${n}`)).some((s) => s.startsWith('ROLLBACK')),
            `write ${n}`,
          ).to.equal(true);
          throw error;
        });
  }

  it('rolls a group back when a write fails in it, and runs the writes before that one again, with savepoints', async () => {
    const { sent, connection } = recorder();
    const group = new GroupCommit(connection);
    const write = writer(group, sent);
    const results = await outcomes([write(1, true), write(2, false), write(3, false), write(4, true), write(5, false)]);
    expect(results).to.deep.equal(['refused: write 1 failed', 2, 3, 'refused: write 4 failed', 5]);
    expect(sent).to.deep.equal([
      // The first of a group rolls back the transaction, which holds only it.
      'BEGIN IMMEDIATE',
      'work 1',
      'ROLLBACK',
      // A failure after writes that had no savepoint: the whole group goes back...
      'BEGIN IMMEDIATE',
      'work 2',
      'work 3',
      'work 4',
      'ROLLBACK',
      // ...and the writes before the failing one run again, in order, before those queued after it.
      'BEGIN IMMEDIATE',
      'work 2',
      'SAVEPOINT group_member',
      'work 3',
      'RELEASE group_member',
      'SAVEPOINT group_member',
      'work 5',
      'RELEASE group_member',
      'COMMIT',
    ]);
    expect(group.figures).to.deep.equal({ commits: 1, writes: 3, rerun: 2 });
    // A group went through with no failure: savepoints are off again.
    sent.length = 0;
    expect(await outcomes([write(6, false), write(7, false)])).to.deep.equal([6, 7]);
    expect(sent).to.deep.equal(['BEGIN IMMEDIATE', 'work 6', 'work 7', 'COMMIT']);
  });

  it('keeps savepoints while failures go on, and rolls a failing write back to its own', async () => {
    const { sent, connection } = recorder();
    const group = new GroupCommit(connection);
    const write = writer(group, sent);
    const results = await outcomes([write(1, false), write(2, true), write(3, true), write(4, false)]);
    expect(results).to.deep.equal([1, 'refused: write 2 failed', 'refused: write 3 failed', 4]);
    expect(sent).to.deep.equal([
      'BEGIN IMMEDIATE',
      'work 1',
      'work 2',
      'ROLLBACK',
      'BEGIN IMMEDIATE',
      'work 1',
      'SAVEPOINT group_member',
      'work 3',
      'ROLLBACK TO group_member',
      'RELEASE group_member',
      'SAVEPOINT group_member',
      'work 4',
      'RELEASE group_member',
      'COMMIT',
    ]);
    // That group had a failure too: the next one still has savepoints, so each failing write costs one re-run at most.
    sent.length = 0;
    expect(await outcomes([write(5, false), write(6, true), write(7, false)])).to.deep.equal([
      5,
      'refused: write 6 failed',
      7,
    ]);
    expect(sent.filter((s) => s.startsWith('work'))).to.deep.equal(['work 5', 'work 6', 'work 7']);
    expect(sent).to.include('ROLLBACK TO group_member');
    expect(group.figures.rerun).to.equal(1);
  });

  it('gives a write that is to roll itself back (a dry run) a savepoint of its own, and re-runs nothing for it', async () => {
    const { sent, connection } = recorder();
    const group = new GroupCommit(connection);
    const write = writer(group, sent);
    const results = await outcomes([write(1, false), write(2, true, true), write(3, false)]);
    expect(results).to.deep.equal([1, 'refused: write 2 failed', 3]);
    expect(sent).to.deep.equal([
      'BEGIN IMMEDIATE',
      'work 1',
      'SAVEPOINT group_member',
      'work 2',
      'ROLLBACK TO group_member',
      'RELEASE group_member',
      'work 3',
      'COMMIT',
    ]);
    expect(group.figures).to.deep.equal({ commits: 1, writes: 2, rerun: 0 });
  });

  it('refuses every write of a group whose commit fails, and goes on with the next group', async () => {
    let commits = 0;
    const { sent, connection } = recorder((sql) => sql === 'COMMIT' && ++commits === 1);
    const group = new GroupCommit(connection);
    const results = await outcomes([group.write(async () => 1), group.write(async () => 2)]);
    expect(results).to.deep.equal(['refused: COMMIT failed', 'refused: COMMIT failed']);
    expect(sent.slice(-2)).to.deep.equal(['COMMIT', 'ROLLBACK']);
    expect(await group.write(async () => 3)).to.equal(3);
    expect(group.figures).to.deep.equal({ commits: 1, writes: 1, rerun: 0 });
  });

  it('refuses the write whose savepoint cannot be rolled back, with the rest of its group', async () => {
    const { connection } = recorder((sql) => sql === 'ROLLBACK TO group_member');
    const group = new GroupCommit(connection);
    const results = await outcomes([
      group.write(async () => 1),
      // (A dry run: it has a savepoint.)
      group.write(async () => {
        throw new Error('write 2 failed');
      }, true),
      group.write(async () => 3),
    ]);
    // The failing write keeps its own error; the one before it, never committed, gets the rollback's.
    expect(results).to.deep.equal(['refused: ROLLBACK TO group_member failed', 'refused: write 2 failed', 3]);
  });

  it(`commits after at most ${GROUP_COMMIT_MAX} writes`, async () => {
    const { sent, connection } = recorder();
    const group = new GroupCommit(connection);
    const count = GROUP_COMMIT_MAX + 5;
    const values = await Promise.all(Array.from({ length: count }, (_, n) => group.write(async () => n)));
    expect(values).to.deep.equal(Array.from({ length: count }, (_, n) => n));
    expect(sent.filter((s) => s === 'COMMIT')).to.have.length(2);
    expect(sent.filter((s) => s === 'BEGIN IMMEDIATE')).to.have.length(2);
    expect(group.figures).to.deep.equal({ commits: 2, writes: count, rerun: 0 });
  });

  it('runs a write queued at any moment after the one before it is answered', async () => {
    // The caller of a write goes on after its answer through a few promise steps of its own (versioning, the
    // service), so the next write may be queued while the group that answered it is still winding up.
    for (let steps = 0; steps < 8; steps++) {
      const { connection } = recorder();
      const group = new GroupCommit(connection);
      const second = group
        .write(async () => 1)
        .then(async () => {
          for (let i = 0; i < steps; i++) await Promise.resolve();
          return group.write(async () => 2);
        });
      const stuck = new Promise((resolve) => setTimeout(() => resolve('never answered'), 200));
      expect(await Promise.race([second, stuck]), `queued after ${steps} steps`).to.equal(2);
    }
  });

  it('waits for every queued write before it says it is idle', async () => {
    const { connection } = recorder();
    const group = new GroupCommit(connection);
    let done = 0;
    for (let n = 0; n < 3; n++) void group.write(async () => done++);
    await group.idle();
    expect(done).to.equal(3);
  });
});
