/** The statements a group commit sends, on the one connection that writes. */
export interface GroupConnection {
  /** Sends one statement outside the members' own work: BEGIN, SAVEPOINT, COMMIT and the like. */
  run(sql: string): Promise<void>;
}

/** A write waiting for its turn: its work, and how to answer it. */
interface Member<T = unknown> {
  readonly work: () => Promise<T>;
  /** True when the write is expected to roll itself back (a dry run): it always gets a savepoint of its own. */
  readonly rollsBack: boolean;
  readonly resolve: (value: T) => void;
  readonly reject: (error: unknown) => void;
}

/** Resolves in the next turn of the event loop, after the I/O that is ready. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** At most this many writes share one commit, so the first of a group waits for at most that many others. */
export const GROUP_COMMIT_MAX = 32;

/**
 * The most turns of the event loop a group waits before its commit while it holds fewer writes than the group
 * before it (see GroupCommit); otherwise it waits one.
 */
export const JOIN_TURNS_MAX = 8;

/**
 * Group commit. A server's writes run one at a time: on SQLite because one
 * connection writes, on PostgreSQL because every write takes the registry
 * version's row lock first (VersionRow.bump), which orders writers
 * across instances and holds each one until its commit. Each commit syncs
 * the log to disk, which costs more than the rest of a simple write (on
 * SQLite about 2 ms of the thread a commit, measured on a 50,000-resource
 * registry; on PostgreSQL a round trip and a WAL flush, with the lock held).
 * So the writes that queue up while one runs share its transaction and its
 * commit:
 *
 * - a write that finds none running starts a transaction (on SQLite BEGIN
 *   IMMEDIATE, on a connection of the pool on PostgreSQL) and runs alone;
 * - each write that was waiting when it finishes runs next in the same
 *   transaction. Writes rarely fail, so by default it runs without a
 *   savepoint of its own (which would cost two statements a write: SAVEPOINT
 *   and RELEASE). When one fails, the whole transaction is rolled back, the
 *   failing write is refused, and the writes before it in the group run again
 *   from the start (none of them was answered: their work is re-run, which
 *   reads and writes only through the transaction), in a group where every
 *   write has a savepoint. Groups keep savepoints until one goes through with
 *   no write failing, so failing writes sent on purpose cost at most one
 *   re-run each, not one each per group. A write that expects to roll itself
 *   back (a dry run) always gets a savepoint. The first write of a group,
 *   with no savepoint, rolls back the whole transaction, which holds only it;
 * - when none is waiting, the server takes one turn of its event loop (on
 *   SQLite its statements are synchronous, so no request gets in while a
 *   write runs), and the writes that arrive in it join. While the group
 *   holds fewer writes than the one before it, it takes up to
 *   JOIN_TURNS_MAX turns: writers that were answered by the last commit
 *   send their next write a client's round trip later, which one turn of a
 *   busy loop does not wait for (PostgreSQL's commit_delay and
 *   commit_siblings answer the same question). A lone writer still commits
 *   after one turn, and when writers go away, the group after the first
 *   that waited in vain expects only as many as came. When none came, or
 *   GROUP_COMMIT_MAX have run, the transaction commits, and then every write
 *   in it is answered, in order. (Under 10 connections of registerTool on
 *   SQLite, groups went from about 6 writes to 10, and the rate up by 23 to
 *   33 % in alternating runs: docs/benchmark.md.)
 *
 * Nothing is acknowledged before its commit is on disk, so a crash still
 * loses no acknowledged write; a commit that fails refuses every write of its
 * group. Each write still sees all of the ones before it, as if it ran alone
 * after them, and a refused one is refused once its changes are rolled back.
 */
export class GroupCommit {
  private queue: Member[] = [];
  /** True while writes are queued or running. */
  private running = false;
  /** Settles when the queue is empty again. */
  private drained: Promise<void> = Promise.resolve();
  /** Commits so far, the writes they carried, and the writes run again after a failure in their group (for the tests and the statistics). */
  readonly figures = { commits: 0, writes: 0, rerun: 0 };
  /** True after a write failed in a group: every write gets a savepoint until a group has no failure. */
  private careful = false;
  /** The writes of the last group that committed: how many a group waits for (see the class comment). */
  private lastGroup = 0;

  private readonly waitForJoiners: boolean;
  private readonly begin: string;

  /**
   * `waitForJoiners` false: no turn of the event loop before a commit, so that nothing runs while a transaction
   * is open (for `sqlite::memory:`, whose reads share the writer's connection and would see it). `begin`: the
   * statement that opens a group's transaction.
   */
  constructor(
    private readonly connection: GroupConnection,
    options: { readonly waitForJoiners?: boolean; readonly begin?: string } = {},
  ) {
    this.waitForJoiners = options.waitForJoiners ?? true;
    this.begin = options.begin ?? 'BEGIN IMMEDIATE';
  }

  /** Runs `work` in a transaction, shared with the writes queued beside it; settles after its commit. */
  write<T>(work: () => Promise<T>, rollsBack = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, rollsBack, resolve, reject } as Member);
      if (!this.running) {
        this.running = true;
        this.drained = this.drain();
      }
    });
  }

  /** Waits until every write queued so far is answered. */
  async idle(): Promise<void> {
    while (this.running) await this.drained;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.group();
    } finally {
      // In the same turn as the last look at the queue: a write queued after it starts a drain of its own.
      this.running = false;
    }
  }

  /** One transaction: the writes waiting now, and those that come while it runs, up to GROUP_COMMIT_MAX. */
  private async group(): Promise<void> {
    const done: { member: Member; value: unknown }[] = [];
    /** The write running now, until it is answered or done. */
    let current: Member | null = null;
    let open = false;
    let failed = false;
    try {
      for (let taken = 0; taken < GROUP_COMMIT_MAX; taken++) {
        // SQLite's statements are synchronous, so a whole write runs without letting a request in: before the
        // commit, turns of the event loop let the requests that are ready reach their writes and join.
        if (this.queue.length === 0 && open && this.waitForJoiners) await this.joiners(done.length);
        if (this.queue.length === 0) break;
        const member = (current = this.queue.shift()!);
        if (!open) {
          // On SQLite, BEGIN IMMEDIATE takes the write lock up front, so a read-then-write transaction never fails to
          // upgrade.
          await this.connection.run(this.begin);
          open = true;
        }
        const alone = done.length === 0;
        const savepoint = !alone && (this.careful || member.rollsBack);
        if (savepoint) await this.connection.run('SAVEPOINT group_member');
        let value: unknown;
        try {
          value = await member.work();
        } catch (error) {
          // Refused once its changes are rolled back (a read on the writer's connection, in memory, sees no trace
          // of them), with its own error even when the rollback fails, which then fails the group.
          current = null;
          // (A write that was to roll itself back did what it said: that predicts no failure.)
          if (!member.rollsBack) failed = true;
          let rerun = false;
          try {
            if (savepoint) {
              await this.connection.run('ROLLBACK TO group_member');
              await this.connection.run('RELEASE group_member');
            } else {
              // The first of the group, or one with no savepoint: the whole transaction goes back.
              await this.connection.run('ROLLBACK');
              open = false;
              rerun = !alone;
            }
          } finally {
            member.reject(error);
          }
          if (!rerun) continue;
          // The writes before it, rolled back with it and not answered yet, run again first, with savepoints.
          this.queue.unshift(...done.map((d) => d.member));
          this.figures.rerun += done.length;
          done.length = 0;
          break;
        }
        if (savepoint) await this.connection.run('RELEASE group_member');
        done.push({ member, value });
        current = null;
      }
      if (open) await this.connection.run('COMMIT');
    } catch (error) {
      // BEGIN, a savepoint, a rollback or the commit failed: nothing of the group is stored.
      if (open) await this.connection.run('ROLLBACK').catch(() => undefined);
      current?.reject(error);
      for (const { member } of done) member.reject(error);
      return;
    } finally {
      this.careful = failed;
    }
    if (done.length > 0) {
      this.figures.commits += 1;
      this.figures.writes += done.length;
      this.lastGroup = done.length;
    }
    for (const { member, value } of done) member.resolve(value);
  }

  /** One turn of the event loop; more, up to JOIN_TURNS_MAX, while none joins and the group is smaller than the last. */
  private async joiners(inGroup: number): Promise<void> {
    await nextTurn();
    for (let turns = 1; turns < JOIN_TURNS_MAX && this.queue.length === 0 && inGroup < this.lastGroup; turns++) {
      await nextTurn();
    }
  }
}
