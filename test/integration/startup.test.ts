import { expect } from 'chai';
import { runToExit } from '../support/process-server';

describe('start-up failures (real process)', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    [
      'an unreachable database',
      { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nope' },
      /^registry: cannot start: the database refused the connection/,
    ],
    [
      'a malformed DATABASE_URL',
      { DATABASE_URL: 'postgres://bad host:x/y' },
      /^registry: DATABASE_URL is not a valid postgres:\/\/ URL$/,
    ],
    [
      'an unsupported scheme',
      { DATABASE_URL: 'mysql://x' },
      /^registry: DATABASE_URL must start with sqlite: or postgres:\/\//,
    ],
    [
      'production without ADMIN_TOKEN',
      { NODE_ENV: 'production', DATABASE_URL: 'sqlite::memory:' },
      /^registry: ADMIN_TOKEN is required when NODE_ENV=production/,
    ],
  ];
  for (const [what, env, pattern] of cases) {
    it(`exits 1 with one clear line for ${what}, no stack`, async () => {
      const { code, stdout, stderr } = await runToExit(env);
      expect(code).to.equal(1);
      const lines = stderr.trim().split('\n');
      expect(lines, stderr).to.have.length(1);
      expect(lines[0]).to.match(pattern);
      expect(stderr + stdout).to.not.match(/\n\s+at /);
    });
  }
});
