import { expect } from 'chai';
import { execFile } from 'node:child_process';
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

  it('the source tree breaks none of the rules: pure core, layers inward only, reads only through a session, no cycles', async () => {
    const result = await cruise(ROOT, ['src', 'ormconfig.ts']);
    expect(result.summary.violations).to.deep.equal([]);
    // The YAML file module maps to plain objects with its own parser and schema checker.
    const registryFiles = result.modules.filter((m) => m.source.startsWith('src/registry-files/'));
    const used = new Set(registryFiles.flatMap((m) => m.dependencies.map((d) => d.resolved)));
    expect([...used].some((d) => d.includes('node_modules/yaml/'))).to.equal(true);
    expect([...used].some((d) => d.includes('node_modules/ajv/'))).to.equal(true);
    expect(used.has('src/core/grammar.ts')).to.equal(true);
  });

  it('catches each kind of violation (a fixture tree breaks every rule once)', async () => {
    const result = await cruise(FIXTURE, ['src']);
    const found = result.summary.violations.map(
      (v) => `${v.rule.name}: ${v.from} → ${v.to.replace(/^.*node_modules\//, 'node_modules/')}`,
    );
    expect(found.sort()).to.deep.equal(
      [
        'application-knows-no-transport: src/application/use-case.ts → src/graphql/context.ts',
        'core-is-pure: src/core/impure.ts → node_modules/graphql/index.js',
        'core-is-pure: src/core/impure.ts → src/persistence/registry-reader.ts',
        'no-circular: src/graphql/context.ts → src/http/server.ts',
        'persistence-serves-upwards-only: src/persistence/upwards.ts → src/application/use-case.ts',
        'registry-reads-only-through-a-session: src/application/use-case.ts → src/persistence/registry-reader.ts',
        'registry-reads-only-through-a-session: src/core/impure.ts → src/persistence/registry-reader.ts',
      ].sort(),
    );
  });
});
