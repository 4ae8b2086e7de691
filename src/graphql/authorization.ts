import type { AuthCheckerFn } from 'type-graphql';
import { readRefusal } from '../core/access';
import { ForbiddenError, UnauthenticatedError } from '../core/errors';
import type { Access, RequestContext } from './context';

export { ForbiddenError, UnauthenticatedError } from '../core/errors';

/** Role of every Query field: needs a principal when READ_TOKEN is set or READ_AUTH=required. */
export const READ = 'READ';
/** Role of every Mutation field: needs a principal that holds the mutation's role somewhere (core/access.ts). */
export const WRITE = 'WRITE';

/**
 * type-graphql's authChecker for @Authorized(READ) and @Authorized(WRITE).
 * It runs before argument validation, so a caller without a principal
 * learns nothing about its input. A mutation is let through to any
 * principal: what it may change is authorized once, where every change runs
 * (application/registry-writes.ts), on the namespaces the change touches.
 */
export const authChecker: AuthCheckerFn<RequestContext> = ({ context }, roles) => {
  const { access } = context;
  if (roles.includes(WRITE)) {
    if (access.presented === 'read')
      throw new ForbiddenError('the read token cannot change the registry; use an admin or API token, or sign in');
    if (access.principal === null) throw new UnauthenticatedError(writeNeedsCredential(access));
    return true;
  }
  const refusal = roles.includes(READ) ? readRefusal(access) : null;
  if (refusal !== null) throw new UnauthenticatedError(refusal);
  return true;
};

/** Why a write without a principal is refused. */
function writeNeedsCredential(access: Access): string {
  return access.failure !== null
    ? `not authenticated: ${access.failure}`
    : "changing the registry needs a token: send Authorization: Bearer <an admin or API token, or a signed-in user's JWT>";
}
