import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

type Version = [number, number, number];

/** Whether `version` satisfies one npm range of the forms engines fields use: `>=a.b`, `^a.b.c`, `a.x`, `a`, `*`, joined by spaces and `||`. */
function satisfies(version: Version, range: string): boolean {
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|\^)\s+/g, '$1')
      .split(/\s+/)
      .every((comparator) => comparatorHolds(version, comparator)),
  );
}

function comparatorHolds(version: Version, comparator: string): boolean {
  const match = /^(>=|\^)?(\d+|[x*])(?:\.(\d+|[x*]))?(?:\.(\d+|[x*]))?$/.exec(comparator);
  if (comparator === '*' || comparator === '') return true;
  if (!match) throw new Error(`cannot read the engines range part "${comparator}"`);
  const [, operator, ...parts] = match;
  const bound = parts.map((p) => (p === undefined || p === 'x' || p === '*' ? null : Number(p)));
  const compare = (): number => {
    for (let i = 0; i < 3; i++) {
      if (bound[i] === null) return 0;
      if (version[i] !== bound[i]) return version[i] - bound[i]!;
    }
    return 0;
  };
  if (operator === '>=') return compare() >= 0;
  if (operator === '^') return version[0] === bound[0] && compare() >= 0;
  return bound.every((b, i) => b === null || b === version[i]);
}

describe('engines: npm ci is clean on the oldest Node the server supports', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  const oldest = /^>=(\d+)\.(\d+)$/.exec(pkg.engines.node)!.slice(1).map(Number) as [number, number];
  const version: Version = [oldest[0], oldest[1], 0];

  it('reads the ranges it meets', () => {
    expect(satisfies([20, 19, 0], '>=20')).to.equal(true);
    expect(satisfies([20, 19, 0], '>= 0.8')).to.equal(true);
    expect(satisfies([20, 19, 0], '^20.19.0 || ^22.12.0 || >=23')).to.equal(true);
    expect(satisfies([20, 19, 0], '20.x || 22.x')).to.equal(true);
    expect(satisfies([20, 19, 0], '>=22')).to.equal(false);
    expect(satisfies([20, 19, 0], '^20.20.0 || >=22')).to.equal(false);
    expect(satisfies([20, 19, 0], '>= 20.11.1')).to.equal(true);
  });

  it(`every package npm ci installs, development tools included, accepts Node ${version.join('.')} (no EBADENGINE)`, () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; dev?: boolean; engines?: { node?: string } }>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([path, info]) => path !== '' && info.engines?.node)
      .filter(([, info]) => !satisfies(version, info.engines!.node!))
      .map(
        ([path, info]) => `${path.replace(/^.*node_modules\//, '')}@${info.version} wants node ${info.engines!.node}`,
      );
    expect(refusing).to.deep.equal([]);
  });
});
