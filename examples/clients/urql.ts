import { Client, fetchExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { relayPagination } from '@urql/exchange-graphcache/extras';

/** A client for the registry at `url` (e.g. http://localhost:4000/graphql), with a normalized cache. */
export function registryClient(url: string): Client {
  const cache = cacheExchange({
    keys: {
      // Values with no id of their own: kept inside what holds them.
      SlotOutcome: () => null,
      BindingMatrix: () => null,
      ProjectPage: () => null,
      ToolPage: () => null,
      ToolProblem: () => null,
      RegisteredEntry: () => null,
    },
    resolvers: {
      // Each connection's pages, asked with first/after, make one list per filter.
      Query: { tools: relayPagination(), projects: relayPagination(), resources: relayPagination() },
    },
  });
  return new Client({
    url,
    exchanges: [cache, fetchExchange],
    // urql sends queries as GET by default, which the server refuses as a possible cross-site request forgery
    // unless the request says it is not one: POST them (or keep GET and send `apollo-require-preflight: true`).
    preferGetMethod: false,
  });
}
