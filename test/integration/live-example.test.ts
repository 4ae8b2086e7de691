import { expect } from 'chai';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { sqlite } from '../support/backends';
import { startServer, type TestServer } from '../support/server';

const ROOT = join(__dirname, '..', '..');

/** The README's live example (examples/live/watch-changes.ts), run as a user runs it, against a real server. */
describe('examples/live/watch-changes.ts', function () {
  this.timeout(60_000);
  let server: TestServer;
  let child: ChildProcessWithoutNullStreams | null = null;
  afterEach(() => {
    child?.kill('SIGKILL');
    child = null;
  });
  after(() => server?.close());

  /** Starts the example; resolves with a function that waits for a printed line matching a pattern. */
  function watch(args: string[]) {
    child = spawn(process.execPath, ['-r', '@swc-node/register', 'examples/live/watch-changes.ts', ...args], {
      cwd: ROOT,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return async (pattern: RegExp) => {
      for (let i = 0; i < 300 && !pattern.test(output); i++) await new Promise((r) => setTimeout(r, 50));
      expect(output).to.match(pattern);
      return output;
    };
  }

  it('prints each change as it commits, and replays from a version it is given', async () => {
    server = await startServer(sqlite, { demoData: true });
    const seen = watch([server.url]);
    for (let i = 0; i < 200 && server.app.services.feed.size === 0; i++) await new Promise((r) => setTimeout(r, 50));
    await server.data(`mutation { createProject(input: { name: "live-example" }) { dryRun } }`);
    const printed = await seen(/created project live-example/);
    expect(printed).to.match(/^v\d+ \S+ anonymous PROJECT: created project live-example \(0 binding changes\)$/m);
    child!.kill('SIGKILL');
    // From version 0: the demo data's entries first, in order, then the project.
    const replayed = await watch([server.url, '0'])(/created project live-example/);
    const versions = [...replayed.matchAll(/^v(\d+) /gm)].map((m) => Number(m[1]));
    expect(versions.length).to.be.greaterThan(5);
    expect(versions).to.deep.equal([...versions].sort((a, b) => a - b));
  });
});
