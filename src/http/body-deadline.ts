import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../engine/error-mapping';
import { ClientRequestError } from './http-errors';

/** How long a body still arriving when shutdown begins may take to finish (shutdown waits no longer for it). */
export const SHUTDOWN_BODY_GRACE_MS = 2000;

/** A request whose body is still arriving, and when it must have arrived. */
interface Arriving {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  deadline: number;
  /** What ends it at the deadline: the body timeout, or shutdown. */
  ending: 'timeout' | 'shutdown';
}

/**
 * Request bodies must arrive within `timeoutMs` of their request's start
 * (BODY_TIMEOUT_MS): a body still incomplete then is answered 408
 * REQUEST_TIMEOUT and its connection closed, so a client that sends a byte
 * every few seconds holds a connection for that long at most. At shutdown
 * the bodies still arriving get SHUTDOWN_BODY_GRACE_MS more (a request in
 * flight finishes if it can), then 503 SHUTTING_DOWN: shutdown never waits
 * on a client that does not finish.
 *
 * Only requests whose body had not arrived when they started are followed
 * (most bodies come in the packet of their headers), in one set swept a few
 * times a deadline, each leaving it as its request closes.
 */
export function registerBodyDeadlines(fastify: FastifyInstance, timeoutMs: number): void {
  const arriving = new Set<Arriving>();
  const sweep = () => {
    const now = Date.now();
    for (const entry of arriving) if (now >= entry.deadline) end(entry);
  };
  const end = (entry: Arriving) => {
    arriving.delete(entry);
    const { request, reply } = entry;
    if (request.raw.complete || request.raw.destroyed) return;
    const error =
      entry.ending === 'timeout'
        ? new ClientRequestError(`the request body did not arrive within ${timeoutMs} ms`, 408, 'REQUEST_TIMEOUT')
        : new ClientRequestError(
            'the server is shutting down, and the request body had not arrived',
            503,
            'SHUTTING_DOWN',
          );
    if (reply.sent) {
      // Answered already (a refusal that did not need the body), and the client is still sending one.
      request.raw.socket?.destroy();
      return;
    }
    // The rest of the body will not be read: the connection closes once the answer is written.
    void reply.header('connection', 'close');
    if (request.raw.listenerCount('error') > 0) {
      // The body parser listens: its failure takes Fastify's own error path (and the GraphQL-shaped answer).
      request.raw.emit('error', error);
    } else {
      void reply.code(error.statusCode).send(errorBody(error.message, error.code));
    }
  };
  const timer = setInterval(sweep, Math.min(1000, Math.max(20, Math.floor(timeoutMs / 10))));
  timer.unref();

  fastify.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    const hasBody = raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length']) > 0;
    if (hasBody && !raw.complete) {
      const entry: Arriving = { request, reply, deadline: Date.now() + timeoutMs, ending: 'timeout' };
      arriving.add(entry);
      raw.once('close', () => arriving.delete(entry));
    }
    done();
  });
  fastify.addHook('preClose', (done) => {
    const by = Date.now() + SHUTDOWN_BODY_GRACE_MS;
    for (const entry of arriving) {
      if (entry.deadline > by) {
        entry.deadline = by;
        entry.ending = 'shutdown';
      }
    }
    done();
  });
  fastify.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    done();
  });
}
