import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestReport } from '../graphql/context';
import type { Metrics } from '../observability/metrics';
import type { Tracing } from '../observability/tracing';
import { traceSlot } from '../engine/request-state';

/** Who watches requests: the log line (when `info` is logged), the metrics and the traces, each when on. */
export interface RequestObservers {
  readonly log: boolean;
  readonly metrics: Metrics | null;
  readonly tracing: Tracing | null;
}

/**
 * The request's start and end, and what is recorded of each request: every
 * response carries its request id; once it is answered, its one log line,
 * its metrics and the end of its span, all from the same report. The hooks
 * of what is off are not added at all.
 */
export function observeRequests(
  fastify: FastifyInstance,
  observers: RequestObservers,
  reportOf: (request: FastifyRequest) => RequestReport | undefined,
): void {
  const { log, metrics, tracing } = observers;
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (tracing) traceSlot.set(request, tracing.requestStarted(request.method, pathOf(request), request.headers));
    done();
  });
  if (tracing) {
    // The handler runs inside the request's span (the body is read between onRequest and here, outside it).
    fastify.addHook('preHandler', (request, _reply, done) => {
      const trace = traceSlot.get(request);
      if (trace) tracing.within(trace, done);
      else done();
    });
  }
  if (!log && !metrics && !tracing) return;
  fastify.addHook('onResponse', (request, reply, done) => {
    const report = reportOf(request);
    const status = reply.statusCode;
    const outcome = outcomeOf(status, report);
    if (log) logRequest(request, reply, report, outcome);
    const route = request.routeOptions.url ?? 'unmatched';
    metrics?.requestCompleted(route, request.method, status);
    if (metrics && report && (report.operationType !== null || report.errorCodes.length > 0)) {
      metrics.operationCompleted({
        type: report.operationType,
        name: report.operationName,
        outcome,
        seconds: reply.elapsedTime / 1000,
        cache: report.cache,
      });
    }
    const trace = tracing && traceSlot.get(request);
    if (trace) {
      tracing.requestCompleted(trace, {
        route,
        status,
        outcome,
        operationName: report?.operationName ?? null,
        operationType: report?.operationType ?? null,
        principal: principalOf(report),
        cache: report && report.cache !== 'bypass' ? report.cache : null,
      });
    }
    done();
  });
}

/** What came of a request: ok, GraphQL errors in a 200, rejected (4xx) or error (5xx). */
export function outcomeOf(status: number, report: RequestReport | undefined): string {
  if (status >= 500) return 'error';
  if (status >= 400) return 'rejected';
  return report?.errorCodes.length ? 'graphql-errors' : 'ok';
}

/**
 * Who made the request, for its span: the actor the report names (a
 * mutation's). The one place to switch to the access issue's principals
 * (`user:<sub>`, `token:<name>`) once requests carry them.
 */
export function principalOf(report: RequestReport | undefined): string | null {
  return report?.actor ?? null;
}

/** The request's one log line. */
function logRequest(request: FastifyRequest, reply: FastifyReply, report: RequestReport | undefined, outcome: string) {
  request.log.info(
    {
      method: request.method,
      url: pathOf(request),
      operationName: report?.operationName ?? undefined,
      operationType: report?.operationType ?? undefined,
      actor: report?.actor ?? undefined,
      statusCode: reply.statusCode,
      outcome,
      errorCodes: report?.errorCodes.length ? report.errorCodes : undefined,
      cache: report && report.cache !== 'bypass' ? report.cache : undefined,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
    },
    'request completed',
  );
}

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0];
}
