import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureGraphiqlBuilt } from '../../scripts/build-graphiql';
import { defaultGraphiqlDir, GRAPHIQL_MANIFEST } from '../../src/http/graphiql';

const ROOT = join(__dirname, '..', '..');

/** `npm start` builds first: a second start must not rebuild what has not changed (it took 20-35 s). */
describe('the build is incremental', function () {
  this.timeout(60_000);

  it('leaves a current GraphiQL bundle alone: npm run build:graphiql says so and writes nothing', async () => {
    await ensureGraphiqlBuilt();
    const manifest = join(defaultGraphiqlDir(), GRAPHIQL_MANIFEST);
    const before = statSync(manifest).mtimeMs;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['-r', '@swc-node/register', 'scripts/build-graphiql.ts'],
      { cwd: ROOT },
    );
    expect(stdout).to.match(/is up to date/);
    expect(statSync(manifest).mtimeMs).to.equal(before);
  });

  it('compiles TypeScript in build mode, with its build info under dist/', () => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.build).to.match(/^tsc -b tsconfig\.build\.json && npm run build:graphiql$/);
    const options = (
      JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')) as {
        compilerOptions: Record<string, unknown>;
      }
    ).compilerOptions;
    expect(options).to.deep.include({ incremental: true });
    expect(options.tsBuildInfoFile).to.match(/^dist\//);
  });
});
