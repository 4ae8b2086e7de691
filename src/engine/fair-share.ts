import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type { ThreadShare } from '../graphql/context';

/**
 * Fair sharing of the one JavaScript thread between requests, so that no
 * request the limits allow monopolises the server. Two parts: one heavy
 * request executes at a time (the heavy lane, ./admission/heavy-lane.ts),
 * and, here:
 *
 * - **A heavy request runs a bounded number of resolver calls per turn of the
 *   event loop.** Every field resolver of the schema (graphql's own
 *   introspection resolvers included) is wrapped. For a heavy request, a turn
 *   runs at most `CALLS_PER_TURN` of its resolver calls; the calls past that
 *   wait, first in first out, for the next turn (setImmediate), when the next
 *   `CALLS_PER_TURN` of them run, and so on. Requests that arrived meanwhile
 *   are read and served between the turns. Each waiting call waits once, so
 *   the waiting costs time linear in the number of calls. The budget is a
 *   count, not a clock, so a heavy request's DataLoader batches, and so its
 *   SQL statements, are the same from run to run: a list longer than the
 *   budget loads in one batch per turn (ceil(n / CALLS_PER_TURN) statements
 *   where a light request sends one). For any other request the wrapper only
 *   reads one property of the context, and stays synchronous.
 *
 * (The first version gave a heavy request a slice of time per turn and let
 * a whole wave of calls run once it started, to keep batches whole. A wave
 * is a whole level of the answer, e.g. 650 resources' `usedBy`: turns of
 * 12 ms on average beside 10 such requests, and a trivial query's p50 at 17–30
 * times its idle p50.)
 */

/**
 * How many resolver calls of a heavy request run in one turn of the event
 * loop: about a millisecond of work for the registry's resolvers (their calls
 * average 5–15 µs with the answers they complete), and within DataLoader's
 * batches of 100 ids for the lists they load.
 */
export const CALLS_PER_TURN = 100;

/** How long a heavy request's own loops (see pauseIfDue) run before they let the event loop serve others. */
export const SLICE_MS = 1;

/**
 * A request's share of the thread: made once with its context (./request-scope.ts), where it stays; idle (every
 * resolver call runs at once) unless admission starts it for a heavy request, until the answer is complete.
 */
export class FairShare implements ThreadShare {
  /** Whether the request runs as a heavy one now (between `start` and `stop`). */
  heavy = false;
  /** Resolver calls it may still make in this turn. */
  budget = CALLS_PER_TURN;
  /** Calls waiting for a later turn, first in first out: each is let go once. */
  readonly waiting: (() => void)[] = [];
  /** Whether a turn is already scheduled. */
  scheduled = false;
  /** When its own loops last yielded (performance.now()), for pauseIfDue. */
  since = 0;
  /** The turn its own loops wait for, for pauseIfDue. */
  turn: Promise<void> | null = null;

  /** The request starts executing as a heavy one: it shares the thread from now on, with a fresh budget. */
  start(): void {
    this.heavy = true;
    this.budget = CALLS_PER_TURN;
    this.since = performance.now();
  }

  /** Its answer is complete: it no longer shares the thread (calls already waiting still get their turns). */
  stop(): void {
    this.heavy = false;
  }

  pauseIfDue(): Promise<void> | undefined {
    return this.heavy ? pauseIfDue(this) : undefined;
  }
}

/** A context that may hold a request's share (one made by ./request-scope.ts does). */
interface SharingContext {
  readonly fairShare?: ThreadShare;
}

/** The request's share of the thread held by `context`, if it has one the engine made. */
export function fairShareOf(context: SharingContext): FairShare | undefined {
  const share = context.fairShare;
  return share instanceof FairShare ? share : undefined;
}

/** A share already started, as admission starts a heavy request's (for tests). */
export function newFairShare(): FairShare {
  const share = new FairShare();
  share.start();
  return share;
}

/** Schedules the share's next turn: a fresh budget, spent first on the calls waiting longest. */
function scheduleTurn(share: FairShare): void {
  if (share.scheduled) return;
  share.scheduled = true;
  setImmediate(() => {
    share.scheduled = false;
    share.budget = CALLS_PER_TURN;
    while (share.budget > 0 && share.waiting.length > 0) {
      share.budget--;
      share.waiting.shift()!();
    }
    if (share.waiting.length > 0) scheduleTurn(share);
  });
}

/** Whether a heavy request's call may run now; if not, the promise of its turn. */
function turnFor(share: FairShare): Promise<void> | null {
  if (share.budget > 0 && share.waiting.length === 0) {
    share.budget--;
    // A budget spent by calls in an earlier turn is given back at the next turn all the same.
    if (share.budget === 0) scheduleTurn(share);
    return null;
  }
  const turn = new Promise<void>((go) => share.waiting.push(go));
  scheduleTurn(share);
  return turn;
}

/**
 * For long loops in a heavy request's own code (e.g. the binding matrix's
 * rows): a promise of the next turn once SLICE_MS has passed since the last, else nothing.
 */
function pauseIfDue(share: FairShare): Promise<void> | undefined {
  if (!share.turn && performance.now() - share.since < SLICE_MS) return undefined;
  share.turn ??= new Promise<void>((resume) =>
    setImmediate(() => {
      share.turn = null;
      share.since = performance.now();
      resume();
    }),
  );
  return share.turn;
}

const WRAPPED = Symbol('fair-share');

/** Wraps a resolver so that a heavy request's call past its turn's budget waits for a later turn. */
function sharing<TSource, TContext, TArgs>(
  resolve: GraphQLFieldResolver<TSource, TContext, TArgs>,
): GraphQLFieldResolver<TSource, TContext, TArgs> {
  const wrapped: GraphQLFieldResolver<TSource, TContext, TArgs> = (source, args, context, info) => {
    // Only the engine's share has `heavy` set (see fairShareOf): a plain read here, as this runs for every call.
    const share = (context as { readonly fairShare?: FairShare } | undefined)?.fairShare;
    const turn = share?.heavy ? turnFor(share) : null;
    if (!turn) return resolve(source, args, context, info);
    return turn.then(() => resolve(source, args, context, info));
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
        field.resolve = sharing(field.resolve);
      }
    }
  }
  return schema;
}
