import type { Loaders } from '../application/loaders';
import type { TypeHierarchy } from '../core/type-hierarchy';

/**
 * Answers from the request's type hierarchy: synchronously once it is loaded,
 * so a page of hundreds of type fields does not make a promise for each.
 */
export function fromHierarchy<T>(loaders: Loaders, use: (types: TypeHierarchy) => T): T | Promise<T> {
  const loaded = loaders.loadedHierarchy();
  return loaded ? use(loaded) : loaders.hierarchy().then(use);
}
