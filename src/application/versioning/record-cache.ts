import { LRUCache } from 'lru-cache';

/** What a cached miss is stored as (lru-cache keeps no null). */
const MISS = Symbol('miss');

/** What an entry costs beyond its value: the key's string, the LRU's bookkeeping. */
const ENTRY_OVERHEAD_BYTES = 96;

/**
 * The default budget. The benchmark's 5,000 resolve pairs at the default size
 * (50,000 resources) fill 38 MB of it, so they are all answered from memory;
 * loads over the whole registry fill any budget, and each MB of it costs the
 * process about 1.5 MB of resident memory, since V8 keeps its heap at 1.5-1.8
 * times the live data (it was 64 MB: the benchmark's RSS max went from 308 to
 * 295-300 MB, with the same statements per request).
 */
export const RECORD_CACHE_BYTES = 48 * 1024 * 1024;

/**
 * Registry records (tools, slots, projects, links, resources) kept in process
 * memory for the current registry version only. Every write bumps the version
 * in the database, and every request reads it once, so an entry is never used
 * after any instance has changed the registry: on a new version the cache
 * starts empty. Misses are cached too (as null). All kinds share one budget
 * of bytes (each entry weighs its key and an estimate of its value's heap,
 * see `approximateBytes`); beyond it the least recently used entries go
 * first (lru-cache).
 */
export class RecordCache {
  private version = -1;
  private readonly entries: LRUCache<string, NonNullable<unknown>>;

  constructor(maxBytes = RECORD_CACHE_BYTES) {
    this.entries = new LRUCache<string, NonNullable<unknown>>({
      maxSize: maxBytes,
      maxEntrySize: maxBytes / 8,
      sizeCalculation: (value, key) => 2 * key.length + ENTRY_OVERHEAD_BYTES + approximateBytes(value),
    });
  }

  /** The cached values of `keys` at `version` (undefined where not cached). */
  lookup<V>(version: number, kind: string, keys: readonly string[]): (V | null | undefined)[] {
    if (version !== this.version) {
      this.moveTo(version);
      return keys.map(() => undefined);
    }
    return keys.map((key) => {
      const value = this.entries.get(keyOf(kind, key));
      return value === MISS ? null : (value as V | undefined);
    });
  }

  /** Stores values read at `version`; ignored when the cache has already moved to a newer version. */
  store<V>(version: number, kind: string, entries: Iterable<readonly [string, V | null]>): void {
    if (version < this.version) return;
    if (version > this.version) this.moveTo(version);
    for (const [key, value] of entries) this.entries.set(keyOf(kind, key), value ?? MISS);
  }

  /** Number of entries, and their total weight in bytes (for tests). */
  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.entries.calculatedSize;
  }

  private moveTo(version: number): void {
    if (version < this.version) return;
    this.version = version;
    this.entries.clear();
  }
}

function keyOf(kind: string, key: string): string {
  return `${kind}\u0000${key}`;
}

/**
 * An estimate of the heap a record takes: strings at two bytes a character
 * plus a header, numbers and booleans at 8, Dates at 48, each object and array
 * a header plus 16 bytes a property or element. Shared sub-objects are
 * counted each time they are reached (an over-estimate); nesting deeper than
 * 8 levels counts as 1 KB.
 */
export function approximateBytes(value: unknown, depth = 0): number {
  if (value === null || value === undefined) return 8;
  switch (typeof value) {
    case 'string':
      return 16 + 2 * value.length;
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'symbol':
      return 8;
    case 'object':
      break;
    default:
      return 32;
  }
  if (depth >= 8) return 1024;
  if (value instanceof Date) return 48;
  if (Array.isArray(value)) {
    return value.reduce((bytes: number, item) => bytes + 16 + approximateBytes(item, depth + 1), 32);
  }
  let bytes = 32;
  for (const key in value) bytes += 16 + approximateBytes((value as Record<string, unknown>)[key], depth + 1);
  return bytes;
}
