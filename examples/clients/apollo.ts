import { ApolloClient, HttpLink, InMemoryCache, type TypePolicies } from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';

/** What Apollo Client's InMemoryCache needs to know of the registry's schema. */
export const typePolicies: TypePolicies = {
  Query: {
    fields: {
      // Each connection's pages, asked with first/after, make one list per filter.
      tools: relayStylePagination(['filter']),
      projects: relayStylePagination(['filter']),
      resources: relayStylePagination(['filter']),
      // A list an edit can shrink: the new one replaces the old (its items stay cached by id).
      resolveBindings: { merge: false },
    },
  },
  // The same for the lists inside objects.
  Tool: { fields: { resourceSlots: { merge: false } } },
  Project: { fields: { resources: { merge: false } } },
  ResourceType: { fields: { parentTypes: { merge: false }, ancestors: { merge: false }, subtypes: { merge: false } } },
  ResourceUsage: { fields: { links: { merge: false }, staticBindings: { merge: false } } },
  BindingExplanation: { fields: { slots: { merge: false } } },
  SlotExplanation: { fields: { candidates: { merge: false } } },
  // Values with no id of their own: what different queries select of one is merged.
  SlotOutcome: { merge: true },
  BindingMatrix: { merge: true },
};

/** A client for the registry at `uri` (e.g. http://localhost:4000/graphql). */
export function registryClient(uri: string): ApolloClient {
  return new ApolloClient({ link: new HttpLink({ uri }), cache: new InMemoryCache({ typePolicies }) });
}
