// Root hooks: run once around the whole suite (loaded from .mocharc.yml).
import { cleanUpBackends, POSTGRES_ADMIN_URL, postgresAvailable } from './support/backends';
import { stopAllProcesses } from './support/process-server';
import { closeAllServers } from './support/server';

export const mochaHooks = {
  async afterAll() {
    await stopAllProcesses();
    await closeAllServers();
    if (!(await postgresAvailable())) {
      console.log(
        `\n  NOTE: the PostgreSQL half of the suite was SKIPPED: no PostgreSQL answered at ${POSTGRES_ADMIN_URL}.\n  Set TEST_POSTGRES_URL, or start PostgreSQL on 127.0.0.1:5432 (REQUIRE_POSTGRES=1 makes this a failure).\n`,
      );
    }
    await cleanUpBackends();
  },
};
