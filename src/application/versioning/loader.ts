import type DataLoader from 'dataloader';
import type { PromiseOrValue } from '../../jsutils/promise-or-value';

/**
 * A loader as a session hands it out: one key or many, batched with the
 * other loads of the request; `peek` gives the answer at once when it is
 * known without reading (loaded by this request already, or in the record
 * cache and right at the pinned version), else undefined.
 */
export interface Loader<K, V> extends Pick<DataLoader<K, V>, 'load' | 'loadMany'> {
  peek(key: K): V | undefined;
}

/** A load that answers at once when the loader knows the answer (see Loader.peek), else the promise of it. */
export function loadNow<V>(loader: Loader<string, V>, key: string): PromiseOrValue<V> {
  const known = loader.peek(key);
  return known !== undefined ? known : loader.load(key);
}

/** loadMany the same way: every answer at once when each is known, else the promise of them all. */
export function loadManyNow<V>(loader: Loader<string, V>, keys: readonly string[]): V[] | Promise<(V | Error)[]> {
  const known: V[] = [];
  for (const key of keys) {
    const value = loader.peek(key);
    if (value === undefined) return loader.loadMany(keys);
    known.push(value);
  }
  return known;
}

/** A DataLoader.loadMany entry: the value, or null for a miss; a failed load is rethrown, never read as a miss. */
export function loaded<T>(entry: T | null | Error): T | null {
  if (entry instanceof Error) throw entry;
  return entry;
}
