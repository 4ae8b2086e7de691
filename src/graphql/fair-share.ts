import { isIntrospectionType, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';

/**
 * Fair sharing of the one JavaScript thread between requests, so that no
 * request the limits allow monopolises the server. Two parts:
 *
 * - **One heavy request executes at a time.** A request whose estimated cost
 *   is at least `HEAVY_COST` waits in a first-in, first-out lane before it
 *   executes; light requests never wait there. Waiting costs no CPU.
 * - **A heavy request yields.** Every field resolver of the schema (graphql's
 *   own introspection resolvers included) is wrapped: when the request it
 *   serves is heavy and has run `SLICE_MS` since it last yielded, the
 *   resolver first waits for the event loop's next turn (setImmediate), so
 *   requests that arrived meanwhile are read and served. Our resolvers
 *   decide once for a whole wave of calls (so a list's loads stay in one
 *   DataLoader batch: a fixed number of statements), unless the wave runs
 *   past WAVE_LIMIT_MS; introspection's at each call. For any other
 *   request the wrapper only reads one property of the context, and stays
 *   synchronous.
 */

/** The estimated cost from which a request is heavy: it takes the heavy lane and yields. */
export const HEAVY_COST = 1_000;

/** How long a heavy request runs before it lets the event loop serve others. */
export const SLICE_MS = 1;

/** How long one wave of a heavy request's resolvers may run on before it yields all the same (see FairShare.runs). */
export const WAVE_LIMIT_MS = 1.5;

/** A heavy request's place in the schedule, kept on its context while it executes. */
export interface FairShare {
  /** When it last yielded (performance.now()). */
  since: number;
  /** The turn of the event loop it waits for, shared by every resolver of the request that waits. */
  turn: Promise<void> | null;
  /**
   * Whether the resolvers called in this wave of microtasks run now: decided
   * by the first of them, then kept until the wave ends, so that the loads
   * one wave issues (one per list item, say) stay in one DataLoader batch.
   */
  runs: boolean;
}

/** A context that may hold a heavy request's share (only heavy requests have one). */
interface SharingContext {
  fairShare?: FairShare;
}

/** A first-in, first-out lane that lets `width` holders in at a time. */
export class Lane {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly width = 1) {}

  /** Waits for a place; the function returned gives it back (once). */
  async enter(): Promise<() => void> {
    if (this.active < this.width) this.active++;
    else await new Promise<void>((admit) => this.waiting.push(admit));
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }

  /** Requests waiting for a place (for tests). */
  get queued(): number {
    return this.waiting.length;
  }
}

/** A new share for a heavy request that starts executing now. */
export function newFairShare(): FairShare {
  return { since: performance.now(), turn: null, runs: false };
}

/** The next turn of the event loop for a share: one setImmediate for every resolver of the request that waits. */
function nextTurn(share: FairShare): Promise<void> {
  share.turn ??= new Promise<void>((resume) =>
    setImmediate(() => {
      share.turn = null;
      share.runs = false;
      share.since = performance.now();
      resume();
    }),
  );
  return share.turn;
}

/**
 * For long loops in a heavy request's own code (e.g. the binding matrix's
 * rows): a promise of the next turn once its slice is used up, else nothing.
 */
export function pauseIfDue(share: FairShare | undefined): Promise<void> | undefined {
  if (!share || (!share.turn && performance.now() - share.since < SLICE_MS)) return undefined;
  return nextTurn(share);
}

const WRAPPED = Symbol('fair-share');

/**
 * Whether a heavy request's resolver may run now, or must wait for the next
 * turn. Ours decide once a wave, up to WAVE_LIMIT_MS (see FairShare.runs);
 * introspection's, which never load anything, at every call.
 */
function runsNow(share: FairShare, perWave: boolean): boolean {
  if (share.turn) return false;
  const elapsed = performance.now() - share.since;
  if (perWave && share.runs && elapsed < WAVE_LIMIT_MS) return true;
  if (elapsed >= SLICE_MS) return false;
  share.runs = true;
  queueMicrotask(() => {
    share.runs = false;
  });
  return true;
}

/** Wraps a resolver so that a heavy request's call waits for the next turn once its slice is used up. */
function sharing<TSource, TContext, TArgs>(
  resolve: GraphQLFieldResolver<TSource, TContext, TArgs>,
  perWave: boolean,
): GraphQLFieldResolver<TSource, TContext, TArgs> {
  const wrapped: GraphQLFieldResolver<TSource, TContext, TArgs> = (source, args, context, info) => {
    const share = (context as SharingContext | undefined)?.fairShare;
    if (!share || runsNow(share, perWave)) return resolve(source, args, context, info);
    // A call that waited a turn runs then, whatever the clock says: checking again would let the calls that
    // waited defer each other turn after turn (quadratic in their number; a full introspection took seconds).
    return nextTurn(share).then(() => resolve(source, args, context, info));
  };
  Object.defineProperty(wrapped, WRAPPED, { value: true });
  return wrapped;
}

/**
 * Wraps every field resolver of a schema (see above). graphql's introspection
 * types are shared by every schema in the process, so theirs are wrapped once,
 * and the wrapper does nothing for a context without a share.
 */
export function shareTime(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.resolve && !(WRAPPED in field.resolve)) {
        field.resolve = sharing(field.resolve, !isIntrospectionType(type));
      }
    }
  }
  return schema;
}
