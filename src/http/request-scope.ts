import type { FastifyRequest } from 'fastify';
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
