import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { hash } from 'node:crypto';
import { Doorkeeper } from './doorkeeper';
import { jsonBodyText } from './request-state';
import type { VersionProbe } from '../application/versioning';
import type { Access, RequestReport } from '../graphql/context';
import { readRefusal } from '../core/access';
import { reportCacheHit } from './report';
import {
  addVary,
  etagOf,
  ifNoneMatch,
  matchesAny,
  passesCsrfPrevention,
  requestTag,
  versionsVouchedFor,
} from './http-caching';

/**
 * Whole GraphQL responses to read-only operations, kept in memory and keyed
 * on the request (query text, operation name, variables, Accept header). An
 * entry that read registry data is tagged with the registry version its
 * request pinned and with what it read (its dependencies: the tools,
 * projects, links and resources, the type hierarchy, the lists), and is
 * served as long as no write since that version touched any of them (the
 * versioning's change index says: this process's writes as they commit,
 * another instance's from the change log, so a write on either is seen at
 * once). An entry whose request read no registry data at all
 * (`{ __typename }`, introspection) does not depend on the registry. Only
 * successful answers (200, no errors) are kept, and only from the second
 * time their request is seen (./doorkeeper.ts: a request seen once costs
 * the cache nothing and evicts nothing); bounded by total bytes, least
 * recently used out first (lru-cache).
 */
export interface CachedResponse {
  /** The body's bytes, written as they are on every hit (kept outside the JavaScript heap, encoded once). */
  readonly body: Buffer;
  readonly contentType: string;
  /** The registry version the answer was computed at, or null when it reads no registry data. */
  readonly version: number | null;
  /** What the answer read: it stays right while no write touches any of these. */
  readonly dependencies: readonly string[];
  readonly operationName: string | null;
  /** Its ETag, for an answer to a GET. */
  readonly etag?: string;
}

/**
 * The hash an automatic persisted query's `extensions` name it by, when they
 * hold that and nothing else (Apollo's APQ: `{ persistedQuery: { version: 1,
 * sha256Hash } }`); else null, and the request is not cached. The hash stands
 * for the query's text: Apollo runs a request sent with it only once it has
 * checked that text against it.
 */
function persistedQueryHash(extensions: unknown): string | null {
  if (!extensions || typeof extensions !== 'object' || Array.isArray(extensions)) return null;
  const { persistedQuery, ...others } = extensions as Record<string, unknown>;
  if (Object.keys(others).length > 0 || !persistedQuery || typeof persistedQuery !== 'object') return null;
  const { version, sha256Hash, ...more } = persistedQuery as Record<string, unknown>;
  if (version !== 1 || Object.keys(more).length > 0 || typeof sha256Hash !== 'string') return null;
  return /^[0-9a-f]{64}$/.test(sha256Hash) ? sha256Hash : null;
}

/** Largest request cached (its parts as JSON, before hashing); longer requests are simply not cached. */
const MAX_KEY_LENGTH = 8 * 1024;

/** What an entry costs beyond its key and body: the entry object, its other strings, the LRU's bookkeeping. */
const ENTRY_OVERHEAD_BYTES = 200;

/** What each dependency costs beyond its characters: the string's header and its place in the array. */
const DEPENDENCY_OVERHEAD_BYTES = 24;

/**
 * The entries, least recently used first out, within a budget of bytes: each
 * entry weighs its key and body in UTF-8 plus a fixed overhead; an entry over
 * an eighth of the budget is not kept.
 */
export class ResponseCache {
  private readonly entries: LRUCache<string, CachedResponse>;
  /** The requests seen before: once the cache is nearly full, an answer is kept the second time its request is seen (./doorkeeper.ts). */
  private readonly doorkeeper = new Doorkeeper();
  /** Below this many bytes in use, every answer is kept at its first sighting. */
  private readonly roomBytes: number;
  /** Entries evicted so far to stay within the budget. */
  private evictions = 0;

  constructor(maxBytes = 16 * 1024 * 1024) {
    this.roomBytes = maxBytes * 0.75;
    this.entries = new LRUCache<string, CachedResponse>({
      maxSize: maxBytes,
      maxEntrySize: maxBytes / 8,
      sizeCalculation: (entry, key) =>
        Buffer.byteLength(key) +
        entry.body.length +
        entry.dependencies.reduce((bytes, dependency) => bytes + dependency.length + DEPENDENCY_OVERHEAD_BYTES, 0) +
        ENTRY_OVERHEAD_BYTES,
      disposeAfter: (_entry, _key, reason) => {
        if (reason === 'evict') this.evictions += 1;
      },
    });
  }

  /** Entries evicted so far, and the bytes held now (for the metrics; hits and misses are counted per request). */
  figures(): { evictions: number; bytes: number } {
    return { evictions: this.evictions, bytes: this.entries.calculatedSize };
  }

  /**
   * The cache key of a GraphQL request (a POST's body, or a GET's parameters
   * with `variables` parsed), or null when it cannot be cached: the SHA-256
   * of the request's parts, 43 characters however long the request (the
   * request itself took more room in the cache than a resolve's answer). GET
   * and POST keep apart: Apollo answers a GET that prefers HTML with GraphiQL.
   * With `text`, the POST body's JSON as it was sent, the parts hashed are the
   * method, the Accept header and that text, not the parsed body written out
   * again (which cost a unique request a kilobyte and a JSON.stringify): the
   * same request sent with other spacing or key order is then an entry of its
   * own, which costs a miss, never a wrong answer. `audience` is who asks
   * (empty for no principal): answers are kept per principal.
   */
  static keyOf(
    body: unknown,
    accept: string | undefined,
    method: 'GET' | 'POST' = 'POST',
    text?: string,
    audience = '',
  ): string | null {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
    const { query, operationName, variables, extensions } = body as Record<string, unknown>;
    // An automatic persisted query may come as its hash alone, which then stands for its text.
    const persisted = extensions === undefined ? null : persistedQueryHash(extensions);
    if (extensions !== undefined && persisted === null) return null;
    if (typeof query !== 'string' && persisted === null) return null;
    if (text !== undefined && method === 'POST')
      return text.length <= MAX_KEY_LENGTH
        ? hash('sha256', `POST\u0000${audience}\u0000${accept ?? ''}\u0000${text}`, 'base64url')
        : null;
    const request = JSON.stringify([
      method,
      audience,
      accept ?? '',
      operationName ?? null,
      variables ?? null,
      query ?? null,
      ...(persisted === null ? [] : [persisted]),
    ]);
    return request.length <= MAX_KEY_LENGTH ? hash('sha256', request, 'base64url') : null;
  }

  /** The entry for a key, or undefined; reading it makes it the most recently used. */
  get(key: string): CachedResponse | undefined {
    return this.entries.get(key);
  }

  /** Keeps an answer, evicting the least recently used entries beyond the byte budget. */
  set(key: string, entry: CachedResponse): void {
    this.entries.set(key, entry);
  }

  /**
   * Whether an answer to this request should be kept: always while the cache
   * has room (under three quarters of its budget), and once it is that full
   * only when the request was seen before (recently), so that a one-off
   * request no longer evicts what is asked again (see ./doorkeeper.ts).
   * Either way the request counts as seen from now on.
   */
  worthKeeping(key: string): boolean {
    const seen = this.doorkeeper.seen(key);
    return seen || this.entries.calculatedSize < this.roomBytes;
  }

  /** Number of entries (for tests). */
  get size(): number {
    return this.entries.size;
  }
}

/** What the cache needs of a request: who asks, its registry version and what it read, and its report. */
export interface CacheScope {
  readonly access: Access;
  /** The request's registry version (the one it pinned, the one now), what it read, and whether an answer still holds. */
  readonly version: VersionProbe;
  readonly report: RequestReport;
}

/** How GET answers are marked for HTTP caches. */
export interface HttpCaching {
  /** Cache-Control of a successful GET query answer (HTTP_CACHE_CONTROL). */
  readonly cacheControl: string;
}

/**
 * Wraps the GraphQL route: a repeated read-only request is answered from the
 * cache while the registry still holds the version its answer was computed at;
 * anything else runs through GraphQL, and a successful query answer is kept
 * (while the cache has room at once, so the second request is a hit; once it
 * is nearly full, from the second time its request is seen, so a hit from
 * the third).
 * Every answer says `x-registry-cache: hit | miss | bypass`. With no cache
 * (RESPONSE_CACHE=false) every request runs.
 *
 * A GET is cached like a POST when it certainly passes Apollo's CSRF
 * prevention (otherwise Apollo decides), and is marked for HTTP caches:
 * `Vary: Accept, Authorization` always; a successful query answer gets an
 * ETag (see ./http-caching.ts) and HTTP_CACHE_CONTROL, anything else
 * `no-store`. If-None-Match is answered 304 when a tag it sends is still
 * good: one of this server's for this request at the current registry
 * version, checked before anything runs, or the tag of the answer it gets.
 * ETags and 304s do not need the response cache.
 */
export function withResponseCache(
  cache: ResponseCache | null,
  scopeOf: (request: FastifyRequest) => CacheScope,
  execute: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  http: HttpCaching,
) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const scope = scopeOf(request);
    const get = request.method === 'GET';
    if (get) addVary(reply, ['Accept', 'Authorization']);
    // Only a caller who may read (the read rule) is answered from the cache; any other goes on to be refused.
    const mayRead = readRefusal(scope.access) === null;
    const key = mayRead && (!get || passesCsrfPrevention(request)) ? cacheableKey(request, scope.access) : null;
    const tags = get && key ? ifNoneMatch(request) : NO_TAGS;
    const tag = get && key ? requestTag(key) : null;

    // A tag this server gave for this request, at the registry version that is still current: nothing to run.
    if (tag) {
      for (const version of versionsVouchedFor(tags, tag)) {
        if (version === null || version === (await currentVersion(scope.version))) {
          reportCacheHit(scope.report, operationNameOf(request));
          return notModified(reply, etagOf(tag, version), http, scope.report);
        }
      }
    }

    const cached = cache && key && !bypassesCache(request);
    if (cached) {
      const entry = cache.get(key);
      // Only a request that ran successfully before has an entry, so reading the version here never serves a refused request.
      if (entry && (entry.version === null || (await stillHolds(scope.version, entry.version, entry.dependencies)))) {
        reportCacheHit(scope.report, entry.operationName);
        if (entry.etag) {
          if (matchesAny(tags, entry.etag)) return notModified(reply, entry.etag, http, scope.report);
          markCacheable(reply, entry.etag, http, scope.report);
        }
        return reply.header('content-type', entry.contentType).header('x-registry-cache', 'hit').send(entry.body);
      }
      scope.report.cache = 'miss';
    }
    const body = await execute(request, reply);
    reply.header('x-registry-cache', scope.report.cache);
    const { report } = scope;
    if (key === null || !isKeepable(body, reply, report)) {
      if (get && !String(reply.getHeader('content-type')).startsWith('text/html'))
        reply.header('cache-control', 'no-store');
      return body;
    }
    // Every registry read pins the version first, so an answer that pinned none read no registry data.
    const version = scope.version.pinnedVersion() ?? null;
    const etag = tag ? etagOf(tag, version) : undefined;
    let sent: string | Buffer = body;
    if (cached && cache.worthKeeping(key)) {
      // Encoded once: this miss sends the same bytes that later hits will.
      sent = typeof body === 'string' ? Buffer.from(body) : body;
      cache.set(key, {
        body: sent,
        contentType: String(reply.getHeader('content-type')),
        version,
        dependencies: version === null ? [] : scope.version.dependencies(),
        operationName: report.operationName,
        etag,
      });
    }
    if (etag) {
      if (matchesAny(tags, etag)) return notModified(reply, etag, http, scope.report);
      markCacheable(reply, etag, http, scope.report);
    }
    return sent;
  };
}

/** Whether an answer may be kept and tagged: a query's successful answer, as bytes, that shows only what versions. */
function isKeepable(body: unknown, reply: FastifyReply, report: RequestReport): body is string | Buffer {
  return (
    (typeof body === 'string' || Buffer.isBuffer(body)) &&
    reply.statusCode === 200 &&
    report.operationType === 'query' &&
    report.errorCodes.length === 0 &&
    report.uncacheable !== true
  );
}

/** A POST's If-None-Match tags: none (ETags are for GETs). */
const NO_TAGS: readonly string[] = [];

/** Marks a GET's answer for HTTP caches: its ETag, HTTP_CACHE_CONTROL, and what the response cache did. */
function markCacheable(reply: FastifyReply, etag: string, http: HttpCaching, report: RequestReport): FastifyReply {
  return reply.header('etag', etag).header('cache-control', http.cacheControl).header('x-registry-cache', report.cache);
}

/** 304 for a GET whose If-None-Match names an ETag that still holds. */
function notModified(reply: FastifyReply, etag: string, http: HttpCaching, report: RequestReport): FastifyReply {
  markCacheable(reply, etag, http, report).removeHeader('content-type');
  return reply.code(304).send();
}

/** Whether an answer computed at `version`, which read `dependencies`, still holds; false when that cannot be known. */
async function stillHolds(probe: VersionProbe, version: number, dependencies: readonly string[]): Promise<boolean> {
  try {
    return await probe.unchangedSince(version, dependencies);
  } catch {
    return false;
  }
}

/** The registry version now, or NaN when it cannot be read (then nothing is served from the cache). */
async function currentVersion(version: VersionProbe): Promise<number> {
  try {
    return await version.currentVersion();
  } catch {
    return Number.NaN;
  }
}

/** `Cache-Control: no-cache` (or `no-store`) on a request asks for a fresh answer. */
function bypassesCache(request: FastifyRequest): boolean {
  const header = request.headers['cache-control'];
  return typeof header === 'string' && /no-cache|no-store/i.test(header);
}

/**
 * The response-cache key of a request, or null for one that is never cached
 * (mutations included). It covers who asks (the principal and its groups):
 * an answer may show what only its principal sees (viewer, the change log's
 * access entries), so an answer is served again only to the same principal.
 */
function cacheableKey(request: FastifyRequest, access: Access): string | null {
  const fields = request.method === 'GET' ? getParameters(request) : request.body;
  const query = (fields as { query?: unknown } | null | undefined)?.query;
  if (typeof query === 'string' && /^\s*mutation\b/.test(query)) return null;
  const { accept } = request.headers;
  return request.method === 'GET'
    ? ResponseCache.keyOf(fields, accept, 'GET', undefined, audienceOf(access))
    : ResponseCache.keyOf(fields, accept, 'POST', jsonBodyText(request), audienceOf(access));
}

/** Who an answer is for, as part of its key: empty without a principal, else its id and groups. */
function audienceOf(access: Access): string {
  const { principal } = access;
  if (principal === null) return '';
  return principal.groups.length === 0 ? principal.id : `${principal.id}\u0001${principal.groups.join('\u0001')}`;
}

/**
 * A GET's GraphQL parameters in a POST body's shape (`variables` and
 * `extensions` parsed; their depth was checked before the handler), or null
 * when they are not plain strings or not JSON: Apollo will answer those.
 */
function getParameters(request: FastifyRequest): Record<string, unknown> | null {
  const { query, operationName, variables, extensions } = (request.query ?? {}) as Record<string, unknown>;
  if ([query, operationName, variables, extensions].some((v) => v !== undefined && typeof v !== 'string')) return null;
  let parsed: unknown;
  let parsedExtensions: unknown;
  try {
    parsed = variables === undefined ? undefined : JSON.parse(variables as string);
    parsedExtensions = extensions === undefined ? undefined : JSON.parse(extensions as string);
  } catch {
    return null;
  }
  return { query, operationName, variables: parsed, extensions: parsedExtensions };
}

/** The operation name a GET or POST asked for, if any (for the log line of a 304 answered before anything ran). */
function operationNameOf(request: FastifyRequest): string | null {
  const fields = (request.method === 'GET' ? request.query : request.body) as { operationName?: unknown } | undefined;
  return typeof fields?.operationName === 'string' ? fields.operationName : null;
}
