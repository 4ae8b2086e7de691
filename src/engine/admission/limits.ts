/** Limits on one GraphQL request, all enforced before any resolver runs. */
export const QUERY_LIMITS = {
  /** Deepest selection nesting, in fields: fragment spreads and inline fragments are not levels. */
  depth: 10,
  /** Aliased fields in one document. */
  aliases: 15,
  /** Directives in one document. */
  directives: 50,
  /** `__schema` selections in one operation (aliases and fragments included). */
  schemaIntrospections: 1,
  /** Lexical tokens in one document (Apollo's parser stops beyond, as a 400 parse error). */
  tokens: 2000,
  /** Estimated cost: each field costs 1, and a connection multiplies what it contains by `first`. */
  cost: 50_000,
} as const;
