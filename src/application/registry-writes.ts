import { BadInputError, ConflictError, type DomainError } from '../core/errors';
import { checkRef } from '../core/grammar';
import { asConstraintViolation, type ConstraintViolation } from '../persistence/sql-errors';
import type { ReadSession, RegistryVersioning, WriteScope } from './versioning';

export type { WriteScope } from './versioning';

/** Reads inside a write transaction: they see the write's own changes. */
export type WriteReader = WriteScope['writer']['reader'];

/** Runs the registry's changes: one transaction each, through versioning, with constraint violations mapped. */
export class RegistryWrites {
  constructor(private readonly versioning: RegistryVersioning) {}

  /**
   * Runs `work` in one write transaction. A constraint violation becomes the
   * domain error `onViolation` gives (CONFLICT by default). Afterwards the
   * request's session is reset, so the rest of the request reads the change.
   */
  async change<T>(
    session: ReadSession,
    work: (scope: WriteScope) => Promise<T>,
    onViolation?: (violation: ConstraintViolation) => DomainError,
  ): Promise<T> {
    try {
      return (await this.versioning.write(work)).result;
    } catch (error) {
      const violation = asConstraintViolation(error);
      if (violation) {
        throw (
          onViolation?.(violation) ??
          new ConflictError('the change conflicts with the current registry; re-read and try again')
        );
      }
      throw error;
    } finally {
      session.reset();
    }
  }
}

/** Refuses a malformed ref argument (empty, too long, control characters) before any lookup. */
export function requireWellFormedRef(field: string, ref: string): void {
  const problem = checkRef(ref);
  if (problem) throw new BadInputError([{ field, message: `${field} ${problem}` }]);
}
