/**
 * The benchmark's child processes: the real registry server (the production
 * build, `node dist/src/cli.js serve`) and the bare node:http baseline. Each runs
 * in its own process, is stopped by its PID, and is killed if the benchmark
 * itself exits early. Also: free ports, start-up timing, RSS from /proc and
 * the server's SQL statement counter.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus } from 'node:os';
import { join } from 'node:path';

/** Children still running, so that an early exit of the benchmark does not leave them behind. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
  });
}

/** A child process the benchmark started. */
export class Child {
  private readonly outputLines: string[] = [];
  private readonly exited: Promise<void>;

  constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    installExitHook();
    running.add(child);
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        this.outputLines.push(line);
        if (this.outputLines.length > 40) this.outputLines.shift();
      }
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    void this.exited.then(() => running.delete(child));
  }

  /** Copies everything the process writes from now on to `to` as well (BENCH_SERVER_LOG). */
  copyOutputTo(to: NodeJS.WritableStream): void {
    this.child.stdout?.pipe(to);
    this.child.stderr?.pipe(to);
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error(`${this.name} did not start`);
    return this.child.pid;
  }

  /** True once the process has ended. */
  get hasExited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** The last lines it printed. */
  output(): string {
    return this.outputLines.join('\n');
  }

  /** Waits for the next line of output that matches. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => finish(new Error(`${this.name}: no line matching ${pattern} within ${timeoutMs} ms\n${this.output()}`)),
        timeoutMs,
      );
      const onData = (chunk: Buffer) => {
        const match = chunk.toString('utf8').match(pattern);
        if (match) finish(null, match);
      };
      const onExit = () => finish(new Error(`${this.name} exited before it was ready\n${this.output()}`));
      const finish = (error: Error | null, match?: RegExpMatchArray) => {
        clearTimeout(timer);
        this.child.stdout?.off('data', onData);
        this.child.off('exit', onExit);
        if (error) reject(error);
        else resolve(match as RegExpMatchArray);
      };
      this.child.stdout?.on('data', onData);
      this.child.once('exit', onExit);
    });
  }

  /** Stops the process by its PID: SIGTERM, then SIGKILL after `graceMs`. */
  async stop(graceMs = 5000): Promise<void> {
    if (this.hasExited) return;
    process.kill(this.pid, 'SIGTERM');
    const timer = setTimeout(() => {
      if (!this.hasExited) process.kill(this.pid, 'SIGKILL');
    }, graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** The registry server, started and ready. */
export interface RegistryServer {
  readonly process: Child;
  readonly origin: string;
  readonly graphqlUrl: string;
  /** Milliseconds from spawn until GET /readyz answered 200. */
  readonly startupMs: number;
}

/** The command's entry in the build (package.json's bin), which `start:built` runs with `serve`. */
const ENTRY = 'dist/src/cli.js';

/** The benchmark's server entry, as built (./server-main.ts): `serve` with the benchmark's own options. */
export const BENCH_SERVER_ENTRY = join('dist', 'scripts', 'bench', 'server-main.js');

/**
 * The production start, as package.json's `start:built` script says
 * (`[NAME=value …] node <flags> dist/src/cli.js serve`): the environment it sets
 * and node's arguments, so the benchmark measures the server exactly as
 * `npm start` runs it; with `entry`, that file (under `root`) in place of the command.
 */
export function productionStart(root: string, entry?: string): { env: Record<string, string>; args: string[] } {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts?: Record<string, unknown>;
  };
  const script = manifest.scripts?.['start:built'];
  const words = typeof script === 'string' ? script.trim().split(/\s+/) : [];
  const env: Record<string, string> = {};
  const setting = /^([A-Z_][A-Z0-9_]*)=(\S*)$/;
  for (let found = setting.exec(words[0] ?? ''); found; found = setting.exec(words[0] ?? '')) {
    env[found[1]] = found[2];
    words.shift();
  }
  if (words[0] !== 'node' || !words.includes(ENTRY))
    throw new Error(
      `package.json "start:built" must be "[NAME=value ...] node [flags] ${ENTRY} serve" (got ${JSON.stringify(script)})`,
    );
  const args = words.slice(1).map((word) => (word === ENTRY ? join(root, entry ?? ENTRY) : word));
  // The benchmark's own entry is the server already: it takes no subcommand.
  if (entry !== undefined && args.at(-1) === 'serve') args.pop();
  return { env, args };
}

/** The admin token the benchmark's server runs with (production mode requires one); the write load sends it. */
export const BENCH_ADMIN_TOKEN = `bench-${randomBytes(16).toString('hex')}`;

/**
 * Starts the production build on a SQLite file (or a PostgreSQL database) and waits until /readyz
 * answers 200: as `npm start` starts it, through the benchmark's entry
 * (./server-main.ts, built with the server), which exposes the statement
 * counter and, with `freeReads`, answers repeated reads from memory (the
 * "(free data)" server).
 */
export async function startRegistryServer(
  root: string,
  /** A SQLite file's path, or a database URL (postgres://…). */
  database: string,
  options: { readonly freeReads?: boolean; readonly env?: Record<string, string> } = {},
): Promise<RegistryServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const start = productionStart(root, BENCH_SERVER_ENTRY);
  if (options.freeReads) start.args.push('--free-reads');
  const log = process.env.BENCH_SERVER_LOG ? createWriteStream(process.env.BENCH_SERVER_LOG, { flags: 'a' }) : null;
  const child = new Child(
    'registry server',
    spawn(process.execPath, [...serverDiagnosticFlags(), ...start.args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ...start.env,
        NODE_ENV: 'production',
        ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: /^postgres(ql)?:\/\//.test(database) ? database : `sqlite:${database}`,
        DEMO_DATA: 'false',
        LOG_LEVEL: 'warn',
        ...serverDiagnosticEnv(),
        ...options.env,
      },
    }),
  );
  if (log) child.copyOutputTo(log);
  try {
    await waitUntilReady(child, `${origin}/readyz`, 60_000);
  } catch (error) {
    await child.stop();
    throw error;
  }
  return { process: child, origin, graphqlUrl: `${origin}/graphql`, startupMs: performance.now() - started };
}

/**
 * For diagnosing a run, not for measuring one: BENCH_SERVER_NODE_FLAGS adds node flags to the registry server's
 * command line (e.g. "--trace-gc"), BENCH_SERVER_ENV adds environment variables (e.g. "METRICS=true", for a
 * compare run of two builds with metrics on; a mode's own settings win), and BENCH_SERVER_LOG names a file that
 * gets everything the server writes.
 */
function serverDiagnosticEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const word of (process.env.BENCH_SERVER_ENV ?? '').split(/\s+/).filter((w) => w !== '')) {
    const found = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word);
    if (!found) throw new Error(`BENCH_SERVER_ENV: "${word}" is not NAME=value`);
    env[found[1]] = found[2];
  }
  return env;
}

function serverDiagnosticFlags(): string[] {
  return (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(/\s+/).filter((flag) => flag !== '');
}

async function waitUntilReady(child: Child, url: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.hasExited) throw new Error(`the registry server exited during start-up:\n${child.output()}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  throw new Error(`the registry server was not ready within ${timeoutMs} ms:\n${child.output()}`);
}

/** The bare node:http server (scripts/bench/http-baseline.ts) in its own process. */
export async function startHttpBaseline(root: string): Promise<{ process: Child; url: string }> {
  const child = new Child(
    'http baseline',
    spawn(process.execPath, ['-r', '@swc-node/register', join(root, 'scripts', 'bench', 'http-baseline.ts')], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'production' },
    }),
  );
  try {
    const [, port] = await child.waitForLine(/listening on (\d+)/, 30_000);
    return { process: child, url: `http://127.0.0.1:${port}/` };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

/** Resident memory of a process in bytes (VmRSS from /proc), or null when it cannot be read. */
export function rssBytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every `intervalMs`, keeping the largest. */
export class RssSampler {
  maxBytes = 0;
  lastBytes = 0;
  samples = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly pid: number) {}

  /** Takes one sample now. */
  sample(): number {
    const bytes = rssBytes(this.pid);
    if (bytes !== null) {
      this.samples += 1;
      this.lastBytes = bytes;
      this.maxBytes = Math.max(this.maxBytes, bytes);
    }
    return bytes ?? 0;
  }

  start(intervalMs = 200): void {
    this.stop();
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/** The server's SQL statement count so far (GET /debug/sql-stats). */
export async function sqlStatements(origin: string): Promise<number> {
  const response = await fetch(`${origin}/debug/sql-stats`);
  if (response.status !== 200)
    throw new Error(`GET /debug/sql-stats answered ${response.status}; was the server started by startRegistryServer?`);
  const body = (await response.json()) as { statements?: unknown };
  if (typeof body.statements !== 'number')
    throw new Error('GET /debug/sql-stats did not return { statements: <number> }');
  return body.statements;
}

/** Waits until the server reports at least `count` live subscribers (GET /debug/sql-stats). */
export async function waitForSubscribers(origin: string, count: number): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const body = (await (await fetch(`${origin}/debug/sql-stats`)).json()) as { subscribers?: number };
    if ((body.subscribers ?? 0) >= count) return;
    await sleep(25);
  }
  throw new Error(`the server did not report ${count} subscribers`);
}

/**
 * Waits until a process uses less than `cores` of CPU over a quarter of a second (at most `timeoutMs`): after a load
 * whose requests autocannon abandoned when it stopped, the server may still be working on them. Returns the ms waited.
 */
export async function waitUntilQuiet(pid: number, cores = 0.2, timeoutMs = 30_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    const before = cpuSnapshot([pid]);
    await sleep(250);
    const used = cpuBetween(before, cpuSnapshot([pid]), cpus().length)?.byPid.get(pid);
    if (used === undefined || used < cores) break;
  }
  return performance.now() - started;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** CPU counters at one moment: the whole machine's, and some processes' (all in the kernel's clock ticks). */
export interface CpuSnapshot {
  readonly machineBusy: number;
  readonly machineTotal: number;
  readonly processes: ReadonlyMap<number, number>;
}

/** Reads /proc/stat and /proc/<pid>/stat; null where /proc is missing (not Linux). */
export function cpuSnapshot(pids: readonly number[]): CpuSnapshot | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal …: idle and iowait are the idle time.
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    const busy = total - fields[3] - (fields[4] ?? 0);
    const processes = new Map<number, number>();
    for (const pid of pids) {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces) start at state; utime and stime are the 12th and 13th of those.
      const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      processes.set(pid, Number(after[11]) + Number(after[12]));
    }
    return { machineBusy: busy, machineTotal: total, processes };
  } catch {
    return null;
  }
}

/** Average cores busy between two snapshots: the whole machine, each process, and everything else. */
export function cpuBetween(
  before: CpuSnapshot | null,
  after: CpuSnapshot | null,
  cores: number,
): { machine: number; byPid: Map<number, number>; others: number } | null {
  if (!before || !after) return null;
  const total = after.machineTotal - before.machineTotal;
  if (total <= 0) return null;
  const toCores = (ticks: number) => (ticks / total) * cores;
  const byPid = new Map<number, number>();
  let ours = 0;
  for (const [pid, ticks] of after.processes) {
    const used = ticks - (before.processes.get(pid) ?? ticks);
    byPid.set(pid, toCores(used));
    ours += used;
  }
  const machine = toCores(after.machineBusy - before.machineBusy);
  return { machine, byPid, others: Math.max(0, machine - toCores(ours)) };
}
