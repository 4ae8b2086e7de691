import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

/** An RFC 3339 date-time in UTC with milliseconds, as the server stores it. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

function parse(value: unknown): string {
  if (typeof value === 'string' && ISO_UTC.test(value) && !Number.isNaN(Date.parse(value))) return value;
  throw new GraphQLError('DateTime must be an RFC 3339 date-time in UTC, e.g. 2026-11-30T16:41:41.011Z');
}

/**
 * DateTime: an RFC 3339 date-time in UTC (`2026-11-30T16:41:41.011Z`). The
 * server keeps timestamps as exactly this text, so answers pass it through
 * untouched (no Date object per field on a page of hundreds).
 */
export const DateTime = new GraphQLScalarType({
  name: 'DateTime',
  description: 'An RFC 3339 date-time in UTC, e.g. 2026-11-30T16:41:41.011Z.',
  specifiedByURL: 'https://datatracker.ietf.org/doc/html/rfc3339',
  serialize: (value) => {
    if (typeof value === 'string') return value;
    if (value instanceof Date) return value.toISOString();
    throw new GraphQLError('DateTime cannot represent this value');
  },
  parseValue: parse,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string');
    return parse(ast.value);
  },
});
