import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENVIRONMENT } from '../../src/config';
import { bootstrap } from '../../src/main';
import { buildInfo } from '../../src/version';
import { runScript } from '../support/cli';
import { sqlite } from '../support/backends';
import { captureLogs } from '../support/logs';
import { startServer, type TestServer } from '../support/server';

const ROOT = join(__dirname, '..', '..');
const PACKAGE_VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The checkout's commit as `git rev-parse` gives it (12 hex digits), or null outside a git checkout. */
function checkoutCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

describe('tool-registry --version and --help', function () {
  this.timeout(60_000);

  it('--version prints the package version and the git commit, and exits 0', async () => {
    const run = await runScript('--version', []);
    expect(run.code).to.equal(0);
    const commit = checkoutCommit();
    expect(run.stdout.trim()).to.match(
      new RegExp(
        `^tool-registry ${PACKAGE_VERSION.replace(/\./g, '\\.')} \\(commit ${commit ?? 'unknown'}(-dirty)?\\)$`,
      ),
    );
    expect(buildInfo()).to.deep.include({ version: PACKAGE_VERSION });
  });

  it('--help lists the commands and every environment variable with its default, and exits 0', async () => {
    const run = await runScript('--help', []);
    expect(run.code).to.equal(0);
    for (const command of ['serve', 'register', 'export', 'backup', 'restore', 'migrate'])
      expect(run.stdout).to.match(new RegExp(`^  ${command} `, 'm'));
    for (const v of ENVIRONMENT) {
      expect(run.stdout, v.name).to.match(
        new RegExp(`^  ${v.name} +${(v.default ?? '-').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} `, 'm'),
      );
    }
  });

  it('without a command, or with an unknown one, prints the help on stderr and exits 2', async () => {
    const none = await runScript('', []);
    const unknown = await runScript('frobnicate', []);
    expect(none.code).to.equal(2);
    expect(none.stderr).to.contain('Usage: tool-registry <command>');
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.contain('tool-registry: no command "frobnicate"');
  });
});

describe('the front door: GET /, /healthz, /docs and the start log', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startServer(sqlite, { demoData: true });
  });
  after(() => server.close());

  it('answers a browser at / with a small HTML page linking GraphiQL, the dashboard, the health endpoints and the docs', async () => {
    const response = await fetch(`${server.origin}/`, {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^text\/html/);
    expect(response.headers.get('vary')).to.match(/Accept/);
    const page = await response.text();
    for (const href of ['/graphql', '/dashboard', '/healthz', '/readyz', '/docs'])
      expect(page).to.contain(`href="${href}"`);
    expect(page).to.not.contain('href="/metrics"');
    expect(page).to.contain(`version ${PACKAGE_VERSION}`);
  });

  it('answers a JSON client (or no Accept at all) at / with JSON', async () => {
    for (const accept of ['application/json', '*/*', undefined]) {
      const response = await fetch(`${server.origin}/`, { headers: accept ? { accept } : {} });
      expect(response.status, accept).to.equal(200);
      expect(response.headers.get('content-type'), accept).to.match(/^application\/json/);
      expect(await response.json()).to.deep.equal({
        name: 'tool-registry',
        version: PACKAGE_VERSION,
        commit: buildInfo().commit,
        endpoints: {
          graphql: '/graphql',
          dashboard: '/dashboard',
          healthz: '/healthz',
          readyz: '/readyz',
          docs: '/docs',
        },
      });
    }
  });

  it('/healthz carries the version and commit', async () => {
    const response = await fetch(`${server.origin}/healthz`);
    expect(await response.json()).to.deep.equal({ status: 'ok', version: PACKAGE_VERSION, commit: buildInfo().commit });
  });

  it('/docs lists the README and docs/*.md, serves each as text, and nothing else', async () => {
    const index = await (await fetch(`${server.origin}/docs`)).text();
    expect(index).to.contain('href="/docs/README.md"');
    const readme = await fetch(`${server.origin}/docs/README.md`);
    expect(readme.headers.get('content-type')).to.match(/^text\/plain/);
    expect(await readme.text()).to.equal(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    for (const path of ['/docs/package.json', '/docs/..%2Fpackage.json', '/docs/%2E%2E%2Fsrc%2Fmain.ts']) {
      const refused = await fetch(`${server.origin}${path}`);
      expect(refused.status, path).to.equal(404);
      expect(((await refused.json()) as any).errors[0].extensions.code).to.equal('NOT_FOUND');
    }
  });

  it('logs the version, the commit and the dashboard URL when it starts', async () => {
    const lines = await captureLogs(async (logger) => {
      const app = await bootstrap(
        {
          port: 0,
          host: '127.0.0.1',
          database: await sqlite.freshDatabase(),
          adminToken: null,
          readToken: null,
          demoData: false,
          production: false,
          logLevel: 'info',
          introspection: true,
          execution: 'fast',
          responseCache: true,
          recordCache: true,
        },
        { logger },
      );
      await app.close();
    });
    const started = lines.find((line) => line.msg === 'registry server listening');
    expect(started).to.include({ version: PACKAGE_VERSION, commit: buildInfo().commit });
    expect(started.dashboard).to.equal(started.url.replace(/\/graphql$/, '/dashboard'));
  });
});
