import { BadInputError, ConflictError, type DomainError } from '../core/errors';
import { checkRef } from '../core/grammar';
import type { TypeHierarchy } from '../core/type-hierarchy';
import type { Database } from '../persistence/database';
import { RegistryWriter } from '../persistence/registry-store';
import { asConstraintViolation, type ConstraintViolation } from '../persistence/sql-errors';
import type { HierarchyCache } from './hierarchy-cache';
import type { Loaders } from './loaders';
import type { RegistryClock } from './registry-clock';

/** What a change sees: the writer, and the type hierarchy as committed before it. */
export interface ChangeScope {
  readonly writer: RegistryWriter;
  hierarchy(): Promise<TypeHierarchy>;
}

/** Runs registry changes as transactions, bumping the registry version and mapping constraint violations. */
export class RegistryWrites {
  constructor(
    private readonly db: Database,
    private readonly caches: { hierarchy: HierarchyCache },
    private readonly clock: RegistryClock,
  ) {}

  /**
   * Runs `work` in one write transaction. A constraint violation becomes the
   * domain error `onViolation` gives (CONFLICT by default). Afterwards the
   * request's loaders are cleared, so the rest of the request reads the change.
   */
  async change<T>(
    loaders: Loaders,
    work: (scope: ChangeScope) => Promise<T>,
    onViolation?: (violation: ConstraintViolation) => DomainError,
  ): Promise<T> {
    try {
      const { result, after } = await this.db.write(async (tx) => {
        const writer = new RegistryWriter(tx);
        const before = await writer.beginChange();
        let hierarchy: Promise<TypeHierarchy> | null = null;
        const result = await work({
          writer,
          hierarchy: () =>
            (hierarchy ??= this.caches.hierarchy.get(before.typesVersion, () => writer.reader.allTypes())),
        });
        return { result, after: writer.committedState() };
      });
      this.clock.committed(after);
      return result;
    } catch (error) {
      const violation = asConstraintViolation(error);
      if (violation)
        throw (
          onViolation?.(violation) ??
          new ConflictError('the change conflicts with the current registry; re-read and try again')
        );
      throw error;
    } finally {
      loaders.clearAll();
    }
  }
}

/** Refuses a malformed ref argument (empty, too long, control characters) before any lookup. */
export function requireWellFormedRef(field: string, ref: string): void {
  const problem = checkRef(ref);
  if (problem) throw new BadInputError([{ field, message: `${field} ${problem}` }]);
}
