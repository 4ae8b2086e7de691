import { unwrapResolverError } from '@apollo/server/errors';
import type { ApolloServerPlugin } from '@apollo/server';
import { NotFoundError } from '../core/errors';
import type { RequestContext } from '../graphql/context';

/**
 * Before errors are formatted: a NOT_FOUND for a name learns what the thing is
 * called now (after a rename) or the closest existing names, read through the
 * request's session at the current version (a failed write has rolled back).
 */
export const notFoundHintsPlugin: ApolloServerPlugin<RequestContext> = {
  async requestDidStart() {
    return {
      async didEncounterErrors({ errors, contextValue }) {
        for (const error of errors) {
          const original = unwrapResolverError(error);
          if (!(original instanceof NotFoundError)) continue;
          try {
            await contextValue.services.names.enrich(original, contextValue.session);
          } catch (failure) {
            // Hints are a courtesy: the NOT_FOUND itself still goes out.
            contextValue.log.warn({ err: failure }, 'could not look up name hints');
          }
        }
      },
    };
  },
};
