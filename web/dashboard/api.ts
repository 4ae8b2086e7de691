/**
 * The dashboard's GraphQL client: a POST of JSON to /graphql per operation
 * (JSON POSTs pass the server's CSRF prevention), with the token from the
 * token box as `Authorization: Bearer …`. Every URL is found from the
 * dashboard's root, which the page names relative to itself (data-root), so
 * a server behind a path prefix works too.
 */
import { getToken } from './token';

let root: URL | null = null;

/** The dashboard's root, e.g. https://host/dashboard/: every page's path is under it. */
export function dashboardRoot(): URL {
  root ??= new URL(document.getElementById('dashboard')?.dataset.root ?? './', window.location.href);
  return root;
}

/** The GraphQL endpoint, next to /dashboard. */
export function graphqlUrl(): string {
  return new URL('../graphql', dashboardRoot()).href;
}

/** The same endpoint over WebSocket (ws: or wss:, as the page's own scheme). */
export function graphqlSocketUrl(): string {
  const url = new URL('../graphql', dashboardRoot());
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

/** One entry of a GraphQL response's `errors`. */
export interface GraphQLErrorEntry {
  readonly message: string;
  readonly extensions?: { readonly code?: string; readonly [key: string]: unknown };
}

/** A request that failed: the server's first error (with its code), or a transport failure (code null). */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
    readonly status: number,
    readonly errors: readonly GraphQLErrorEntry[] = [],
  ) {
    super(message);
  }

  /** The first error's extensions, e.g. `usedBy` of a CONFLICT. */
  get extensions(): Record<string, unknown> {
    return this.errors[0]?.extensions ?? {};
  }
}

type Listener = (error: RequestError) => void;
const authListeners = new Set<Listener>();

/** Called for every read refused for want of a (read) token: HTTP 401, UNAUTHENTICATED. */
export function onReadRefused(listener: Listener): () => void {
  authListeners.add(listener);
  return () => authListeners.delete(listener);
}

const writeListeners = new Set<Listener>();

/** Called for every write the server refuses to the token: FORBIDDEN or UNAUTHENTICATED. */
export function onWriteRefused(listener: Listener): () => void {
  writeListeners.add(listener);
  return () => writeListeners.delete(listener);
}

/**
 * Runs one query or mutation and returns its `data`. Any error in the answer
 * fails the call with a RequestError (the dashboard asks for nothing that may
 * partly fail).
 */
export async function request<T, V extends object = Record<string, unknown>>(
  document: string,
  variables: V = {} as V,
  options: { signal?: AbortSignal } = {},
): Promise<T> {
  const token = getToken();
  let response: Response;
  try {
    response = await fetch(graphqlUrl(), {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ query: document, variables }),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new RequestError('the server cannot be reached', null, 0);
  }
  let body: { data?: T | null; errors?: GraphQLErrorEntry[] };
  try {
    body = (await response.json()) as typeof body;
  } catch {
    throw new RequestError(`the server answered ${response.status} without GraphQL`, null, response.status);
  }
  if (body.errors && body.errors.length > 0) {
    const first = body.errors[0];
    const error = new RequestError(first.message, first.extensions?.code ?? null, response.status, body.errors);
    const write = /^\s*mutation\b/.test(document);
    if (response.status === 401 || (!write && error.code === 'UNAUTHENTICATED'))
      for (const listener of authListeners) listener(error);
    if (write && (error.code === 'FORBIDDEN' || error.code === 'UNAUTHENTICATED'))
      for (const listener of writeListeners) listener(error);
    throw error;
  }
  if (!response.ok || body.data == null)
    throw new RequestError(`the server answered ${response.status}`, null, response.status);
  return body.data;
}

/** Whether an error is an aborted request (the view moved on), which is not worth showing. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** A short sentence for an error, for the page. */
export function describeError(error: unknown): string {
  if (error instanceof RequestError) return error.code ? `${error.message} (${error.code})` : error.message;
  return error instanceof Error ? error.message : String(error);
}
