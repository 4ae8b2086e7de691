/**
 * GraphQL over fetch for the command-line tools (register, export): one
 * request at a time, with the bearer token when there is one, and batched
 * reads that stay under the server's limits on aliases and tokens.
 */

/** A GraphQL error as the server sends it. */
export interface GraphQLError {
  message: string;
  extensions?: {
    code?: string;
    /** In a batch (registerBatch), the index of the entry that failed. */
    entry?: number;
    problems?: { slot?: string | null; field?: string | null; message: string }[];
  };
}

/** A GraphQL response: data, or errors, or (for a partial answer) both. */
export interface GraphQLResponse<T> {
  data?: T | null;
  errors?: GraphQLError[];
}

/** The server could not be reached at all. */
export class UnreachableError extends Error {}

/** How long one request may take before the server counts as unreachable. */
const REQUEST_TIMEOUT_MS = 30_000;

/** The server's limits on one document (docs/security.md, Limits): aliases, and lexical tokens (2,000) with room to spare. */
const MAX_ALIASES = 15;
const TOKEN_BUDGET = 1_800;
/** The tokens of `query Read ( ) { }` around the fields. */
const DOCUMENT_TOKENS = 6;

/** POSTs GraphQL requests, with the bearer token when there is one. */
export class GraphQLClient {
  constructor(
    readonly url: string,
    private readonly token: string | null,
  ) {}

  /** Sends one request. Throws UnreachableError when there is no answer; an answer that is not GraphQL is an error. */
  async request<T = unknown>(query: string, variables: Record<string, unknown> = {}): Promise<GraphQLResponse<T>> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        },
        body: JSON.stringify({ query, variables }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new UnreachableError(
        `cannot reach ${this.url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      );
    }
    const text = await response.text();
    let body: GraphQLResponse<T> | null;
    try {
      body = JSON.parse(text) as GraphQLResponse<T> | null;
    } catch {
      body = null;
    }
    if (!body || typeof body !== 'object' || (!('data' in body) && !Array.isArray(body.errors))) {
      return {
        errors: [
          {
            message: `HTTP ${response.status} ${response.statusText}: not a GraphQL response (${text.slice(0, 120).trim() || 'empty body'})`,
            extensions: { code: `HTTP_${response.status}` },
          },
        ],
      };
    }
    return { data: body.data, errors: body.errors?.length ? body.errors : undefined };
  }

  /**
   * Reads many root fields that each take one argument, e.g. `tool(ref: …)`
   * for every tool of a file, in as few requests as the limits allow. Gives
   * each field's value in order (null when the field answered null), or the
   * first error.
   */
  async readMany<T>(fields: readonly BatchedField[]): Promise<{ values: (T | null)[] } | { error: GraphQLError }> {
    const values: (T | null)[] = [];
    for (const batch of batches(fields)) {
      const parts = batch.map((f, i) => ({
        variable: `$v${i}: ${f.argType}`,
        field: `a${i}: ${f.field}(${f.argName}: $v${i}) { ${f.selection} }`,
      }));
      const query = `query Read(${parts.map((p) => p.variable).join(', ')}) { ${parts.map((p) => p.field).join(' ')} }`;
      const variables = Object.fromEntries(batch.map((f, i) => [`v${i}`, f.value]));
      const { data, errors } = await this.request<Record<string, T | null>>(query, variables);
      if (errors || !data) return { error: errors?.[0] ?? { message: 'no data in the response' } };
      values.push(...batch.map((_, i) => data[`a${i}`] ?? null));
    }
    return { values };
  }
}

/** One root field to read: `field(argName: value) { selection }`, the value passed as a variable of argType. */
export interface BatchedField {
  readonly field: string;
  readonly argName: string;
  readonly argType: string;
  readonly value: unknown;
  readonly selection: string;
}

/** Splits fields into documents of at most MAX_ALIASES aliases and TOKEN_BUDGET tokens each. */
function batches(fields: readonly BatchedField[]): BatchedField[][] {
  const result: BatchedField[][] = [];
  let current: BatchedField[] = [];
  let tokens = DOCUMENT_TOKENS;
  for (const field of fields) {
    // Each field brings its variable (`$vN: Type`) and itself (`aN: field(arg: $vN) { selection }`).
    const cost = countTokens(`$v: ${field.argType} a: ${field.field}(${field.argName}: $v) { ${field.selection} }`);
    if (current.length > 0 && (current.length === MAX_ALIASES || tokens + cost > TOKEN_BUDGET)) {
      result.push(current);
      current = [];
      tokens = DOCUMENT_TOKENS;
    }
    current.push(field);
    tokens += cost;
  }
  if (current.length > 0) result.push(current);
  return result;
}

/** GraphQL's lexical tokens in a document this module writes (names, variables and punctuators; no strings). */
function countTokens(text: string): number {
  return (text.match(/\.\.\.|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[!$&():=@[\]{|}]/g) ?? []).length;
}
