/**
 * Classifies driver errors, so that callers never see driver text:
 * constraint violations become ConstraintViolation, transient PostgreSQL
 * conflicts are recognised for retry, and a database that cannot serve right
 * now (down, unreachable, busy, read-only) is told apart from a bug.
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
  code?: string | number;
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
  if (typeof driver?.code !== 'string') return null;
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

/** Socket errors of a connection that could not be made or was lost. */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs of a server that cannot serve now: connection
 * exceptions (class 08), shutting down or starting up (57P01–57P03),
 * insufficient resources (class 53: too many connections, disk full, out of
 * memory), the database gone (3D000), a read-only transaction (25006: a
 * standby, or default_transaction_read_only).
 */
const POSTGRES_UNAVAILABLE = /^(08...|57P0[123]|53...|3D000|25006)$/;

/**
 * SQLite result codes of a database that cannot serve now: busy or locked
 * past the busy timeout, I/O errors, a full disk, a file that cannot be
 * opened, a read-only file (extended codes included, e.g. SQLITE_BUSY_SNAPSHOT).
 */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|PROTOCOL)(_|$)/;

/** node-postgres' errors for a lost or timed-out connection carry no code, only these messages. */
const PG_CONNECTION_LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * True when the database cannot serve right now, whatever the query: it is
 * down, unreachable, shutting down, out of connections or disk, busy past
 * the timeout, or read-only. Such a failure is the server's, is worth
 * retrying later, and says nothing about the request (SERVICE_UNAVAILABLE).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const driver = driverErrorOf(error);
  if (!driver) return false;
  const code = driver.code;
  if (typeof code === 'string') {
    if (CONNECTION_ERROR_CODES.has(code) || SQLITE_UNAVAILABLE.test(code)) return true;
    if (POSTGRES_UNAVAILABLE.test(code)) return true;
  }
  return typeof driver.message === 'string' && PG_CONNECTION_LOST.test(driver.message);
}
