// Root hooks: run once around the whole suite (loaded from .mocharc.yml).
import { cleanUpBackends } from './support/backends';
import { closeAllServers } from './support/server';

export const mochaHooks = {
  async afterAll() {
    await closeAllServers();
    await cleanUpBackends();
  },
};
