import { GraphQLError } from 'graphql';

/**
 * The heavy lane: one heavy request executes at a time. A request whose
 * estimated cost is at least `HEAVY_COST` waits in a first-in, first-out lane
 * before it executes (./admission.ts); light requests never wait there.
 * Waiting costs no CPU. The lane passes to the next heavy request on a later
 * turn of the event loop, so requests that arrived meanwhile are read and
 * served between two heavy ones (a heavy request answered from kept parts
 * makes few resolver calls, so without that, a queue of them would run back
 * to back in one turn). While it runs, a heavy request shares the thread
 * (../fair-share.ts).
 */

/** The estimated cost from which a request is heavy: it takes the heavy lane and yields. */
export const HEAVY_COST = 1_000;

/**
 * How many heavy requests may wait for the lane. One more is refused at once
 * (HTTP 503, SERVICE_UNAVAILABLE, Retry-After): waiting longer than the
 * queue ahead takes to run (the heaviest allowed requests take 40–75 ms each
 * at the default size: about 2 s for 32) helps nobody, and an unbounded queue
 * holds every waiting request's memory for as long as a client keeps sending.
 */
export const HEAVY_QUEUE_LIMIT = 32;

/** A heavy request that found the lane's queue full. */
export class LaneFullError extends Error {
  constructor(readonly limit: number) {
    super(`${limit} expensive requests are already waiting`);
  }
}

/** A first-in, first-out lane that lets `width` holders in at a time, with at most `queueLimit` waiting. */
export class Lane {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly width = 1,
    private readonly queueLimit = Number.POSITIVE_INFINITY,
  ) {}

  /** Waits for a place; the function returned gives it back (once). Throws LaneFullError when the queue is full. */
  async enter(): Promise<() => void> {
    if (this.active >= this.width && this.waiting.length >= this.queueLimit) throw new LaneFullError(this.queueLimit);
    if (this.active < this.width) this.active++;
    else await new Promise<void>((admit) => this.waiting.push(admit));
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.waiting.shift();
      // Handed over on a later turn of the event loop, never within this one: what arrived meanwhile (a light
      // request) is served before the next holder starts, however little the holders yield while they run.
      if (next) setImmediate(next);
      else this.active--;
    };
  }

  /** Requests waiting for a place (for tests). */
  get queued(): number {
    return this.waiting.length;
  }
}

/** Seconds a client is asked to wait (Retry-After) when the heavy lane's queue is full. */
export const LANE_RETRY_AFTER_SECONDS = 1;

/**
 * A place in the heavy lane, or, when its queue is full, the refusal:
 * SERVICE_UNAVAILABLE with HTTP 503 and Retry-After, before the request runs
 * (the same code as an unavailable database: the server cannot take it now,
 * and the request itself is fine).
 */
export async function enterOrRefuse(lane: Lane): Promise<() => void> {
  try {
    return await lane.enter();
  } catch (error) {
    if (!(error instanceof LaneFullError)) throw error;
    throw new GraphQLError(
      `the server is busy: ${error.limit} expensive requests (estimated cost ${HEAVY_COST} or more) are already waiting; try again shortly, or ask for less`,
      {
        extensions: {
          code: 'SERVICE_UNAVAILABLE',
          limit: 'HEAVY_QUEUE',
          http: { status: 503, headers: new Map([['retry-after', String(LANE_RETRY_AFTER_SECONDS)]]) },
        },
      },
    );
  }
}
