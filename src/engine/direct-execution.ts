import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import type { CompiledExecution, ReadyQuery } from './compiled-execution';
import type { RequestContext } from '../graphql/context';
import type { RequestLimits } from './admission';
import { readRefusal } from '../core/access';
import { reportOperation } from './report';
import { passesCsrfPrevention } from './http-caching';

/** Accept headers remembered with the content type Apollo answered them with. */
const ACCEPT_HEADERS_KEPT = 64;

/** Longest Accept header remembered; a longer one always goes through Apollo. */
const MAX_ACCEPT_LENGTH = 256;

/**
 * Answers a POSTed query that is already compiled without Apollo's request
 * pipeline, which costs more than many queries themselves (about 0.1 ms of
 * the server's one thread for `{ __typename }`: its request context, plugin
 * hooks, promises and the garbage they leave).
 *
 * A query is answered directly only when everything Apollo would have done
 * with it is known to come out as a plain success:
 * - its (query text, operation name) was parsed, validated and compiled on an
 *   earlier run through Apollo (CompiledExecution.ready), so validation
 *   (the limit rules included) passed for this very text;
 * - it is a POST whose body Apollo would take as it is (a JSON object with a
 *   string `query`, an optional string `operationName`, an optional object
 *   `variables`, no `extensions`), which passes CSRF prevention, from a
 *   caller who may read (the read rule, readRefusal, as in the read stage);
 * - Apollo has already answered this Accept header with a JSON content type,
 *   which is then sent again (Apollo's choice depends on the header alone);
 * - the request limits admit it (the same memo and heavy lane as in Apollo);
 * - and its compiled run has no error.
 *
 * Anything else, and any error at all, goes through Apollo as before, with
 * the same context (a run with errors runs again there, on graphql-js
 * alone: see CompiledExecution.runReady), so every error, status, hint and
 * log line is Apollo's. Each stage it runs is the pipeline's own function,
 * as Apollo's plugins call it: the read rule, admission (RequestLimits.admit)
 * and the report (reportOperation), so its log line is the same.
 */
export class DirectExecution {
  private readonly contentTypes = new LRUCache<string, string>({ max: ACCEPT_HEADERS_KEPT });
  private readonly queryHashes = new WeakMap<ReadyQuery, string>();

  constructor(
    private readonly execution: CompiledExecution<RequestContext>,
    private readonly limits: RequestLimits,
    private readonly contextOf: (request: FastifyRequest) => RequestContext,
  ) {}

  /** The response body of a direct answer (status and headers set on the reply), or undefined: run it through Apollo. */
  async answer(request: FastifyRequest, reply: FastifyReply): Promise<string | Buffer | undefined> {
    if (request.method !== 'POST') return undefined;
    const contentType = this.contentTypes.get(acceptOf(request));
    const body = directBody(request.body);
    if (contentType === undefined || !body || !passesCsrfPrevention(request)) return undefined;
    const ready = this.execution.ready(body.query, body.operationName);
    if (!ready) return undefined;
    const contextValue = this.contextOf(request);
    // A caller who may not read is refused in Apollo's pipeline (the read stage), with its status and log line.
    if (readRefusal(contextValue.access) !== null) return undefined;

    let end: () => void;
    try {
      end = await this.limits.admit({
        document: ready.document,
        operation: ready.operation,
        operationName: body.operationName ?? undefined,
        variables: body.variables,
        queryKey: this.queryHashOf(ready),
        contextValue,
      });
    } catch {
      return undefined; // refused: Apollo refuses it again, with its status and log line
    }
    let answer: string | Buffer;
    try {
      const ran = await this.execution.runReady(ready, body.variables, contextValue);
      // Errors: Apollo runs it, with the same context, and the execution stage then runs graphql-js alone.
      if (ran === null) return undefined;
      answer = ran;
    } catch {
      return undefined;
    } finally {
      end();
    }
    reportOperation(contextValue.report, body.operationName, ready.operation, contextValue.access.principal);
    void reply.code(200).header('content-type', contentType);
    return answer;
  }

  /** Apollo's query hash of a ready query's text, so that the limits' memo keeps one verdict for both paths. */
  private queryHashOf(ready: ReadyQuery): string {
    let hash = this.queryHashes.get(ready);
    if (hash === undefined) {
      hash = createHash('sha256').update(ready.source).digest('hex');
      this.queryHashes.set(ready, hash);
    }
    return hash;
  }

  /** After Apollo answered a POST: remembers the content type it chose for the request's Accept header. */
  learn(request: FastifyRequest, reply: FastifyReply): void {
    if (request.method !== 'POST' || reply.statusCode !== 200) return;
    const accept = acceptOf(request);
    const type = reply.getHeader('content-type');
    if (accept.length <= MAX_ACCEPT_LENGTH && typeof type === 'string' && /^application\/[\w.+-]*json\b/.test(type))
      this.contentTypes.set(accept, type);
  }
}

function acceptOf(request: FastifyRequest): string {
  const accept = request.headers.accept;
  return typeof accept === 'string' ? accept : '';
}

/** A POST body as Apollo would take it without complaint, or null. */
function directBody(
  body: unknown,
): { query: string; operationName: string | null; variables: Record<string, unknown> } | null {
  if (!isPlainObject(body)) return null;
  const { query, operationName, variables, extensions } = body;
  if (typeof query !== 'string' || extensions !== undefined) return null;
  // An empty operationName names no operation (Apollo refuses it), where a missing one means the only one.
  if (operationName !== undefined && operationName !== null && (typeof operationName !== 'string' || !operationName))
    return null;
  if (variables !== undefined && variables !== null && !isPlainObject(variables)) return null;
  return { query, operationName: operationName ?? null, variables: variables ?? {} };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
