/**
 * Measures what a 50-tool dashboard page costs past the response cache, with
 * graphql-js and with compiled execution (issue 13); over HTTP, the two are
 * the servers with EXECUTION=reference and EXECUTION=fast:
 *   1. in process: milliseconds per page execution (the executor alone, a
 *      fresh read session each time, no HTTP), and SQL statements per page;
 *   2. over HTTP: server CPU (utime + stime from /proc/<pid>/stat) per
 *      request, every request unique (an unused variable), against the
 *      production build (`npm run build` first; dist/src/main.js).
 * Usage: NODE_ENV=production node -r @swc-node/register scripts/measure-execution.ts
 *   [--size N] [--requests N] [--in-process-only] [--modes compiled,graphql-js]
 * (NODE_ENV=production as the server runs: graphql-js checks more outside production.)
 */
import 'reflect-metadata';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { parse } from 'graphql';
import { CompiledExecution } from '../src/engine/compiled-execution';
import type { RequestContext } from '../src/graphql/context';
import { buildRegistrySchema } from '../src/engine/executable-schema';
import { bootstrap } from '../src/main';
import { cachedRegistry, removeDatabaseFiles } from './bench/generate';
import { startRegistryServer, sqlStatements } from './bench/processes';
import { DASHBOARD_QUERY } from './bench/workloads';

const ROOT = join(__dirname, '..');

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      size: { type: 'string', default: '50000' },
      requests: { type: 'string', default: '2000' },
      'in-process-only': { type: 'boolean', default: false },
      /** Which executors to measure in process, e.g. `compiled` alone (for a profile). */
      /** Another checkout's built server to measure over HTTP too, e.g. the code before a change (its dist/ built). */
      'before-root': { type: 'string' },
      modes: {
        type: 'string',
        default: 'graphql-js,compiled,graphql-js,compiled,graphql-js,compiled,graphql-js,compiled',
      },
    },
  });
  const size = Number(values.size);
  const requests = Number(values.requests);
  const registry = await cachedRegistry(join(ROOT, 'bench-results', 'cache'), size, 'measure');
  console.log(`registry: ${registry.path} (${size} resources)`);

  const copy = workingCopy(registry.path);
  try {
    await inProcess(
      copy,
      values.modes.split(',').map((mode) => mode === 'compiled'),
    );
  } finally {
    removeDatabaseFiles(copy);
  }
  if (values['in-process-only']) return;
  const servers: { label: string; root: string; compiled: boolean }[] = [
    ...(values['before-root'] ? [{ label: 'before     ', root: values['before-root'], compiled: false }] : []),
    { label: 'graphql-js ', root: ROOT, compiled: false },
    { label: 'compiled   ', root: ROOT, compiled: true },
  ];
  for (const round of [1, 2, 3]) {
    for (const server of servers) {
      const file = workingCopy(registry.path);
      process.env.EXECUTION = server.compiled ? 'fast' : 'reference';
      try {
        await overHttp(server.root, file, `${server.label}(round ${round})`, requests);
      } finally {
        removeDatabaseFiles(file);
      }
    }
  }
}

function workingCopy(source: string): string {
  const dir = join(ROOT, 'bench-results', 'run');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `measure-${process.pid}-${Math.random().toString(36).slice(2)}.sqlite`);
  copyFileSync(source, path);
  return path;
}

/** The executors alone, on the same server's services and data, one page after another. */
async function inProcess(databasePath: string, modes: readonly boolean[]): Promise<void> {
  const app = await bootstrap(
    {
      port: 0,
      host: '127.0.0.1',
      database: { kind: 'sqlite', path: databasePath },
      adminToken: null,
      readToken: null,
      demoData: false,
      production: false,
      logLevel: 'silent',
      introspection: true,
      execution: 'fast',
      responseCache: false,
      recordCache: true,
    },
    { logger: pino({ level: 'silent' }) },
  );
  try {
    const schema = await buildRegistrySchema();
    const document = parse(DASHBOARD_QUERY);
    const log = pino({ level: 'silent' });
    const context = (): RequestContext => ({
      requestId: 'measure',
      access: { canRead: true, presented: 'none', principal: null, failure: null },
      services: app.services,
      session: app.versioning.session(),
      log,
      report: { operationName: null, operationType: null, actor: null, errorCodes: [], cache: 'bypass' },
    });
    const cursors = await pageCursors(app.url, 10);
    const best = new Map<boolean, number>();
    for (const compiled of modes) {
      const execution = new CompiledExecution<RequestContext>(schema, { enabled: compiled });
      const run = (i: number) =>
        execution.execute({
          document,
          source: DASHBOARD_QUERY,
          operationName: 'Dashboard',
          variables: { first: 50, after: cursors[i % cursors.length] },
          contextValue: context(),
        });
      for (let i = 0; i < 300; i += 1) await run(i);
      const first = await run(0);
      if (first.errors) throw new Error(JSON.stringify(first.errors));
      const statementsBefore = app.db.counter.count;
      const n = 1500;
      const started = performance.now();
      for (let i = 0; i < n; i += 1) await run(i);
      const ms = (performance.now() - started) / n;
      const statements = (app.db.counter.count - statementsBefore) / n;
      best.set(compiled, Math.min(best.get(compiled) ?? Infinity, ms));
      console.log(
        `in process, ${compiled ? 'compiled  ' : 'graphql-js'}: ${ms.toFixed(3)} ms per 50-tool page, ${statements.toFixed(2)} statements per page (${JSON.stringify(execution.stats)})`,
      );
    }
    // The machine is shared: the fastest of the rounds is the least disturbed.
    for (const [compiled, ms] of best)
      console.log(`in process, ${compiled ? 'compiled  ' : 'graphql-js'}: best ${ms.toFixed(3)} ms per page`);
  } finally {
    await app.close();
  }
}

interface PageInfo {
  readonly hasNextPage: boolean;
  readonly endCursor: string;
}

/** The `after` cursors of the first `pages` pages of 50 tools (null for the first). */
async function pageCursors(url: string, pages: number): Promise<(string | null)[]> {
  const cursors: (string | null)[] = [null];
  while (cursors.length < pages) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: DASHBOARD_QUERY, variables: { first: 50, after: cursors[cursors.length - 1] } }),
    });
    const body = (await response.json()) as { data: { tools: { pageInfo: PageInfo } } };
    if (!body.data.tools.pageInfo.hasNextPage) break;
    cursors.push(body.data.tools.pageInfo.endCursor);
  }
  return cursors;
}

/** CPU seconds (user + system) of a process so far, from /proc. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat (utime, stime) are at 11 and 12 after the command name; clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Unique dashboard pages over HTTP, 8 at a time: the server's CPU per request and statements per request. */
async function overHttp(root: string, databasePath: string, label: string, requests: number): Promise<void> {
  const server = await startRegistryServer(root, databasePath);
  try {
    const cursors = await pageCursors(server.graphqlUrl, 10);
    let next = 0;
    const send = async () => {
      const i = next++;
      const response = await fetch(server.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: DASHBOARD_QUERY,
          variables: { first: 50, after: cursors[i % cursors.length], unique: `${process.pid}-${i}` },
        }),
      });
      const body = (await response.json()) as { errors?: unknown };
      if (body.errors || response.headers.get('x-registry-cache') === 'hit') throw new Error(JSON.stringify(body));
    };
    const drive = async (n: number) => {
      const stop = next + n;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < stop) await send();
        }),
      );
    };
    await drive(500);
    const cpuBefore = cpuMs(server.process.pid);
    const statementsBefore = await sqlStatements(server.origin);
    const started = performance.now();
    await drive(requests);
    const seconds = (performance.now() - started) / 1000;
    const cpu = (cpuMs(server.process.pid) - cpuBefore) / requests;
    const statements = ((await sqlStatements(server.origin)) - statementsBefore) / requests;
    const stats = (await (await fetch(`${server.origin}/debug/sql-stats`)).json()) as { execution: unknown };
    console.log(
      `over HTTP, ${label}: ${cpu.toFixed(2)} ms server CPU per unique 50-tool page, ${(requests / seconds).toFixed(0)} req/s (8 connections), ${statements.toFixed(2)} statements per request; ${JSON.stringify(stats.execution ?? null)}`,
    );
  } finally {
    await server.process.stop();
  }
}

void main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
