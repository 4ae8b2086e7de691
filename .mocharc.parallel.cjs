/**
 * `npm test`'s settings: those of .mocharc.yml (what `npx mocha <files>` uses), plus every spec file in parallel
 * workers (see docs/testing.md), the slowest first. A worker takes the next file as it frees up, so a slow file
 * that started last would hold the run up alone; started first, the quick ones fill in beside it. The list is
 * the slowest files of the end-of-run report; a file missing from it only starts later.
 */
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { parse } = require('yaml');

const SLOWEST_FIRST = [
  'test/integration/package.test.ts',
  'test/integration/subscriptions-bounded.test.ts',
  'test/integration/crash-and-shutdown.test.ts',
  'test/integration/dashboard-scale.test.ts',
  'test/integration/register-cli.test.ts',
  'test/integration/response-cache.property.test.ts',
  'test/integration/dashboard-pages.test.ts',
  'test/integration/subscriptions-sse.test.ts',
  'test/integration/impact.property.test.ts',
  'test/integration/bad-input.property.test.ts',
  'test/integration/export-cli.test.ts',
  'test/integration/updates.test.ts',
  'test/integration/statement-counts.test.ts',
  'test/integration/subscriptions.test.ts',
  'test/integration/explain-agrees.test.ts',
];

const specs = readdirSync('test', { recursive: true })
  .map((path) => join('test', path))
  .filter((path) => path.endsWith('.test.ts') && !path.startsWith(join('test', 'fixtures')))
  .sort();
const rank = (path) => {
  const index = SLOWEST_FIRST.indexOf(path);
  return index < 0 ? SLOWEST_FIRST.length : index;
};

module.exports = {
  ...parse(readFileSync(join(__dirname, '.mocharc.yml'), 'utf8')),
  spec: [...specs].sort((a, b) => rank(a) - rank(b)),
  parallel: true,
  jobs: 3,
  // A timeout catches a hang; the files share the machine here, so it is longer than .mocharc.yml's.
  timeout: 60000,
};
