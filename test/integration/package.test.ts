import { expect } from 'chai';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEMO_FILES } from '../../src/demo/demo-data';
import { withBuildLock } from '../support/build-lock';

const ROOT = join(__dirname, '..', '..');
const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};

/** Only what npm needs from this environment: no npm_* variables of the npm run that started the tests. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMPDIR: tmpdir(), ...extra };
}

async function run(command: string, args: string[], cwd: string): Promise<string> {
  const { stdout } = await promisify(execFile)(command, args, {
    cwd,
    env: cleanEnv(),
    maxBuffer: 64 * 1024 * 1024,
    timeout: 600_000,
  });
  return stdout;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The package as a user gets it: `npm pack` (which builds), then `npm install
 * ./tool-registry-x.y.z.tgz` in an empty folder and `npx tool-registry serve`
 * there, with no build step, on SQLite with the demo.
 */
describe('the package: npm pack, installed into an empty folder, npx tool-registry serve', function () {
  this.timeout(900_000);
  const scratch = mkdtempSync(join(tmpdir(), 'registry-package-'));
  const tarball = join(scratch, `${name}-${version}.tgz`);
  const app = join(scratch, 'app');
  let server: ChildProcess | null = null;

  before(async () => {
    // npm pack builds dist/: not while another test worker does (test/support/build-lock.ts).
    await withBuildLock(() => run('npm', ['pack', '--pack-destination', scratch], ROOT));
    mkdirSync(app);
    await run('npm', ['install', '--no-audit', '--no-fund', tarball], app);
  });

  after(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      // npx runs the command as a child of its own: the group we started, and nothing else, is stopped.
      process.kill(-server.pid!, 'SIGTERM');
      await exited;
    }
    rmSync(scratch, { recursive: true, force: true });
  });

  it('holds the built dist/ (the GraphiQL and dashboard bundles, the build info) and the demo, and no tests or sources', async () => {
    const files = (await run('tar', ['tzf', tarball], scratch)).split('\n').filter(Boolean);
    for (const file of [
      'package/dist/src/cli.js',
      'package/dist/src/main.js',
      'package/dist/build-info.json',
      'package/dist/graphiql/manifest.json',
      'package/dist/dashboard/manifest.json',
      // The demo's files: the installed command loads them into a new database.
      ...DEMO_FILES.map((file) => `package/${file}`),
    ]) {
      expect(files, file).to.include(file);
    }
    expect(
      files.filter((file) => /(^package\/(test|src|scripts|web)\/)|\.test\.|\.ts$|\.map$/.test(file)),
    ).to.deep.equal([]);
  });

  it('runs --version from the build info', async () => {
    // `--` ends npx's own options: without it, npx takes --version as its own.
    const printed = (await run('npx', ['--no', '--', 'tool-registry', '--version'], app)).trim();
    const recorded = JSON.parse(readFileSync(join(app, 'node_modules', name, 'dist', 'build-info.json'), 'utf8')) as {
      version: string;
      commit: string;
    };
    expect(recorded.version).to.equal(version);
    expect(printed).to.equal(`tool-registry ${version} (commit ${recorded.commit})`);
  });

  it('serves the demo: resolveBindings answers, GraphiQL and the dashboard are there', async () => {
    const port = await freePort();
    server = spawn('npx', ['--no', '--', 'tool-registry', 'serve'], {
      cwd: app,
      env: cleanEnv({ PORT: String(port), HOST: '127.0.0.1', LOG_FORMAT: 'json' }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    server.stdout!.on('data', (chunk) => (output += chunk));
    server.stderr!.on('data', (chunk) => (output += chunk));
    for (let tries = 0; !output.includes('"msg":"registry server listening"'); tries++) {
      if (tries > 600 || server.exitCode !== null) throw new Error(`the server did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const origin = `http://127.0.0.1:${port}`;
    const response = await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: '{ resolveBindings(tool: "demo/mixed", project: "demo") { slotName deferred resource { name } } }',
      }),
    });
    expect(response.status).to.equal(200);
    const body = (await response.json()) as any;
    expect(body.errors).to.equal(undefined);
    expect(body.data.resolveBindings.map((b: any) => [b.slotName, b.deferred, b.resource?.name ?? null])).to.deep.equal(
      [
        ['repo', false, 'acme/app-repo'],
        ['config', false, 'local/shared-config'],
        ['output', true, null],
      ],
    );
    for (const page of ['/dashboard', '/graphql']) {
      const html = await fetch(`${origin}${page}`, { headers: { accept: 'text/html' } });
      expect(html.status, page).to.equal(200);
      expect(html.headers.get('content-type'), page).to.match(/^text\/html/);
    }
    expect(((await (await fetch(`${origin}/healthz`)).json()) as any).version).to.equal(version);
  });
});
