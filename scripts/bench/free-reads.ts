import type { ReadConnection } from '../../src/persistence/read-connection';

/** How many distinct (statement, parameters) answers memoizedReads keeps before it starts over. */
const FREE_READS_MAX_ENTRIES = 100_000;

/**
 * The benchmark's "free data" server (`--free-reads`, see ./server-main.ts):
 * the read path's query function memoized by (SQL text, parameters), so that
 * a repeated read costs no database time and the benchmark can measure the
 * same requests "on free data", the upper bound of what faster data access
 * could give. Answers are never invalidated: writes through the writer's
 * connection are not seen by later reads. That is why the benchmark sends
 * only read-only loads to a server started with it. A first read still goes
 * to the database (and is counted); a repeated one is not, so it counts no
 * statement either.
 */
export function memoizedReads(reads: ReadConnection): ReadConnection {
  const answers = new Map<string, readonly unknown[]>();
  return {
    query: async <Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> => {
      const key = `${sql}\u0000${JSON.stringify(params)}`;
      const known = answers.get(key);
      // A copy of the list, so that a caller that sorts or splices it does not change the memo.
      if (known) return known.slice() as Row[];
      const rows = await reads.query<Row>(sql, params);
      if (answers.size >= FREE_READS_MAX_ENTRIES) answers.clear();
      answers.set(key, rows.slice());
      return rows;
    },
    close: () => reads.close(),
    pool: reads.pool && (() => reads.pool!()),
  };
}
