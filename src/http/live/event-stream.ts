import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLError } from 'graphql';
import { createHandler, type Response as StreamResponse } from 'graphql-sse';
import type { Access, RequestContext } from '../../graphql/context';
import type { ReadSession } from '../../application/versioning';
import type { Authenticator } from '../../engine/authentication';
import type { SubscriptionCapacity, Release } from './capacity';
import { coded, SubscriptionOperations } from './operation';
import { originAllowed } from './origin';

/** Where Server-Sent Events subscriptions are served. */
export const EVENT_STREAM_PATH = '/graphql/stream';

/** Events an event stream may have waiting to be written before its subscription is sent nothing more. */
const STREAM_QUEUE = 8;

/**
 * Holds a subscription back while its event stream's client does not read.
 * graphql-sse queues every event of a subscription for the stream as soon as
 * it comes, so the subscription itself must wait: it asks `ready` before each
 * event, which says to wait while `STREAM_QUEUE` events are queued and not yet
 * written to the socket (a write completes once the client has taken it).
 */
class StreamPacing {
  private queued = 0;
  private waiter: (() => void) | null = null;

  readonly ready = (): Promise<void> | null =>
    this.queued < STREAM_QUEUE ? null : new Promise<void>((resolve) => (this.waiter = resolve));

  /** An event was queued for the stream. */
  queuedOne(): void {
    this.queued++;
  }

  /** An event was written to the socket, or the stream ended. */
  wroteOne(): void {
    this.queued = Math.max(0, this.queued - 1);
    if (this.queued < STREAM_QUEUE) this.release();
  }

  release(): void {
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.();
  }
}

/** An operation's context as graphql-sse types it (any record); ours is a RequestContext. */
type StreamContext = RequestContext & Record<PropertyKey, unknown>;

/** What one event-stream request holds while it is served. */
interface Stream {
  readonly access: Access;
  readonly request: FastifyRequest;
  readonly pacing: StreamPacing;
  release?: Release;
}

/**
 * GraphQL subscriptions over Server-Sent Events at /graphql/stream, with
 * graphql-sse ("distinct connections" mode: one request per subscription, a
 * POST with a JSON body or a GET with the query in the URL, and
 * `Accept: text/event-stream`). For clients behind proxies that block
 * WebSockets. The same rules as over WebSocket: the token (the request's
 * Authorization header), the operation's rules (./operation.ts), the process's
 * subscription capacity, replay with afterVersion, and the browser origin
 * check. A stream whose client does not read is sent nothing more until it does.
 */
export function registerEventStream(
  fastify: FastifyInstance,
  options: {
    readonly operations: SubscriptionOperations;
    readonly authenticator: Authenticator;
    readonly newSession: () => ReadSession;
    readonly capacity: SubscriptionCapacity;
    readonly corsOrigins: ReadonlySet<string>;
  },
): void {
  const handler = streamHandler(options.operations, options.capacity);
  fastify.route({
    url: EVENT_STREAM_PATH,
    method: ['GET', 'POST'],
    handler: async (request, reply) => {
      if (!originAllowed(request.headers, options.corsOrigins))
        return reply.code(403).send(errorBody([coded('this origin may not open event streams', 'FORBIDDEN')]));
      if (!String(request.headers.accept ?? '').includes('text/event-stream'))
        return reply
          .code(406)
          .send(
            errorBody([
              coded('an event stream needs the header Accept: text/event-stream (graphql-sse)', 'NOT_ACCEPTABLE'),
            ]),
          );
      const stream: Stream = {
        access: await options.authenticator.authenticate(request.headers.authorization, options.newSession()),
        request,
        pacing: new StreamPacing(),
      };
      try {
        await serve(handler, stream, reply);
      } finally {
        stream.pacing.release();
        stream.release?.();
      }
      return reply;
    },
  });
}

type StreamHandler = ReturnType<typeof createHandler<FastifyRequest, Stream, StreamContext>>;

/** graphql-sse's handler, with the server's rules and capacity (./operation.ts, ./capacity.ts). */
function streamHandler(operations: SubscriptionOperations, capacity: SubscriptionCapacity): StreamHandler {
  return createHandler<FastifyRequest, Stream, StreamContext>({
    // No single-connection mode: every request is a stream of its own.
    authenticate: () => undefined,
    // Validated in onSubscribe, with the server's rules.
    validate: () => [],
    onSubscribe: (req, params) => {
      const stream = req.context;
      const prepared = operations.prepare(params, {
        access: stream.access,
        log: stream.request.log,
        transport: { ready: stream.pacing.ready },
      });
      if (!prepared.ok) return refusal(prepared.status, prepared.errors, prepared.requestId, operations, stream);
      const release = capacity.take(prepared.args.document, prepared.documentBytes);
      if (typeof release === 'string') {
        const full = SubscriptionOperations.capacityError(release, capacity);
        return refusal(503, [full], prepared.args.contextValue.requestId, operations, stream);
      }
      stream.release = release;
      return prepared.args as typeof prepared.args & { contextValue: StreamContext };
    },
    onNext: (ctx, req, result) => {
      req.context.pacing.queuedOne();
      if (!('errors' in result) || !result.errors) return undefined;
      // The one error mapping, as over WebSocket; graphql-sse sends the result as it is given.
      const errors = operations.format(result.errors, ctx.requestId, req.context.request.log);
      return { ...result, errors } as unknown as typeof result;
    },
    onComplete: (_ctx, req) => req.context.release?.(),
  });
}

/** Runs one event-stream request through graphql-sse: a refusal answered as JSON, or the stream of its events. */
async function serve(handler: StreamHandler, stream: Stream, reply: FastifyReply): Promise<void> {
  const { request } = stream;
  const [body, init] = await handler({
    method: request.method,
    url: request.url,
    headers: {
      get: (key) => {
        if (key === 'accept') return 'text/event-stream';
        const value = request.headers[key];
        return Array.isArray(value) ? value.join('\n') : (value ?? null);
      },
    },
    body: (request.body ?? null) as Record<string, unknown> | string | null,
    raw: request,
    context: stream,
  });
  if (body === null || typeof body === 'string') {
    stream.release?.();
    await reply
      .code(init.status)
      .headers(init.headers ?? {})
      .send(body ?? undefined);
    return;
  }
  await sendEvents(reply, body, init, stream);
}

/** Writes a stream's events as they come, each only after the one before was written; ends with the client. */
async function sendEvents(
  reply: FastifyReply,
  events: AsyncGenerator<string, void, undefined>,
  init: { status: number; headers?: Record<string, string> },
  stream: Stream,
): Promise<void> {
  reply.hijack();
  const raw = reply.raw;
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(', ') : String(value);
  raw.writeHead(init.status, { ...headers, ...init.headers });
  const stop = (): void => void events.return(undefined);
  raw.once('close', stop);
  try {
    for await (const event of events) {
      if (raw.destroyed || !raw.writable) break;
      await new Promise<void>((resolve, reject) => raw.write(event, (error) => (error ? reject(error) : resolve())));
      if (event.startsWith('event: next')) stream.pacing.wroteOne();
    }
  } catch {
    // The client went away mid-write: nothing more to send.
  } finally {
    raw.off('close', stop);
    if (!raw.destroyed) raw.end();
  }
}

function refusal(
  status: number,
  errors: readonly GraphQLError[],
  requestId: string,
  operations: SubscriptionOperations,
  stream: Stream,
): StreamResponse {
  return [
    JSON.stringify({ errors: operations.format(errors, requestId, stream.request.log) }),
    { status, statusText: '', headers: { 'content-type': 'application/json; charset=utf-8' } },
  ];
}

function errorBody(errors: readonly GraphQLError[]): { errors: unknown[] } {
  return { errors: errors.map((e) => e.toJSON()) };
}
