// Root hooks: run once around the whole suite (loaded from .mocharc.yml).
import { cleanUpBackends, POSTGRES_ADMIN_URL, postgresAvailable } from './support/backends';
import { describeMismatches, executionChecks } from './support/execution-check';
import { stopAllProcesses } from './support/process-server';
import { closeAllServers } from './support/server';

export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    // Dropping every PostgreSQL database of the run takes more than the default 20 s on a loaded machine.
    this.timeout(120_000);
    await stopAllProcesses();
    await closeAllServers();
    if (!(await postgresAvailable())) {
      console.log(
        `\n  NOTE: the PostgreSQL half of the suite was SKIPPED: no PostgreSQL answered at ${POSTGRES_ADMIN_URL}.\n  Set TEST_POSTGRES_URL, or start PostgreSQL on 127.0.0.1:5432 (REQUIRE_POSTGRES=1 makes this a failure).\n`,
      );
    }
    await cleanUpBackends();
    const { compared, skipped, mismatches, divergences } = executionChecks;
    if (compared + skipped > 0) {
      console.log(
        `\n  compiled execution check: ${compared} compiled answers compared with graphql-js, ${skipped} skipped (the registry version moved), ${mismatches.length} different\n`,
      );
    }
    if (divergences.length > 0) {
      throw new Error(
        `${divergences.length} compiled runs failed where graphql-js did not:\n${divergences
          .slice(0, 10)
          .map((d) => `  ${d.operationName ?? '(anonymous)'}: ${d.query}\n    ${d.compiledErrors.join('\n    ')}`)
          .join('\n')}`,
      );
    }
    if (mismatches.length > 0) {
      throw new Error(
        `${mismatches.length} compiled answers differed from graphql-js's:\n${describeMismatches(mismatches)}`,
      );
    }
  },
};
