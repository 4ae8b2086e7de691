import type { QueryFn, SqlDialect } from '../sql';

/** What every read statement needs: the query function (read connection or write transaction) and the dialect. */
export interface ReadContext {
  readonly query: QueryFn;
  readonly sql: SqlDialect;
}
