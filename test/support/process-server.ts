import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { postgres } from './backends';
import { withBuildLockSync } from './build-lock';

const ROOT = join(__dirname, '..', '..');

/** A server running as a real child process (`src/main.ts`, as `npm start` runs it, through swc). */
export interface ServerProcess {
  readonly url: string;
  readonly origin: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Everything the process wrote, stdout and stderr. */
  readonly output: string[];
  /** Resolves when the process exits. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends a signal (default SIGTERM) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ServerProcess>();

/**
 * Two server processes on one fresh PostgreSQL database, started at once (on the empty database one migrates, the
 * other waits for it): the setup of the multi-instance suites, which call requirePostgres first.
 */
export async function twoServersOnOnePostgres(): Promise<[ServerProcess, ServerProcess]> {
  const database = await postgres.freshDatabase();
  if (database.kind !== 'postgres') throw new Error('expected PostgreSQL');
  const env = { DATABASE_URL: database.url };
  const [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
  return [a, b];
}

/**
 * Runs the server entry point with the given environment (optionally as another user, or with node flags such as
 * `--max-old-space-size=200`); resolves once it listens (or rejects with its output).
 */
export function spawnServer(
  env: Record<string, string>,
  options: {
    timeoutMs?: number;
    user?: { uid: number; gid: number };
    nodeArgs?: string[];
    /** Run the compiled server (dist/src/main.js, built first if needed), as `npm start` does, not through swc. */
    built?: boolean;
  } = {},
): Promise<ServerProcess> {
  const nodeArgs = options.nodeArgs ?? [];
  if (options.built) ensureServerBuilt();
  const entry = options.built
    ? [join(ROOT, 'dist', 'src', 'main.js')]
    : ['-r', '@swc-node/register', join(ROOT, 'src', 'main.ts')];
  const child = spawn(process.execPath, [...nodeArgs, ...entry], {
    cwd: ROOT,
    ...options.user,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DEMO_DATA: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in time:\n${output.join('')}`));
    }, options.timeoutMs ?? 30_000);
    let buffered = '';
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output.push(text);
      buffered += text;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'registry server listening' && entry.url) {
          clearTimeout(timer);
          const server: ServerProcess = {
            url: entry.url,
            origin: new URL(entry.url).origin,
            pid: child.pid!,
            child,
            output,
            exited,
            async stop(signal = 'SIGTERM') {
              running.delete(server);
              if (child.exitCode === null && child.signalCode === null) child.kill(signal);
              return exited;
            },
          };
          running.add(server);
          resolve(server);
        }
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before listening:\n${output.join('')}`));
    });
  });
}

/** Runs the entry point to completion (for start-up failures), optionally as another user: exit code and output. */
export function runToExit(
  env: Record<string, string>,
  timeoutMs = 30_000,
  user?: { uid: number; gid: number },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', join(ROOT, 'src', 'main.ts')], {
    cwd: ROOT,
    ...user,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

let built = false;

/** Compiles the server into dist/ as `npm run build` does (stale outputs pruned, then tsc in build mode), once per test run. */
export function ensureServerBuilt(): void {
  if (built) return;
  // Not while another test worker builds dist/ (the package test's npm pack).
  withBuildLockSync(() => {
    execFileSync(process.execPath, ['-r', '@swc-node/register', join(ROOT, 'scripts', 'prune-build.ts')], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.build.json'],
      {
        cwd: ROOT,
        stdio: 'inherit',
      },
    );
  });
  built = true;
}

/** The resident set size of a process, in bytes (Linux: /proc/<pid>/status). */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb[1]) * 1024;
}

/** Kills server processes a failed test left running. */
export async function stopAllProcesses(): Promise<void> {
  await Promise.all([...running].map((s) => s.stop('SIGKILL')));
}

/** POSTs a GraphQL request to a URL. */
export async function gqlAt(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: await response.json() };
}
