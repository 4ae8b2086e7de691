import type { DependencyKey } from './dependencies';

/**
 * Dependency keys worked out only when asked for: an answer a loader's batch
 * gave (see ./loader-registry.ts), whose keys are needed only when the
 * request's answer is kept, or a part's or a fork's dependencies are taken.
 */
export interface DeferredDependencies {
  readonly dependencies: readonly DependencyKey[];
}

/**
 * What one session's reads depend on (./dependencies.ts): each read records
 * its keys here as it happens, and `dependencies()` joins them when asked.
 * Lists and deferred keys are kept as they come, not copied in, since most
 * requests' dependencies are never asked for.
 */
export class DependencyRecorder {
  private readonly keys = new Set<DependencyKey>();
  private readonly sources: (readonly DependencyKey[] | DeferredDependencies)[] = [];

  /** Records that the answer depends on `key`. */
  recordDependency(key: DependencyKey): void {
    this.keys.add(key);
  }

  /** Records that the answer depends on every key of `source` too (a kept part's, a fork's, a loaded answer's). */
  recordDependencies(source: readonly DependencyKey[] | DeferredDependencies): void {
    this.sources.push(source);
  }

  /** Every key recorded, once each. */
  dependencies(): readonly DependencyKey[] {
    if (this.sources.length === 0) return [...this.keys];
    const all = new Set(this.keys);
    for (const source of this.sources) for (const key of isKeyList(source) ? source : source.dependencies) all.add(key);
    return [...all];
  }

  /** Forgets every key recorded (after a write, the request reads again). */
  clear(): void {
    this.keys.clear();
    this.sources.length = 0;
  }
}

function isKeyList(source: readonly DependencyKey[] | DeferredDependencies): source is readonly DependencyKey[] {
  return Array.isArray(source);
}
