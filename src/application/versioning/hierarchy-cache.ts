import type { TypeNode } from '../../core/model';
import { TypeHierarchy } from '../../core/type-hierarchy';

/**
 * The type hierarchy, kept in process memory and tagged with the registry's
 * `types_version`. Every write that changes types bumps that counter, and the
 * registry clock tells each request the counter's current value (from memory
 * on SQLite, from the database on PostgreSQL), so this copy is rebuilt once
 * types change, including through another server instance.
 */
export class HierarchyCache {
  private current: { typesVersion: number; hierarchy: TypeHierarchy } | null = null;
  private loading: { typesVersion: number; promise: Promise<TypeHierarchy> } | null = null;

  /** The hierarchy at `typesVersion` or newer if this copy is one, else undefined (nothing is loaded). */
  peek(typesVersion: number): TypeHierarchy | undefined {
    return this.current && this.current.typesVersion >= typesVersion ? this.current.hierarchy : undefined;
  }

  /** The hierarchy at `typesVersion` or newer; loads it with `load` when this copy is older. */
  get(typesVersion: number, load: () => Promise<TypeNode[]>): Promise<TypeHierarchy> {
    if (this.current && this.current.typesVersion >= typesVersion) return Promise.resolve(this.current.hierarchy);
    if (this.loading && this.loading.typesVersion >= typesVersion) return this.loading.promise;
    const promise = load().then((types) => {
      const hierarchy = new TypeHierarchy(types);
      if (!this.current || this.current.typesVersion < typesVersion) this.current = { typesVersion, hierarchy };
      return hierarchy;
    });
    const attempt = { typesVersion, promise };
    this.loading = attempt;
    const clear = () => {
      if (this.loading === attempt) this.loading = null;
    };
    promise.then(clear, clear);
    return promise;
  }
}
