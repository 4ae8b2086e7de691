/**
 * The bulk path (issue 33): `tool-registry export` of the benchmark's
 * registry, then `tool-registry register` of that export into an empty
 * server on the same backend, timed end to end (the command's own reads,
 * its batches, and the server's checks and change log). Checked after: the
 * empty server's change log has one entry per entity, and its own export is
 * file for file the one registered.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyDatabase } from './postgres-registry';
import { BENCH_ADMIN_TOKEN, startRegistryServer, type RegistryServer } from './processes';
import { removeDatabaseFiles } from './generate';

/** What one bulk registration measured. */
export interface BulkRegisterReport {
  /** Types, resources, projects, links and tools registered. */
  readonly entities: number;
  readonly seconds: number;
  readonly entitiesPerSecond: number;
  /** Change-log entries the empty server wrote (one per entity when the path logs each). */
  readonly changeLogEntries: number;
  /** Its export, file for file, equals the export registered. */
  readonly sameExport: boolean;
  readonly exportSeconds: number;
  /** CPU the server spent while the command ran (the rest of the time is the command's own, and waiting). */
  readonly serverCpuSeconds: number;
}

/** User and system CPU seconds a process has used, from /proc. */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Runs the built CLI (as `tool-registry <args>`); resolves with its exit code and output. */
function cli(root: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // For diagnosing, as BENCH_SERVER_NODE_FLAGS for the server: e.g. "--cpu-prof".
    const flags = (process.env.BENCH_CLI_NODE_FLAGS ?? '').split(/\s+/).filter((flag) => flag !== '');
    const child = spawn(process.execPath, [...flags, join(root, 'dist', 'src', 'cli.js'), ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ADMIN_TOKEN: BENCH_ADMIN_TOKEN, NODE_ENV: 'production' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

async function graphql<T>(server: RegistryServer, query: string): Promise<T> {
  const response = await fetch(server.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
    body: JSON.stringify({ query }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown[] };
  if (body.errors || !body.data) throw new Error(`bulk register: ${JSON.stringify(body.errors ?? body)}`);
  return body.data;
}

/** Every file of an export folder (registry.yaml and tools/*.yaml) with its text. */
function filesOf(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (name.endsWith('.yaml')) files.set(name, readFileSync(join(dir, name), 'utf8'));
  }
  return files;
}

/** Exports `server`'s registry into a new folder under `work`. */
async function exportOf(root: string, server: RegistryServer, dir: string): Promise<void> {
  const run = await cli(root, ['export', '--no-progress', '--url', server.graphqlUrl, '--out', dir]);
  if (run.code !== 0) throw new Error(`bulk register: export failed (${run.code}): ${run.stderr || run.stdout}`);
}

/** What the bulk path needs of the benchmark's registry: how many entities it holds, and its PostgreSQL when on it. */
export interface BulkSource {
  readonly entities: number;
  /** The admin URL to make an empty database with; null on SQLite. */
  readonly postgresAdminUrl: string | null;
}

export async function measureBulkRegister(
  root: string,
  registry: BulkSource,
  source: RegistryServer,
  log: (message: string) => void,
): Promise<BulkRegisterReport> {
  const work = mkdtempSync(join(tmpdir(), 'bench-bulk-'));
  const exported = join(work, 'export');
  const again = join(work, 'again');
  const exportStarted = performance.now();
  await exportOf(root, source, exported);
  const exportSeconds = (performance.now() - exportStarted) / 1000;
  log(`bulk register: exported in ${exportSeconds.toFixed(1)} s`);

  const empty = registry.postgresAdminUrl !== null ? await emptyDatabase(registry.postgresAdminUrl) : null;
  const file = join(work, 'empty.sqlite');
  const target = await startRegistryServer(root, empty?.url ?? file);
  try {
    const started = performance.now();
    const cpuBefore = cpuSeconds(target.process.pid);
    const run = await cli(root, ['register', '--no-progress', '--url', target.graphqlUrl, exported]);
    const seconds = (performance.now() - started) / 1000;
    const serverCpuSeconds = cpuSeconds(target.process.pid) - cpuBefore;
    if (run.code !== 0) throw new Error(`bulk register: register failed (${run.code}): ${run.stdout.slice(-2000)}`);
    const { changes } = await graphql<{ changes: { totalCount: number } }>(
      target,
      '{ changes(first: 1) { totalCount } }',
    );
    const { entities } = registry;
    await exportOf(root, target, again);
    const [a, b] = [filesOf(exported), filesOf(again)];
    const sameExport = a.size === b.size && [...a].every(([name, text]) => b.get(name) === text);
    return {
      entities,
      seconds,
      entitiesPerSecond: entities / seconds,
      changeLogEntries: changes.totalCount,
      sameExport,
      exportSeconds,
      serverCpuSeconds,
    };
  } finally {
    await target.process.stop();
    await empty?.drop();
    removeDatabaseFiles(file);
    rmSync(work, { recursive: true, force: true });
  }
}
