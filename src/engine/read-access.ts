import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { readRefusal } from '../core/access';
import type { Access, RequestContext } from '../graphql/context';

/**
 * The read stage: a request that may not read (the read rule,
 * readRefusal in core/access.ts) is refused before any operation
 * runs, with 401, whatever the operation, so introspection is covered too.
 * Field-level checks stay the rule; this closes what has no resolver of ours.
 */
export function readAccessError(access: Access): GraphQLError | null {
  const refusal = readRefusal(access);
  return refusal === null
    ? null
    : new GraphQLError(refusal, { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
}

/** The read stage in Apollo's pipeline: after the operation is resolved, before admission and execution. */
export const readAccessPlugin: ApolloServerPlugin<RequestContext> = {
  async requestDidStart({ contextValue }) {
    if (readRefusal(contextValue.access) === null) return;
    return {
      async didResolveOperation() {
        const error = readAccessError(contextValue.access);
        if (error) throw error;
      },
    };
  },
};
