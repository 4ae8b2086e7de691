import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { VersionProbe } from '../application/versioning';
import type { Access, RequestReport } from '../graphql/context';

/**
 * Whole GraphQL responses to read-only operations, kept in memory and keyed
 * on the request (query text, operation name, variables, Accept header). An
 * entry that read registry data is tagged with the registry version its
 * request pinned, and is served only while that is still the current version
 * (the registry clock says: from memory on SQLite, one statement on
 * PostgreSQL, so another instance's write is seen at once). An entry whose
 * request read no registry data at all (`{ __typename }`, introspection) does
 * not depend on the registry. Only successful answers (200, no errors) are
 * kept; bounded by total bytes, least recently used out first (lru-cache).
 */
export interface CachedResponse {
  readonly body: string;
  readonly contentType: string;
  /** The registry version the answer was computed at, or null when it reads no registry data. */
  readonly version: number | null;
  readonly operationName: string | null;
}

/** Largest request key cached; longer requests are simply not cached. */
const MAX_KEY_LENGTH = 8 * 1024;

/** What an entry costs beyond its key and body: the entry object, its other strings, the LRU's bookkeeping. */
const ENTRY_OVERHEAD_BYTES = 200;

/**
 * The entries, least recently used first out, within a budget of bytes: each
 * entry weighs its key and body in UTF-8 plus a fixed overhead; an entry over
 * an eighth of the budget is not kept.
 */
export class ResponseCache {
  private readonly entries: LRUCache<string, CachedResponse>;

  constructor(maxBytes = 32 * 1024 * 1024) {
    this.entries = new LRUCache<string, CachedResponse>({
      maxSize: maxBytes,
      maxEntrySize: maxBytes / 8,
      sizeCalculation: (entry, key) => Buffer.byteLength(key) + Buffer.byteLength(entry.body) + ENTRY_OVERHEAD_BYTES,
    });
  }

  /** The cache key of a POSTed GraphQL request, or null when it cannot be cached. */
  static keyOf(body: unknown, accept: string | undefined): string | null {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
    const { query, operationName, variables, extensions } = body as Record<string, unknown>;
    if (typeof query !== 'string' || extensions !== undefined) return null;
    const key = JSON.stringify([accept ?? '', operationName ?? null, variables ?? null, query]);
    return key.length <= MAX_KEY_LENGTH ? key : null;
  }

  /** The entry for a key, or undefined; reading it makes it the most recently used. */
  get(key: string): CachedResponse | undefined {
    return this.entries.get(key);
  }

  /** Keeps an answer, evicting the least recently used entries beyond the byte budget. */
  set(key: string, entry: CachedResponse): void {
    this.entries.set(key, entry);
  }

  /** Number of entries (for tests). */
  get size(): number {
    return this.entries.size;
  }
}

/** What the cache needs of a request: who asks, its registry version (pinned and current), and its report. */
export interface CacheScope {
  readonly access: Access;
  /** The request's registry version: the one it pinned, and the one now. */
  readonly version: VersionProbe;
  readonly report: RequestReport;
}

/**
 * Wraps the GraphQL route: a repeated read-only request is answered from the
 * cache while the registry still holds the version its answer was computed at;
 * anything else runs through GraphQL, and a successful query answer is kept.
 * Every answer says `x-registry-cache: hit | miss | bypass`. With no cache
 * (RESPONSE_CACHE=false) every request runs.
 */
export function withResponseCache(
  cache: ResponseCache | null,
  scopeOf: (request: FastifyRequest) => CacheScope,
  execute: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const scope = scopeOf(request);
    const key =
      cache && request.method === 'POST' && scope.access.canRead && !bypassesCache(request)
        ? cacheableKey(request)
        : null;
    if (key) {
      const entry = cache!.get(key);
      // Only a request that ran successfully before has an entry, so reading the version here never serves a refused request.
      if (entry && (entry.version === null || entry.version === (await currentVersion(scope.version)))) {
        Object.assign(scope.report, { operationName: entry.operationName, operationType: 'query', cache: 'hit' });
        return reply.header('content-type', entry.contentType).header('x-registry-cache', 'hit').send(entry.body);
      }
      scope.report.cache = 'miss';
    }
    const body = await execute(request, reply);
    reply.header('x-registry-cache', scope.report.cache);
    const { report } = scope;
    // Every registry read pins the version first, so an answer that pinned none read no registry data.
    if (
      key &&
      typeof body === 'string' &&
      reply.statusCode === 200 &&
      report.operationType === 'query' &&
      report.errorCodes.length === 0
    ) {
      cache!.set(key, {
        body,
        contentType: String(reply.getHeader('content-type')),
        version: scope.version.pinnedVersion() ?? null,
        operationName: report.operationName,
      });
    }
    return body;
  };
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

/** The response-cache key of a request, or null for one that is never cached (mutations included). */
function cacheableKey(request: FastifyRequest): string | null {
  const query = (request.body as { query?: unknown } | undefined)?.query;
  if (typeof query === 'string' && /^\s*mutation\b/.test(query)) return null;
  return ResponseCache.keyOf(request.body, request.headers.accept);
}
