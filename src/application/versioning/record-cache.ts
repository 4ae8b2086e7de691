/**
 * Registry records (tools, slots, projects, links, resources) kept in process
 * memory for the current registry version only. Every write bumps the version
 * in the database, and every request reads it once, so an entry is never used
 * after any instance has changed the registry: on a new version the cache
 * starts empty. Misses are cached too (as null). Each kind holds at most
 * `maxEntries`; beyond that the oldest entries go first.
 */
export class RecordCache {
  private version = -1;
  private readonly kinds = new Map<string, Map<string, unknown>>();

  constructor(private readonly maxEntries = 50_000) {}

  /** The cached values of `keys` at `version` (undefined where not cached). */
  lookup<V>(version: number, kind: string, keys: readonly string[]): (V | null | undefined)[] {
    if (version !== this.version) {
      this.moveTo(version);
      return keys.map(() => undefined);
    }
    const map = this.kinds.get(kind);
    return keys.map((key) => map?.get(key) as V | null | undefined);
  }

  /** Stores values read at `version`; ignored when the cache has already moved to a newer version. */
  store<V>(version: number, kind: string, entries: Iterable<readonly [string, V | null]>): void {
    if (version < this.version) return;
    if (version > this.version) this.moveTo(version);
    let map = this.kinds.get(kind);
    if (!map) this.kinds.set(kind, (map = new Map<string, unknown>()));
    for (const [key, value] of entries) {
      if (map.size >= this.maxEntries && !map.has(key)) map.delete(map.keys().next().value as string);
      map.set(key, value);
    }
  }

  private moveTo(version: number): void {
    if (version < this.version) return;
    this.version = version;
    this.kinds.clear();
  }
}
