import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ReadSession } from '../application/versioning';
import type { RequestReport } from '../graphql/context';
import type { TokenAuthenticator } from './authentication';
import { scopeSlot, type RequestScope } from './request-state';

/** Makes each request's scope on first use and keeps it on the request (./request-state.ts) for its life. */
export function requestScopes(
  authenticator: TokenAuthenticator,
  newSession: () => ReadSession,
): {
  readonly scopeOf: (request: FastifyRequest) => RequestScope;
  readonly reportOf: (request: FastifyRequest) => RequestReport | undefined;
} {
  return {
    scopeOf(request) {
      let scope = scopeSlot.get(request);
      if (!scope) {
        scope = {
          access: authenticator.authenticate(request.headers.authorization),
          session: newSession(),
          report: { operationName: null, operationType: null, actor: null, errorCodes: [], cache: 'bypass' },
        };
        scopeSlot.set(request, scope);
      }
      return scope;
    },
    reportOf: (request) => scopeSlot.get(request)?.report,
  };
}

/** Every response carries its request id; with `info` logging, each request gets one log line. */
export function logRequests(
  fastify: FastifyInstance,
  enabled: boolean,
  reportOf: (request: FastifyRequest) => RequestReport | undefined,
): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  if (!enabled) return;
  fastify.addHook('onResponse', (request, reply, done) => {
    const report = reportOf(request);
    const status = reply.statusCode;
    const outcome =
      status >= 500 ? 'error' : status >= 400 ? 'rejected' : report?.errorCodes.length ? 'graphql-errors' : 'ok';
    request.log.info(
      {
        method: request.method,
        url: request.url.split('?')[0],
        operationName: report?.operationName ?? undefined,
        operationType: report?.operationType ?? undefined,
        actor: report?.actor ?? undefined,
        statusCode: status,
        outcome,
        errorCodes: report?.errorCodes.length ? report.errorCodes : undefined,
        cache: report && report.cache !== 'bypass' ? report.cache : undefined,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request completed',
    );
    done();
  });
}
