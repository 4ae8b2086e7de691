import type { DataSource, EntitySubscriberInterface } from 'typeorm';

/**
 * Sees each SQL statement, for tracing (src/observability/tracing.ts). There
 * is none when tracing is off, and then nothing here runs.
 */
export interface StatementTracer {
  /** Runs one statement in a span of its own: its text, never its parameters. */
  statement<T>(sql: string, run: () => T): T;
  /** A statement TypeORM ran (a write, a migration), seen once it finished after `ms` milliseconds. */
  statementRan(sql: string, ms: number | undefined, failed: boolean): void;
}

/** Hands every statement TypeORM runs on `dataSource` to `tracer`, through TypeORM's query events. */
export function traceTypeormStatements(dataSource: DataSource, tracer: StatementTracer): void {
  const subscriber: EntitySubscriberInterface = {
    afterQuery(event) {
      tracer.statementRan(event.query, event.executionTime, !event.success);
    },
  };
  dataSource.subscribers.push(subscriber);
}
