/**
 * Classifies driver errors, so that callers never see driver text:
 * constraint violations become ConstraintViolation, transient PostgreSQL
 * conflicts are recognised for retry.
 */
import { TABLES } from './tables';

/** A database constraint refused a write. `constraint` is our constraint name when it can be told. */
export class ConstraintViolation extends Error {
  constructor(
    readonly kind: 'unique' | 'foreign_key' | 'check' | 'not_null',
    readonly constraint: string | null,
  ) {
    super(`${kind} constraint violated${constraint ? `: ${constraint}` : ''}`);
  }
}

/**
 * SQLite names the columns of a failed UNIQUE/PRIMARY KEY constraint
 * ("resource.name"), not the constraint; this maps them back to our names.
 */
const SQLITE_UNIQUE_COLUMNS = new Map<string, string>(
  TABLES.flatMap((table) =>
    Object.entries(table.uniques).map(
      ([constraint, columns]) => [columns.map((column) => `${table.name}.${column}`).join(', '), constraint] as const,
    ),
  ),
);

interface DriverErrorLike {
  code?: string;
  constraint?: string;
  message?: string;
}

function driverErrorOf(error: unknown): DriverErrorLike | null {
  if (!error || typeof error !== 'object') return null;
  const wrapped = (error as { driverError?: unknown }).driverError;
  const driver: object = wrapped && typeof wrapped === 'object' ? wrapped : error;
  return driver;
}

/** The constraint violation behind a driver error, or null when it is something else. */
export function asConstraintViolation(error: unknown): ConstraintViolation | null {
  if (error instanceof ConstraintViolation) return error;
  const driver = driverErrorOf(error);
  if (!driver?.code) return null;
  switch (driver.code) {
    // PostgreSQL SQLSTATEs.
    case '23505':
      return new ConstraintViolation('unique', driver.constraint ?? null);
    case '23503':
      return new ConstraintViolation('foreign_key', driver.constraint ?? null);
    case '23514':
      return new ConstraintViolation('check', driver.constraint ?? null);
    case '23502':
      return new ConstraintViolation('not_null', null);
    // SQLite extended result codes.
    case 'SQLITE_CONSTRAINT_UNIQUE':
    case 'SQLITE_CONSTRAINT_PRIMARYKEY': {
      const columns = /constraint failed: (.*)$/.exec(driver.message ?? '')?.[1]?.trim() ?? '';
      return new ConstraintViolation('unique', SQLITE_UNIQUE_COLUMNS.get(columns) ?? null);
    }
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
      return new ConstraintViolation('foreign_key', null);
    case 'SQLITE_CONSTRAINT_CHECK':
      return new ConstraintViolation('check', null);
    case 'SQLITE_CONSTRAINT_NOTNULL':
      return new ConstraintViolation('not_null', null);
    default:
      return null;
  }
}

/** True for PostgreSQL serialization failures and deadlocks, which succeed when retried. */
export function isTransientConflict(error: unknown): boolean {
  const code = driverErrorOf(error)?.code;
  return code === '40001' || code === '40P01';
}
