import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger, QueryRunner } from 'typeorm';
import { asConstraintViolation } from './sql-errors';

/** Receives log events the persistence layer cannot handle itself. */
export interface PersistenceLog {
  debug(details: Record<string, unknown>, message: string): void;
  warn(message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

/**
 * A TypeORM logger that counts every SQL statement sent to the database. The
 * tests assert statement counts through it, and the benchmark reads it through
 * its own server entry (scripts/bench/server-main.ts). Optionally it keeps the statements themselves.
 */
export class StatementCounter implements Logger {
  count = 0;
  private recording: string[] | null = null;
  private readonly uncountedScope = new AsyncLocalStorage<true>();

  constructor(private readonly sink?: PersistenceLog) {}

  /**
   * Runs `work` without counting (or recording) the statements it sends: for
   * checks the tests run beside a request (the compiled-execution check), so
   * the statement counts the tests assert stay those of the requests.
   */
  uncounted<T>(work: () => Promise<T>): Promise<T> {
    return this.uncountedScope.run(true, work);
  }

  /** Starts keeping the text of each statement until `stopRecording`. */
  startRecording(): void {
    this.recording = [];
  }

  /** Returns the statements kept since `startRecording`. */
  stopRecording(): string[] {
    const recorded = this.recording ?? [];
    this.recording = null;
    return recorded;
  }

  logQuery(query: string, _parameters?: unknown[], _queryRunner?: QueryRunner): void {
    if (this.uncountedScope.getStore()) return;
    this.count += 1;
    this.recording?.push(query);
  }

  /**
   * Logs the statement, never its parameters (they may hold user text). A
   * constraint violation is the client's mistake, not the server's: every
   * write maps it to a domain error (CONFLICT), so it is logged at debug;
   * anything else at error.
   */
  logQueryError(error: string | Error, query: string, _parameters?: unknown[], _queryRunner?: QueryRunner): void {
    const details = { err: typeof error === 'string' ? error : error.message, statement: query.slice(0, 200) };
    if (asConstraintViolation(error)) this.sink?.debug(details, 'SQL statement failed');
    else this.sink?.error(details, 'SQL statement failed');
  }

  logQuerySlow(time: number, query: string): void {
    this.sink?.warn(`slow SQL statement (${time} ms): ${query.slice(0, 200)}`);
  }

  logSchemaBuild(): void {}

  logMigration(): void {}

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.sink?.warn(String(message));
  }
}
