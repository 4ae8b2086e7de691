import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash, randomBytes } from 'node:crypto';

/**
 * HTTP caching of GET query answers: an ETag made of the registry version
 * the answer was computed at and a digest of the request, so a client (or a
 * proxy) that sends it back in If-None-Match gets 304 for as long as the
 * registry has not changed, without the query running again.
 *
 * An ETag is `"<server>.<version>.<request>"`: `<server>` is drawn at each
 * start, so a tag is never trusted across a restart (new code may answer the
 * same request differently) or by another instance; `<version>` is the
 * registry version, or `s` for an answer that read no registry data
 * (`{ __typename }`, introspection), which changes only with the server.
 */

/** This process's part of every ETag. */
const SERVER_TAG = randomBytes(6).toString('base64url');

/** The request's part of an ETag: a digest of its cache key (query, operation name, variables, Accept). */
export function requestTag(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 22);
}

/** The ETag of an answer to the request with this tag, computed at `version` (null: it read no registry data). */
export function etagOf(request: string, version: number | null): string {
  return `"${SERVER_TAG}.${version ?? 's'}.${request}"`;
}

/** The entity tags of an If-None-Match header, weak or strong alike (weak comparison), `*` included. */
export function ifNoneMatch(request: FastifyRequest): string[] {
  const header = request.headers['if-none-match'];
  if (typeof header !== 'string' || header === '') return [];
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .filter((tag) => tag !== '');
}

/** Whether If-None-Match's tags name this ETag (or `*`). */
export function matchesAny(tags: readonly string[], etag: string): boolean {
  return tags.some((tag) => tag === '*' || tag === etag);
}

/**
 * The registry version an If-None-Match tag of this server vouches for, for
 * this request: a number, `null` for an answer that read no registry data,
 * or undefined when no tag was made by this server for this request.
 */
export function versionsVouchedFor(tags: readonly string[], request: string): (number | null)[] {
  const versions: (number | null)[] = [];
  for (const tag of tags) {
    const match = /^"([\w-]+)\.(\d+|s)\.([\w-]+)"$/.exec(tag);
    if (!match || match[1] !== SERVER_TAG || match[3] !== request) continue;
    versions.push(match[2] === 's' ? null : Number(match[2]));
  }
  return versions;
}

/** Content types a browser may send cross-site without a preflight (as Apollo's CSRF prevention lists them). */
const SIMPLE_CONTENT_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

/** The headers Apollo's CSRF prevention accepts as proof that a request was preflighted. */
const PREFLIGHT_HEADERS = ['apollo-require-preflight', 'x-apollo-operation-name'];

/**
 * Whether a GET certainly passes Apollo's CSRF prevention (which stays on):
 * a non-empty `apollo-require-preflight` or `x-apollo-operation-name`
 * header, or a content type a browser cannot send without a preflight. Only
 * such a GET may be answered from the response cache without Apollo; any
 * other goes to Apollo, which decides.
 */
export function passesCsrfPrevention(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  // Nearly every GraphQL request says exactly this, which no browser sends cross-site without a preflight.
  if (type === 'application/json') return true;
  if (PREFLIGHT_HEADERS.some((name) => typeof request.headers[name] === 'string' && request.headers[name] !== '')) {
    return true;
  }
  if (typeof type !== 'string') return false;
  const essence = type.split(';')[0].trim().toLowerCase();
  return /^[\w.+-]+\/[\w.+-]+$/.test(essence) && !SIMPLE_CONTENT_TYPES.has(essence);
}

/** Adds names to the Vary header, keeping those already there (CORS adds Origin). */
export function addVary(reply: FastifyReply, names: readonly string[]): void {
  const current = reply.getHeader('vary');
  const present = (typeof current === 'string' ? current.split(',') : []).map((v) => v.trim()).filter(Boolean);
  const lower = new Set(present.map((v) => v.toLowerCase()));
  void reply.header('vary', [...present, ...names.filter((n) => !lower.has(n.toLowerCase()))].join(', '));
}
