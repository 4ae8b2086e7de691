/**
 * The benchmark's server: the production server (src/main.ts's `serve`, with
 * the configuration from the environment, as `npm start` runs it) plus what
 * only the benchmark needs, given here rather than by the server's own
 * configuration:
 *
 * - always, GET /debug/sql-stats: the SQL statement count, live subscribers,
 *   execution counts, memory and cache sizes, which the benchmark reads;
 * - with `--free-reads`, repeated reads answered from memory (./free-reads.ts):
 *   data access costs nothing, and answers never see later writes, so the
 *   benchmark sends such a server read-only loads only.
 *
 * Built with the server (tsconfig.build.json), and started by
 * ./processes.ts's startRegistryServer in place of `dist/src/cli.js serve`.
 */
import { serve, type RunningParts } from '../../src/main';
import { memoizedReads } from './free-reads';

const freeReads = process.argv.includes('--free-reads');
if (freeReads) console.error('bench server: --free-reads: repeated reads come from memory and never see writes');

void serve({
  wrapReads: freeReads ? memoizedReads : undefined,
  debugRoutes: statsRoutes,
});

/** GET /debug/sql-stats. */
function statsRoutes({ db, services, execution, versioning }: RunningParts): Record<string, () => unknown> {
  return {
    '/debug/sql-stats': () => {
      // The kept caches (the answer parts) beside the records and names, as the route has always shown them.
      const { kept, ...usage } = versioning.cacheUsage();
      return {
        statements: db.counter.count,
        subscribers: services.feed.size,
        execution: execution.stats,
        memory: process.memoryUsage(),
        caches: { ...usage, ...kept, compiled: execution.cacheUsage },
      };
    },
  };
}
