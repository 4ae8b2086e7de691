import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureDashboardBuilt } from '../../scripts/build-dashboard';
import { ensureGraphiqlBuilt } from '../../scripts/build-graphiql';
import { defaultDashboardDir } from '../../src/http/dashboard';
import { defaultGraphiqlDir } from '../../src/http/graphiql';
import { BUNDLE_MANIFEST } from '../../src/http/web-bundle';

const ROOT = join(__dirname, '..', '..');

/** `npm start` builds first: a second start must not rebuild what has not changed (it took 20-35 s). */
describe('the build is incremental', function () {
  this.timeout(60_000);

  for (const bundle of [
    { name: 'GraphiQL', script: 'scripts/build-graphiql.ts', ensure: ensureGraphiqlBuilt, dir: defaultGraphiqlDir },
    { name: 'dashboard', script: 'scripts/build-dashboard.ts', ensure: ensureDashboardBuilt, dir: defaultDashboardDir },
  ]) {
    it(`leaves a current ${bundle.name} bundle alone: its build script says so and writes nothing`, async () => {
      await bundle.ensure();
      const manifest = join(bundle.dir(), BUNDLE_MANIFEST);
      const before = statSync(manifest).mtimeMs;
      const { stdout } = await promisify(execFile)(process.execPath, ['-r', '@swc-node/register', bundle.script], {
        cwd: ROOT,
      });
      expect(stdout).to.match(/is up to date/);
      expect(statSync(manifest).mtimeMs).to.equal(before);
    });
  }

  it('prunes stale outputs, then compiles TypeScript in build mode, with its build info under dist/', () => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.build).to.match(
      /^npm run -s build:prune && tsc -b tsconfig\.build\.json && npm run build:graphiql && npm run build:dashboard && npm run build:info$/,
    );
    const options = (
      JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')) as {
        compilerOptions: Record<string, unknown>;
      }
    ).compilerOptions;
    expect(options).to.deep.include({ incremental: true });
    expect(options.tsBuildInfoFile).to.match(/^dist\//);
  });
});
