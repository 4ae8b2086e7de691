import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { AuthCheckerFn } from 'type-graphql';
import { DomainError } from '../core/errors';
import type { RequestContext } from './context';

/** Role of every Query field: needs the read token when READ_TOKEN is set. */
export const READ = 'READ';
/** Role of every Mutation field: needs the admin token when ADMIN_TOKEN is set. */
export const WRITE = 'WRITE';

/** No token, or one that matches nothing. */
export class UnauthenticatedError extends DomainError {
  readonly code = 'UNAUTHENTICATED';
}

/** A valid token that does not allow this operation. */
export class ForbiddenError extends DomainError {
  readonly code = 'FORBIDDEN';
}

/**
 * type-graphql's authChecker for @Authorized(READ) and @Authorized(WRITE).
 * It runs before argument validation, so a refused caller learns nothing
 * about its input.
 */
export const authChecker: AuthCheckerFn<RequestContext> = ({ context }, roles) => {
  const { access } = context;
  if (roles.includes(WRITE) && !access.canWrite) {
    if (access.presented === 'read')
      throw new ForbiddenError('the read token cannot change the registry; use the admin token');
    throw new UnauthenticatedError(
      'changing the registry needs the admin token: send Authorization: Bearer <ADMIN_TOKEN>',
    );
  }
  if (roles.includes(READ) && !access.canRead) {
    throw new UnauthenticatedError(
      'reading the registry needs a token: send Authorization: Bearer <READ_TOKEN or ADMIN_TOKEN>',
    );
  }
  return true;
};

/**
 * With READ_TOKEN set, refuses a request without a valid token before it runs
 * at all (401), so introspection is covered too. Field-level checks stay the
 * rule; this only closes what has no resolver of ours.
 */
export const readAccessPlugin: ApolloServerPlugin<RequestContext> = {
  async requestDidStart({ contextValue }) {
    if (contextValue.access.canRead) return;
    return {
      async didResolveOperation() {
        throw new GraphQLError(
          'reading the registry needs a token: send Authorization: Bearer <READ_TOKEN or ADMIN_TOKEN>',
          {
            extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
          },
        );
      },
    };
  },
};
