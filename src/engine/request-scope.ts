import type { FastifyRequest } from 'fastify';
import type { ReadSession } from '../application/versioning';
import type { Services } from '../application/services';
import type { Access, RequestContext, RequestReport } from '../graphql/context';
import type { Authenticator } from './authentication';
import { FairShare } from './fair-share';
import { scopeSlot, type RequestScope } from './request-state';

/**
 * Makes each request's scope (who asks, its read session, its report, its one
 * GraphQL context) and keeps it on the request (./request-state.ts) for its
 * life. `prepare` makes it, authenticating the request: at once for no token
 * and the static tokens (no promise), or after a lookup for an API token or a
 * JWT. `scopeOf` then gives it to everything that runs for the request.
 */
export function requestScopes(
  authenticator: Authenticator,
  newSession: () => ReadSession,
  services: Services,
): {
  readonly prepare: (request: FastifyRequest) => Promise<unknown> | undefined;
  readonly scopeOf: (request: FastifyRequest) => RequestScope;
  readonly reportOf: (request: FastifyRequest) => RequestReport | undefined;
} {
  const make = (request: FastifyRequest, access: Access, session: ReadSession): void => {
    const report: RequestReport = {
      operationName: null,
      operationType: null,
      actor: null,
      errorCodes: [],
      cache: 'bypass',
    };
    const context: RequestContext = {
      requestId: request.id,
      access,
      services,
      session,
      log: request.log,
      report,
      fairShare: new FairShare(),
    };
    scopeSlot.set(request, { access, session, report, context });
  };
  return {
    prepare(request) {
      if (scopeSlot.get(request)) return undefined;
      const session = newSession();
      const access = authenticator.authenticate(request.headers.authorization, session);
      if (!(access instanceof Promise)) {
        make(request, access, session);
        return undefined;
      }
      return access.then((found) => make(request, found, session));
    },
    scopeOf(request) {
      const scope = scopeSlot.get(request);
      if (!scope) throw new Error('a request scope was asked for before the request was authenticated');
      return scope;
    },
    reportOf: (request) => scopeSlot.get(request)?.report,
  };
}
