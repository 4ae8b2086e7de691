import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'architecture');

interface Cruise {
  summary: { violations: { rule: { name: string }; from: string; to: string }[] };
  modules: { source: string; dependencies: { resolved: string }[] }[];
}

/** Runs dependency-cruiser with the project's rules (.dependency-cruiser.cjs) in a folder, as `npm run lint` does. */
async function cruise(cwd: string, paths: string[]): Promise<Cruise> {
  const bin = join(ROOT, 'node_modules', '.bin', 'depcruise');
  const { stdout } = await promisify(execFile)(bin, ['--config', CONFIG, '--output-type', 'json', ...paths], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return JSON.parse(stdout) as Cruise;
}

/** The layer boundaries, checked by dependency-cruiser so they cannot erode unnoticed. */
describe('architecture (dependency-cruiser)', function () {
  this.timeout(60_000);

  it('the whole tree breaks none of the rules: pure core, layers inward only, reads only through a session, no cycles', async () => {
    // What `npm run lint` cruises: the server, its scripts, the browser apps, the tests and the examples.
    const lint = /depcruise --config \.dependency-cruiser\.cjs (.+)$/.exec(
      (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { lint: string } }).scripts.lint,
    );
    const paths = lint?.[1].split(' ') ?? [];
    expect(paths).to.include.members(['src', 'scripts', 'web', 'test']);
    const result = await cruise(ROOT, paths);
    expect(result.summary.violations).to.deep.equal([]);
    // The YAML file module maps to plain objects with its own parser and schema checker.
    const registryFiles = result.modules.filter((m) => m.source.startsWith('src/registry-files/'));
    const used = new Set(registryFiles.flatMap((m) => m.dependencies.map((d) => d.resolved)));
    expect([...used].some((d) => d.includes('node_modules/yaml/'))).to.equal(true);
    expect([...used].some((d) => d.includes('node_modules/ajv/'))).to.equal(true);
    expect(used.has('src/core/grammar.ts')).to.equal(true);
  });

  it('catches each kind of violation (a fixture tree breaks every rule once)', async () => {
    const result = await cruise(FIXTURE, ['src', 'scripts', 'web']);
    const found = result.summary.violations.map(
      (v) => `${v.rule.name}: ${v.from} → ${v.to.replace(/^.*node_modules\//, 'node_modules/')}`,
    );
    expect(found.sort()).to.deep.equal(
      [
        'application-knows-no-transport: src/application/use-case.ts → src/graphql/context.ts',
        'browser-apps-stay-in-the-browser: web/app.ts → src/http/server.ts',
        'jsutils-is-a-leaf: src/jsutils/leaky.ts → src/graphql/context.ts',
        'no-circular: scripts/bench/loads.ts → scripts/bench/processes.ts',
        'server-stands-alone: src/http/bench-knob.ts → scripts/bench/loads.ts',
        'core-is-pure: src/core/impure.ts → node_modules/graphql/index.js',
        'core-is-pure: src/core/impure.ts → src/persistence/registry-reader.ts',
        'no-circular: src/graphql/context.ts → src/http/server.ts',
        'schema-knows-no-pipeline: src/graphql/context.ts → src/http/server.ts',
        'engine-knows-no-routes: src/engine/pipeline.ts → src/http/server.ts',
        'persistence-serves-upwards-only: src/persistence/upwards.ts → src/application/use-case.ts',
        'registry-reads-only-through-a-session: src/application/use-case.ts → src/persistence/registry-reader.ts',
        'registry-reads-only-through-a-session: src/core/impure.ts → src/persistence/registry-reader.ts',
      ].sort(),
    );
  });
});
