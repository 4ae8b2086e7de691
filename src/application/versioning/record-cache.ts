import { LRUCache } from 'lru-cache';

/** What an entry costs beyond its value: the key's string, the entry object, the LRU's bookkeeping. */
const ENTRY_OVERHEAD_BYTES = 128;

/**
 * The default budget. The benchmark's 5,000 resolve pairs at the default size
 * (50,000 resources) fill 38 MB of it, so they are all answered from memory;
 * loads over the whole registry fill any budget, and each MB of it costs the
 * process about 1.5 MB of resident memory, since V8 keeps its heap at 1.5-1.8
 * times the live data (it was 64 MB: the benchmark's RSS max went from 308 to
 * 295-300 MB, with the same statements per request).
 */
export const RECORD_CACHE_BYTES = 48 * 1024 * 1024;

/** One cached record (null: a miss), and the registry version it is known to be right at. */
export interface CachedEntry<V = unknown> {
  readonly value: V | null;
  version: number;
}

/**
 * Whether a value cached at `since` is still right at the version looked up
 * (no write in between touched what it depends on: see ../versioning's
 * ChangeIndex). Called only for entries older than the lookup's version.
 */
export type StillRight<V> = (key: string, value: V | null, since: number) => boolean;

/**
 * Registry records (tools, slots, projects, links, resources) kept in process
 * memory across registry versions. Each entry carries the version it is known
 * to be right at. A lookup at that version answers it; a lookup at a later
 * version asks `stillRight` (no write since touched what the record depends
 * on: the change index, which knows this process's writes as they commit and
 * other instances' from the change log) and then answers it at the new
 * version, or drops it; a lookup at an older version than the entry's does
 * not use it. So a write (20 a second in the benchmark) costs the records it
 * touched, not the whole cache. Misses are cached too (as null). All kinds
 * share one budget of bytes (each entry weighs its key and an estimate of its
 * value's heap, see `approximateBytes`); beyond it the least recently used
 * entries go first (lru-cache).
 */
export class RecordCache {
  /**
   * Each entry's slot, by kind and then key. The LRU is keyed by the slot
   * object, so a lookup hashes the kind and the key as they come (a record's
   * own id string keeps its hash) instead of a key joined from them, which
   * would be a new string to flatten and hash on every lookup (about 1-2 µs
   * each, against 0.2: a 50-tool page makes 50 of them).
   */
  private readonly slots = new Map<string, Map<string, Slot>>();
  private readonly entries: LRUCache<Slot, CachedEntry>;
  /** Lookups answered, lookups not (or not at their version), and entries evicted to stay within the budget. */
  readonly counts = { hits: 0, misses: 0, evictions: 0 };

  constructor(maxBytes = RECORD_CACHE_BYTES) {
    this.entries = new LRUCache<Slot, CachedEntry>({
      maxSize: maxBytes,
      maxEntrySize: maxBytes / 8,
      sizeCalculation: (entry, slot) => 2 * slot.key.length + ENTRY_OVERHEAD_BYTES + approximateBytes(entry.value),
      // An entry evicted or deleted takes its slot with it (a value replaced keeps it).
      dispose: (_entry, slot, reason) => {
        if (reason !== 'set') this.forget(slot);
        if (reason === 'evict') this.counts.evictions += 1;
      },
    });
  }

  /**
   * The cached values of `keys` at `version` (undefined where not cached, or
   * not known to be right at that version).
   */
  lookup<V>(
    version: number,
    kind: string,
    keys: readonly string[],
    stillRight: StillRight<V> = () => false,
  ): (V | null | undefined)[] {
    const ofKind = this.slots.get(kind);
    return keys.map((key) => {
      const slot = ofKind?.get(key);
      if (slot !== undefined) return this.entryAt(version, slot, stillRight)?.value;
      this.counts.misses += 1;
      return undefined;
    });
  }

  /** The entry of one key right at `version` (see `lookup`), else undefined. */
  entryOf<V>(
    version: number,
    kind: string,
    key: string,
    stillRight: StillRight<V> = () => false,
  ): Readonly<CachedEntry<V>> | undefined {
    const slot = this.slots.get(kind)?.get(key);
    if (slot !== undefined) return this.entryAt(version, slot, stillRight);
    this.counts.misses += 1;
    return undefined;
  }

  private entryAt<V>(version: number, slot: Slot, stillRight: StillRight<V>): CachedEntry<V> | undefined {
    const entry = this.entries.get(slot) as CachedEntry<V> | undefined;
    if (!entry || entry.version > version) {
      this.counts.misses += 1;
      return undefined;
    }
    if (entry.version < version) {
      if (!stillRight(slot.key, entry.value, entry.version)) {
        this.entries.delete(slot);
        this.counts.misses += 1;
        return undefined;
      }
      entry.version = version;
    }
    this.counts.hits += 1;
    return entry;
  }

  /** Stores values read at `version`; an entry already known right at a newer version is kept. */
  store<V>(version: number, kind: string, entries: Iterable<readonly [string, V | null]>): void {
    for (const [key, value] of entries) {
      let slot = this.slots.get(kind)?.get(key);
      if (slot) {
        const held = this.entries.peek(slot);
        if (held && held.version > version) continue;
      } else {
        slot = this.newSlot(kind, key);
      }
      this.entries.set(slot, { value, version });
      // A value over maxEntrySize is not kept (and the one it replaced goes, as a 'set' that disposes of nothing).
      if (!this.entries.has(slot)) this.forget(slot);
    }
  }

  /** Forgets every entry (for tests: a request that reads every record from the database). */
  clear(): void {
    this.entries.clear();
    this.slots.clear();
  }

  /** Number of entries, and their total weight in bytes (for tests). */
  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.entries.calculatedSize;
  }

  /** Number of slots indexed (for tests: one per entry). */
  get indexed(): number {
    let count = 0;
    for (const ofKind of this.slots.values()) count += ofKind.size;
    return count;
  }

  private newSlot(kind: string, key: string): Slot {
    let ofKind = this.slots.get(kind);
    if (!ofKind) this.slots.set(kind, (ofKind = new Map<string, Slot>()));
    const slot = { kind, key };
    ofKind.set(key, slot);
    return slot;
  }

  private forget(slot: Slot): void {
    const ofKind = this.slots.get(slot.kind);
    if (ofKind?.get(slot.key) !== slot) return;
    ofKind.delete(slot.key);
    if (ofKind.size === 0) this.slots.delete(slot.kind);
  }
}

/** Where an entry is kept: its kind and its key. */
interface Slot {
  readonly kind: string;
  readonly key: string;
}

/**
 * An estimate of the heap a record takes: strings at two bytes a character
 * plus a header, numbers and booleans at 8, Dates at 48, bytes (a Buffer) at
 * their length plus a header, each object and array
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
  // Bytes (a Buffer) live outside the JavaScript heap, behind a small object.
  if (ArrayBuffer.isView(value)) return 96 + value.byteLength;
  if (Array.isArray(value)) {
    return value.reduce((bytes: number, item) => bytes + 16 + approximateBytes(item, depth + 1), 32);
  }
  let bytes = 32;
  for (const key in value) bytes += 16 + approximateBytes((value as Record<string, unknown>)[key], depth + 1);
  return bytes;
}
