import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ReadSession } from '../application/versioning';
import type { Access, RequestContext, RequestReport } from '../graphql/context';
import type { RequestTrace } from '../observability/tracing';

/**
 * What the server keeps for one request while it runs, as properties of
 * Fastify's request object rather than in WeakMaps keyed by it.
 *
 * The reason is the garbage collector. A WeakMap that lives as long as the
 * server is in the old generation, and its entries for a request point into
 * the young one, where each request's objects are made. On Node 20 (V8 11.3)
 * the young generation's collector (the scavenger) keeps what such entries
 * point to alive, whether or not the request is still referenced: a
 * request's scope (its read session and loaders) and its body's text
 * survived every scavenge they met and were promoted to the old generation,
 * which only mark-compact frees. Under the unique-resolve load, 386 KB were
 * promoted per scavenge, against 2 KB with properties, and the server's CPU
 * per request fell by about a quarter (README, Performance). A property of
 * the request dies with it.
 *
 * Each slot is declared on every request (Fastify's decorateRequest, with
 * null), so every request object has the same shape from the start.
 */
export class RequestSlot<T> {
  private readonly key: symbol;

  constructor(name: string) {
    this.key = Symbol(name);
  }

  /** Declares the slot on every request of `fastify` (before it is ready). */
  declareOn(fastify: FastifyInstance): void {
    fastify.decorateRequest(this.key, null);
  }

  /** The request's value, or undefined when none was set. */
  get(request: FastifyRequest): T | undefined {
    return (request as unknown as Record<symbol, T | null>)[this.key] ?? undefined;
  }

  set(request: FastifyRequest, value: T): void {
    (request as unknown as Record<symbol, T | null>)[this.key] = value;
  }
}

/** The text of a request's JSON body as it came (src/http/request-body.ts): the response cache keys a POST by it. */
export const bodyTextSlot = new RequestSlot<string>('bodyText');

/** The text of a request's JSON body as it came (checked, then parsed into `request.body`), if it had one. */
export function jsonBodyText(request: FastifyRequest): string | undefined {
  return bodyTextSlot.get(request);
}

/** What one request carries from the route into the GraphQL context and its log line (made by ./request-scope.ts). */
export interface RequestScope {
  readonly access: Access;
  readonly session: ReadSession;
  readonly report: RequestReport;
  /** Its one GraphQL context, whichever path runs it (the direct path, then Apollo's, get the same object). */
  readonly context: RequestContext;
}

/** The request's scope, made on first use (./request-scope.ts). */
export const scopeSlot = new RequestSlot<RequestScope>('scope');

/** The request's span, from onRequest to onResponse, when tracing is on (src/http/request-observation.ts). */
export const traceSlot = new RequestSlot<RequestTrace>('trace');

/** Declares every slot above on `fastify`'s requests: once, when the server is made. */
export function declareRequestState(fastify: FastifyInstance): void {
  for (const slot of [bodyTextSlot, scopeSlot, traceSlot]) slot.declareOn(fastify);
}
