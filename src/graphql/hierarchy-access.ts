import type { ReadSession } from '../application/versioning';
import type { TypeHierarchy } from '../core/type-hierarchy';

/**
 * Answers from the request's type hierarchy: synchronously once it is loaded,
 * so a page of hundreds of type fields does not make a promise for each.
 */
export function fromHierarchy<T>(session: ReadSession, use: (types: TypeHierarchy) => T): T | Promise<T> {
  const loaded = session.loadedHierarchy();
  return loaded ? use(loaded) : session.hierarchy().then(use);
}
