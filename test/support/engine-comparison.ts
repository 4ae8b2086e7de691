import { Kind, parse, print, visit, type OperationDefinitionNode } from 'graphql';
import type { TestServer } from './server';

/** One HTTP request, sent alike to both servers. */
export interface ComparedRequest {
  /** What it is, for the failure message (where the operation was found, or the generated query's number). */
  readonly label: string;
  readonly method: 'GET' | 'POST';
  readonly query: string;
  readonly variables?: Record<string, unknown>;
  readonly operationName?: string | null;
  /** Sent with `Cache-Control: no-cache`: past the response cache, so that it runs again. */
  readonly fresh?: boolean;
  /** Its Accept header: application/json unless given; null: none. */
  readonly accept?: string | null;
  /** Who sends it, for the failure message, and the headers that say so (Authorization). */
  readonly as?: { readonly name: string; readonly headers: Record<string, string> };
}

/** An answer as the comparison sees it: status, headers (lower-case names, those compared) and body text. */
export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface Difference {
  readonly request: ComparedRequest;
  readonly fast: Answer;
  readonly reference: Answer;
}

/**
 * The values of a body left out, each one server's own (a moment of its clock, or a random id: of the same length
 * on both, so content-length is still compared):
 * - an API token's lastUsedAt: when each server's copy of the data noted the token's first use (without a
 *   registry version: access.service.ts);
 * - the createdAt of a configured grant (the admin token's, `config:` ids): when that server started;
 * - an internal error's extensions.requestId: the request's id, as the x-request-id header (a random UUID).
 */
const UNCOMPARED_VALUE = /"(lastUsedAt|requestId)":"[^"]*"/g;
const startTimes = new WeakMap<TestServer, string>();

/** A body with the values left out of the comparison replaced (see UNCOMPARED_VALUE). */
export function comparable(server: TestServer, body: string): string {
  const started = startTimes.get(server);
  const masked = body.replace(UNCOMPARED_VALUE, '"$1":"(not compared)"');
  return started ? masked.replaceAll(`"${started}"`, '"(server start)"') : masked;
}

/** Learns when the server started (its configured grants' createdAt), to leave it out of its answers. */
export async function noteStartTime(server: TestServer, admin: Record<string, string>): Promise<void> {
  const d = await server.data(`{ viewer { grants { id createdAt } } }`, undefined, admin);
  const configured = (d.viewer.grants as { id: string; createdAt: string }[]).find((g) => g.id.startsWith('config:'));
  if (!configured) throw new Error('the admin holds no configured grant');
  startTimes.set(server, configured.createdAt);
}

/**
 * Headers left out of the comparison, as they differ between any two answers whatever the engine:
 * - `date`: the clock, to the second;
 * - `x-request-id`: a fresh random id per request (no x-request-id is sent);
 * - `keep-alive`, `connection`: the HTTP connection's state, not the answer's.
 * Every other header is compared: content-type, content-length, cache-control, etag, vary, x-registry-cache…
 */
export const UNCOMPARED_HEADERS = new Set(['date', 'x-request-id', 'keep-alive', 'connection']);

/** Sends the request to the server, the way a client does (POST as JSON, GET with the query in the URL). */
export async function send(server: TestServer, request: ComparedRequest): Promise<Answer> {
  const { query, variables, operationName } = request;
  const accept = request.accept === undefined ? 'application/json' : request.accept;
  const fresh: Record<string, string> = {
    ...(accept === null ? {} : { accept }),
    ...request.as?.headers,
    ...(request.fresh ? { 'cache-control': 'no-cache' } : {}),
  };
  let response: Response;
  if (request.method === 'GET') {
    const url = new URL(server.url);
    url.searchParams.set('query', query);
    if (variables && Object.keys(variables).length > 0) url.searchParams.set('variables', JSON.stringify(variables));
    if (operationName) url.searchParams.set('operationName', operationName);
    // Apollo's CSRF prevention refuses a GET without a header a browser form cannot send (as clients do).
    response = await fetch(url, {
      headers: { 'apollo-require-preflight': 'true', ...fresh },
    });
  } else {
    response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...fresh },
      body: JSON.stringify({ query, variables, ...(operationName ? { operationName } : {}) }),
    });
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!UNCOMPARED_HEADERS.has(name)) headers[name] = value;
  });
  return { status: response.status, headers, body: comparable(server, await response.text()) };
}

/**
 * A query POSTed three times, the later two past the response cache, so that each way the fast server answers is
 * compared: the first run compiles the query; the second is answered by the compiled query, past Apollo when it
 * succeeds (direct-execution.ts), and keeps the parts of its pages; the third is assembled from those parts
 * (page-assembly.ts) when the query is a page of items (else it is not sent a third time).
 */
export function repeated(request: ComparedRequest): ComparedRequest[] {
  const again = { ...request, fresh: true };
  // Only a page (`edges { node … }`) is assembled; any other query's third run would be its second's again.
  return /\bedges\b/.test(request.query) ? [request, again, again] : [request, again];
}

/**
 * Sends each request to both servers (the two at once, the requests one after another, so that each server sees
 * them in the same order and their response caches hit alike), and returns every answer that differs in status,
 * compared headers or body text (byte for byte: key order, error messages, extensions and paths count).
 */
export async function compareAll(
  fast: TestServer,
  reference: TestServer,
  requests: readonly ComparedRequest[],
): Promise<{ differences: Difference[]; otherRootError: Difference[]; withErrors: number }> {
  const differences: Difference[] = [];
  const otherRootError: Difference[] = [];
  let withErrors = 0;
  for (const request of requests) {
    const [a, b] = await Promise.all([send(fast, request), send(reference, request)]);
    if (a.body.includes('"errors":')) withErrors += 1;
    const sameHeaders = JSON.stringify(a.headers) === JSON.stringify(sorted(b.headers, a));
    if (a.status === b.status && a.body === b.body && sameHeaders) continue;
    const roots = reportsAnotherRootError(a, b);
    if (roots && (await eachErrorIsTheOthers(fast, reference, request, roots, [a, b])))
      otherRootError.push({ request, fast: a, reference: b });
    else differences.push({ request, fast: a, reference: b });
  }
  return { differences, otherRootError, withErrors };
}

/**
 * The one difference let pass (and counted): two root fields of non-null types both fail, and each engine reports
 * the error of another one. Either error nulls `data`, and graphql-js reports whichever field's error comes first
 * in time, not in the query's order: the reference server itself answers one text with the first field's error on
 * a cold read session and the second's on a warm one, and the fast server runs a failed compiled query again with
 * graphql-js on the read session the compiled run warmed (compiled-execution.ts), with root queries that throw
 * without waiting (direct-resolvers.ts). Both answers must be `{"errors":[one error],"data":null}` with the same
 * status and headers (but content-length), and the two errors at different root fields.
 */
function reportsAnotherRootError(a: Answer, b: Answer): [string, string] | null {
  const without = (headers: Record<string, string>) => ({ ...headers, 'content-length': '' });
  if (a.status !== b.status || JSON.stringify(without(a.headers)) !== JSON.stringify(sorted(without(b.headers), a)))
    return null;
  const rootOf = (body: string): unknown => {
    const parsed = JSON.parse(body) as { data?: unknown; errors?: { path?: unknown[] }[] };
    const keys = Object.keys(parsed);
    const ok = keys.length === 2 && parsed.data === null && parsed.errors?.length === 1;
    return ok ? parsed.errors![0].path?.[0] : undefined;
  };
  const [rootA, rootB] = [rootOf(a.body), rootOf(b.body)];
  return typeof rootA === 'string' && typeof rootB === 'string' && rootA !== rootB ? [rootA, rootB] : null;
}

/**
 * Whether each engine's error is one the other engine gives too: each failing root field is asked alone (of both
 * servers, so that they keep seeing the same requests), and each server's answer must hold the other's error.
 */
async function eachErrorIsTheOthers(
  fast: TestServer,
  reference: TestServer,
  request: ComparedRequest,
  roots: [string, string],
  [a, b]: [Answer, Answer],
): Promise<boolean> {
  const errorOf = (answer: Answer) => JSON.stringify((JSON.parse(answer.body) as { errors: unknown[] }).errors[0]);
  for (const [root, error, other] of [
    [roots[0], errorOf(a), reference],
    [roots[1], errorOf(b), fast],
  ] as const) {
    const alone = { ...request, query: onlyRootField(request, root), operationName: null, fresh: true };
    const answers = await Promise.all([send(fast, alone), send(reference, alone)]);
    const answer = answers[other === fast ? 0 : 1];
    const errors = ((JSON.parse(answer.body) as { errors?: unknown[] }).errors ?? []).map((e) => JSON.stringify(e));
    // The error's location is that of the field in the whole query: compare without it.
    const strip = (text: string) => text.replace(/"locations":\[[^\]]*\],?/, '');
    if (!errors.some((e) => strip(e) === strip(error))) return false;
  }
  return true;
}

/** The request's operation with one root field (by response key), and the variables that field uses. */
function onlyRootField(request: ComparedRequest, key: string): string {
  const document = parse(request.query);
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode =>
      d.kind === Kind.OPERATION_DEFINITION && (!request.operationName || d.name?.value === request.operationName),
  )!;
  const selections = operation.selectionSet.selections.filter(
    (s) => s.kind === Kind.FIELD && (s.alias ?? s.name).value === key,
  );
  const used = new Set<string>();
  visit({ kind: Kind.SELECTION_SET, selections }, { Variable: (node) => void used.add(node.name.value) });
  const alone: OperationDefinitionNode = {
    ...operation,
    name: undefined,
    variableDefinitions: operation.variableDefinitions?.filter((d) => used.has(d.variable.name.value)),
    selectionSet: { ...operation.selectionSet, selections },
  };
  const fragments = document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION);
  return print({ ...document, definitions: [alone, ...fragments] });
}

/** b's headers in a's order (the order of headers is not part of HTTP's meaning), then any a lacks. */
function sorted(b: Record<string, string>, a: Answer): Record<string, string> {
  const names = [...Object.keys(a.headers).filter((n) => n in b), ...Object.keys(b).filter((n) => !(n in a.headers))];
  return Object.fromEntries(names.map((n) => [n, b[n]]));
}

/** The first differences, each with both answers, for the failure message. */
export function describeDifferences(differences: readonly Difference[]): string {
  return differences
    .slice(0, 8)
    .map(
      ({ request, fast, reference }, i) =>
        `#${i + 1} ${request.label} (${request.method}${request.operationName ? ` ${request.operationName}` : ''}` +
        `${request.fresh ? ', past the response cache' : ''}${request.as ? `, as ${request.as.name}` : ''}` +
        `${request.accept !== undefined ? `, Accept: ${request.accept ?? '(none)'}` : ''})\n` +
        `  query: ${request.query.replace(/\s+/g, ' ')}\n  variables: ${JSON.stringify(request.variables ?? {})}\n` +
        `  fast:      ${fast.status} ${JSON.stringify(fast.headers)}\n             ${fast.body}\n` +
        `  reference: ${reference.status} ${JSON.stringify(reference.headers)}\n             ${reference.body}`,
    )
    .join('\n');
}
