/**
 * Whole GraphQL responses to read-only operations, kept in memory and keyed
 * on the request (query text, operation name, variables, Accept header). An
 * entry that read registry data is tagged with the registry version it was
 * computed at and is served only while the database still holds that version,
 * checked with one statement per request, so another instance's write is
 * seen at once. An entry of an operation that reads only meta fields
 * (`__typename`, `__schema`, `__type`) does not depend on the registry.
 * Only successful answers (200, no errors) are kept; bounded by total bytes.
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

export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private bytes = 0;

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  /** The cache key of a POSTed GraphQL request, or null when it cannot be cached. */
  static keyOf(body: unknown, accept: string | undefined): string | null {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
    const { query, operationName, variables, extensions } = body as Record<string, unknown>;
    if (typeof query !== 'string' || extensions !== undefined) return null;
    const key = JSON.stringify([accept ?? '', operationName ?? null, variables ?? null, query]);
    return key.length <= MAX_KEY_LENGTH ? key : null;
  }

  /** The entry for a key, or undefined. */
  get(key: string): CachedResponse | undefined {
    return this.entries.get(key);
  }

  /** Keeps an answer, evicting the oldest entries beyond the byte budget. */
  set(key: string, entry: CachedResponse): void {
    const size = key.length + entry.body.length;
    if (size > this.maxBytes / 8) return;
    this.delete(key);
    this.entries.set(key, entry);
    this.bytes += size;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  /** Number of entries (for tests). */
  get size(): number {
    return this.entries.size;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= key.length + entry.body.length;
  }
}
