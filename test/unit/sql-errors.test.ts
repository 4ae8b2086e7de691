import { expect } from 'chai';
import { asConstraintViolation, isDatabaseUnavailable } from '../../src/persistence/sql-errors';

/** An error shaped like a driver's: a message and a code. */
const driverError = (code: string | undefined, message = 'x') => Object.assign(new Error(message), { code });

describe('sql-errors: what a driver error means', () => {
  it('tells an unavailable database (down, unreachable, busy, read-only) from a bug', () => {
    const unavailable = [
      driverError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      driverError('ECONNRESET'),
      driverError('ETIMEDOUT'),
      driverError('57P01', 'terminating connection due to administrator command'),
      driverError('57P03', 'the database system is starting up'),
      driverError('08006'),
      driverError('53300', 'sorry, too many clients already'),
      driverError('3D000', 'database "x" does not exist'),
      driverError('25006', 'cannot execute UPDATE in a read-only transaction'),
      driverError(undefined, 'Connection terminated unexpectedly'),
      driverError(undefined, 'timeout exceeded when trying to connect'),
      driverError('SQLITE_BUSY', 'database is locked'),
      driverError('SQLITE_BUSY_SNAPSHOT'),
      driverError('SQLITE_READONLY', 'attempt to write a readonly database'),
      driverError('SQLITE_IOERR_WRITE'),
      driverError('SQLITE_FULL'),
      // TypeORM's QueryFailedError keeps the driver's error.
      Object.assign(new Error('QueryFailedError'), { driverError: driverError('57P01') }),
    ];
    for (const error of unavailable) expect(isDatabaseUnavailable(error), String(error.message)).to.equal(true);
    const bugs = [
      driverError('42601', 'syntax error at or near "SELEC"'),
      driverError('42P01', 'relation "nope" does not exist'),
      driverError('23505', 'duplicate key value violates unique constraint'),
      driverError('SQLITE_ERROR', 'no such column: nope'),
      driverError('SQLITE_CONSTRAINT_UNIQUE'),
      new Error('the database connection is closed'),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      null,
      'a string',
    ];
    for (const error of bugs) expect(isDatabaseUnavailable(error), String(error)).to.equal(false);
  });

  it('finds constraint violations, and nothing else', () => {
    expect(asConstraintViolation(driverError('23505'))?.kind).to.equal('unique');
    expect(asConstraintViolation(driverError('SQLITE_CONSTRAINT_FOREIGNKEY'))?.kind).to.equal('foreign_key');
    expect(asConstraintViolation(driverError('57P01'))).to.equal(null);
    expect(asConstraintViolation(Object.assign(new Error('x'), { code: 42 }))).to.equal(null);
  });
});
