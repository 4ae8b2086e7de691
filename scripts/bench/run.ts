/**
 * The full and growth runs, and the pieces every mode shares (the registry,
 * server runs on working copies, the loads). A full run measures every load on
 * one registry: http; then on the server floor, resolve, resolve+writes, and
 * dashboard (cached), the three past the cache, the matrix, unique-resolve and
 * unique-dashboard, fairness, churn, write with 1/10/100 subscribers (unpaced,
 * then beside a paced writer) and the impact previews; then unique-resolve and
 * unique-dashboard again on a second server with --free-reads ("free data",
 * read-only loads only); then the bulk path (./bulk-register.ts). A growth run (`--sizes`) measures only the resolve
 * load on a registry of each size. The metrics and compare modes are in
 * ./metrics-mode.ts and ./compare.ts. Each works on a throw-away copy of the
 * cached database, so the writes never change the cache, and each stops every
 * process it started.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cachedRegistry, removeDatabaseFiles, type CachedRegistry } from './generate';
import { chooseExpensiveRequests } from './fairness';
import { measureBulkRegister, type BulkRegisterReport } from './bulk-register';
import { measureImpacts, type ImpactPreview } from './impacts';
import { startPacedClient } from './paced-client';
import { openSubscribers, startReplayer } from './subscribers';
import { pacedDelivery, pacedRate } from './delivery';
import { hasErrors, NO_CACHE, runLoad, type LoadDefinition, type LoadResult, type LoadSettings } from './loads';
import { loadRegistryModel, type RegistryModel } from './model';
import { postgresTemplate, workingDatabase } from './postgres-registry';
import { formatSize, type BenchOptions } from './options';
import {
  BENCH_ADMIN_TOKEN,
  rssBytes,
  RssSampler,
  sleep,
  startHttpBaseline,
  waitForSubscribers,
  startRegistryServer,
  waitUntilQuiet,
  type RegistryServer,
} from './processes';
import { startProbeProcess } from './probe';
import { Random } from './random';
import {
  fullTargets,
  growthTargets,
  reportStamp,
  mb,
  describeMix,
  withRatios,
  type FairnessReport,
  type FullReport,
  type GrowthReport,
  type GrowthStep,
  type RegistryInfo,
} from './report';
import {
  CHURN_SHAPES,
  chooseResolvePairs,
  churnRequests,
  dashboardRequests,
  FLOOR_QUERY,
  graphqlBody,
  matrixRequests,
  verifyMatrix,
  resolveRequests,
  resourceWriteRequests,
  uniqueRequests,
  verifyChurn,
  verifyDashboard,
  verifyFloor,
  verifyResolve,
  verifyResourceWrite,
  verifyWrite,
  writeRequests,
  type ExpectedPage,
  type ExpectedSlot,
  type PreparedRequest,
  type ResolveMix,
} from './workloads';

/** How many distinct resolving pairs to look for. */
const RESOLVE_PAIRS = 5000;

/** The paced writer's rate during resolve+writes. */
export const WRITES_PER_SECOND = 20;

/** The churn load runs this many times as long as the other loads: 60 s at the default 10 s (6 s with --quick). */
export const CHURN_DURATION_FACTOR = 6;

/** How many connections send the most expensive allowed request in the fairness load. */
export const FAIRNESS_CONNECTIONS = 10;

/** Progress goes to stderr; the report goes to stdout. */
export function progress(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

/** Everything the loads need from one registry. */
export interface PreparedRegistry {
  readonly cached: CachedRegistry;
  readonly model: RegistryModel;
  readonly info: RegistryInfo;
  readonly pairs: ReturnType<typeof chooseResolvePairs>['pairs'];
  readonly mix: ResolveMix;
  /** With --backend postgres: the admin URL and the template database each server run copies. */
  readonly postgres: { readonly adminUrl: string; readonly template: string } | null;
}

export async function prepareRegistry(root: string, options: BenchOptions, size: number): Promise<PreparedRegistry> {
  const cached = await cachedRegistry(join(root, 'bench-results', 'cache'), size, options.seed, options.regenerate);
  progress(
    cached.generatedMs === null
      ? `registry ${formatSize(size)} (seed ${options.seed}): cached ${cached.path}`
      : `registry ${formatSize(size)} (seed ${options.seed}): generated in ${(cached.generatedMs / 1000).toFixed(1)} s → ${cached.path}`,
  );
  const model = loadRegistryModel(cached.path);
  const { pairs, mix } = chooseResolvePairs(model, new Random(options.seed).derive(`pairs-${size}`), RESOLVE_PAIRS);
  if (pairs.length === 0)
    throw new Error(`no tool × project pair resolves in the ${formatSize(size)} registry; nothing to measure`);
  progress(`resolve pairs: ${describeMix(mix)}`);
  const postgres =
    options.backend === 'postgres'
      ? {
          adminUrl: options.postgresUrl,
          template: await postgresTemplate(options.postgresUrl, cached.path, {
            regenerate: options.regenerate || cached.generatedMs !== null,
            log: progress,
          }),
        }
      : null;
  return {
    postgres,
    cached,
    model,
    pairs,
    mix,
    info: {
      size,
      seed: options.seed,
      file: cached.path,
      bytes: cached.bytes,
      generatedMs: cached.generatedMs,
      counts: model.counts,
    },
  };
}

let workingCopies = 0;

/** A copy of the cached database for one server run (two may run at once), removed afterwards. */
function workingCopy(root: string, source: string): string {
  const dir = join(root, 'bench-results', 'run');
  mkdirSync(dir, { recursive: true });
  workingCopies += 1;
  const path = join(dir, `registry-${process.pid}-${workingCopies}.sqlite`);
  removeDatabaseFiles(path);
  copyFileSync(source, path);
  return path;
}

/** Starts the server on a working copy (a file, or a PostgreSQL database), runs `work`, and always stops it and removes the copy. */
export async function withServer<T>(
  root: string,
  registry: PreparedRegistry,
  work: (server: RegistryServer, database: string) => Promise<T>,
  serverOptions: ServerOptions = {},
): Promise<T> {
  if (registry.postgres) {
    const database = await workingDatabase(registry.postgres.adminUrl, registry.postgres.template);
    try {
      return await serve(root, database.url, work, serverOptions);
    } finally {
      await database.drop();
    }
  }
  const file = workingCopy(root, registry.cached.path);
  try {
    return await serve(root, file, work, serverOptions);
  } finally {
    removeDatabaseFiles(file);
  }
}

/**
 * How a server run is started: `--free-reads`, extra environment, and (compare mode) the checkout whose build
 * serves, when it is not the benchmark's own.
 */
export interface ServerOptions {
  readonly freeReads?: boolean;
  readonly env?: Record<string, string>;
  readonly serverRoot?: string;
}

async function serve<T>(
  root: string,
  database: string,
  work: (server: RegistryServer, database: string) => Promise<T>,
  serverOptions: ServerOptions,
): Promise<T> {
  const server = await startRegistryServer(serverOptions.serverRoot ?? root, database, serverOptions);
  progress(`server pid ${server.process.pid} ready in ${(server.startupMs / 1000).toFixed(2)} s`);
  try {
    return await work(server, database);
  } finally {
    await server.process.stop();
  }
}

/** Load settings against the registry server, or (with `targetPid`) against the http baseline. */
export function settings(options: BenchOptions, server: RegistryServer | null, targetPid?: number): LoadSettings {
  return {
    durationSeconds: options.durationSeconds,
    warmupSeconds: options.warmupSeconds,
    connections: options.connections,
    serverOrigin: server?.origin ?? null,
    serverPid: server?.process.pid ?? null,
    targetPid: server?.process.pid ?? targetPid ?? process.pid,
  };
}

export function resolveLoad(
  server: RegistryServer,
  registry: PreparedRegistry,
  random: Random,
  fresh = false,
): LoadDefinition<ExpectedSlot[]> {
  const requests = resolveRequests(registry.pairs);
  return {
    name: fresh ? 'resolve (no cache)' : 'resolve',
    url: server.graphqlUrl,
    next: () => random.pick(requests),
    verify: verifyResolve,
    verifyEvery: 10,
    ...(fresh ? { headers: NO_CACHE } : {}),
  };
}

/** `{ __typename }`, the same body every time; the "(no cache)" one past the response cache. */
export function floorLoad(
  server: RegistryServer,
  name: 'floor' | 'floor (no cache)' | 'floor (before the unique loads)',
): LoadDefinition<null> {
  const body = graphqlBody(FLOOR_QUERY);
  return {
    name,
    url: server.graphqlUrl,
    next: () => ({ body, expect: null }),
    fixed: true,
    verify: verifyFloor,
    verifyEvery: 1,
    ...(name === 'floor (no cache)' ? { headers: NO_CACHE } : {}),
  };
}

/** The resolve requests, every body unique by an unused variable. */
export function uniqueResolveLoad(
  name: 'unique-resolve' | 'unique-resolve (free data)',
  server: RegistryServer,
  registry: PreparedRegistry,
  random: Random,
  tag: string,
): LoadDefinition<ExpectedSlot[]> {
  return {
    name,
    url: server.graphqlUrl,
    next: uniqueRequests(resolveRequests(registry.pairs), random.derive(name), tag),
    verify: verifyResolve,
    verifyEvery: 10,
  };
}

/** The dashboard pages, every body unique by an unused variable. */
export function uniqueDashboardLoad(
  name: 'unique-dashboard' | 'unique-dashboard (free data)',
  server: RegistryServer,
  pages: readonly PreparedRequest<ExpectedPage>[],
  random: Random,
  tag: string,
): LoadDefinition<ExpectedPage> {
  return {
    name,
    url: server.graphqlUrl,
    next: uniqueRequests(pages, random.derive(name), tag),
    verify: verifyDashboard,
    verifyEvery: 10,
  };
}

/**
 * The fairness load: `{ __typename }` past the response cache from one connection, idle, then again while 10
 * connections send the slowest of the most expensive requests the limits allow (chosen and timed first).
 */
async function measureFairness(
  root: string,
  server: RegistryServer,
  registry: PreparedRegistry,
  at: LoadSettings,
  loads: LoadResult[],
): Promise<FairnessReport> {
  // One client, one request at a time, past the response cache, in a process of its own (scripts/bench/
  // probe-process.ts: not beside autocannon's event loop); stopping waits for the request in flight, so a probe
  // stuck behind the expensive requests for the whole run still counts.
  const probe = async (
    name:
      | 'fairness: { __typename } idle'
      | 'fairness: { __typename } beside expensive'
      | 'fairness: { __typename } beside a replay',
    seconds: number,
    client?: Awaited<ReturnType<typeof startProbeProcess>>,
  ): Promise<LoadResult> => {
    const running = client ?? (await startProbeProcess(root, server.graphqlUrl));
    progress(`${name}: ${seconds} s, one request at a time…`);
    running.go();
    await sleep(seconds * 1000);
    const result = await running.stop(name);
    if (!client) running.close();
    progress(
      `${name}: ${result.requestsCompleted} answers, p50 ${result.latencyMs.p50.toFixed(2)} ms, p99 ${result.latencyMs.p99.toFixed(2)} ms` +
        (hasErrors(result) ? ' — ERRORS' : ''),
    );
    return result;
  };
  await probe('fairness: { __typename } idle', at.warmupSeconds); // warm-up, not reported
  const idle = await probe('fairness: { __typename } idle', at.durationSeconds);
  loads.push(idle);

  progress('fairness: sizing the most expensive allowed requests to the cost limit…');
  const choice = await chooseExpensiveRequests(server.graphqlUrl, registry.model);
  for (const c of choice.candidates)
    progress(`  ${c.name}: ${c.size}; cost ${c.cost ?? '?'}; ${c.ms.toFixed(1)} ms, ${Math.round(c.bytes / 1024)} KB`);
  for (const d of choice.dropped) progress(`  ${d.name}: not used: ${d.reason}`);
  progress(`  slowest: ${choice.chosen.name}`);

  const expensiveBody = graphqlBody(choice.chosen.query);
  const expensive: LoadDefinition<null> = {
    name: 'fairness: expensive',
    url: server.graphqlUrl,
    next: () => ({ body: expensiveBody, expect: null }),
    fixed: true,
    verify: () => null,
    verifyEvery: 1,
    headers: NO_CACHE,
    // Ten requests that each take a good part of a second alone queue behind one another: allow them time.
    timeoutSeconds: 120,
  };
  // The probe starts when the expensive load's warm-up ends, and measures as long as it does; its CPU is the client's.
  const beside = await startProbeProcess(root, server.graphqlUrl);
  const [heavy, loaded] = await Promise.all([
    measured(expensive, { ...at, connections: FAIRNESS_CONNECTIONS, clientPids: [beside.pid] }),
    sleep(at.warmupSeconds * 1000).then(() =>
      probe('fairness: { __typename } beside expensive', at.durationSeconds, beside),
    ),
  ]);
  beside.close();
  loads.push(loaded, heavy);
  // The expensive requests still in flight when autocannon stopped must not run into the next load.
  const waited = await waitUntilQuiet(server.process.pid);
  if (waited > 500)
    progress(`fairness: waited ${(waited / 1000).toFixed(1)} s for the server to finish the abandoned requests`);
  const replay = await besideReplay(root, server, at, (client) =>
    probe('fairness: { __typename } beside a replay', at.durationSeconds, client),
  );
  loads.push(replay.probe);
  const idleP50 = idle.latencyMs.p50;
  const loadedP50 = loaded.latencyMs.p50;
  return {
    costLimit: choice.costLimit,
    candidates: choice.candidates.map(({ query: _query, ...rest }) => rest),
    dropped: choice.dropped,
    chosen: choice.chosen.name,
    connections: FAIRNESS_CONNECTIONS,
    idleP50Ms: idleP50,
    loadedP50Ms: loadedP50,
    ratio: idleP50 > 0 ? loadedP50 / idleP50 : null,
    replay: {
      entries: replay.entries,
      entriesPerSecond: replay.entriesPerSecond,
      loadedP50Ms: replay.probe.latencyMs.p50,
      ratio: idleP50 > 0 ? replay.probe.latencyMs.p50 / idleP50 : null,
    },
  };
}

/** How many of the newest change-log entries the fairness load's replaying client asks for, each time. */
const REPLAY_ENTRIES = 100_000;

/**
 * The fairness probe beside one WebSocket client that replays the newest REPLAY_ENTRIES entries of the change log
 * (all of it when shorter) as fast as it reads, again and again: the server sends them from the log in pages, and
 * must answer the probe between them.
 */
async function besideReplay(
  root: string,
  server: RegistryServer,
  at: LoadSettings,
  measure: (client: Awaited<ReturnType<typeof startProbeProcess>>) => Promise<LoadResult>,
): Promise<{ probe: LoadResult; entries: number; entriesPerSecond: number }> {
  const end = await logEnd(server.graphqlUrl);
  const entries = Math.min(REPLAY_ENTRIES, end);
  progress(`fairness: replaying the newest ${entries.toLocaleString('en-US')} change-log entries beside the probe…`);
  const replayer = await startReplayer(server.graphqlUrl, end - entries, entries);
  const client = await startProbeProcess(root, server.graphqlUrl);
  await sleep(at.warmupSeconds * 1000);
  const started = Date.now();
  const sentBefore = replayer.sent();
  const result = await measure(client);
  const entriesPerSecond = ((replayer.sent() - sentBefore) * 1000) / (Date.now() - started);
  client.close();
  const done = await replayer.stop();
  progress(`fairness: ${done.replays} whole replays, ${done.entries.toLocaleString('en-US')} entries sent`);
  return { probe: result, entries, entriesPerSecond };
}

/** The newest version of the change log. */
async function logEnd(url: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...NO_CACHE },
    body: JSON.stringify({ query: '{ changes(last: 1) { edges { node { version } } } }' }),
  });
  const body = (await response.json()) as { data?: { changes: { edges: { node: { version: number } }[] } } };
  return body.data?.changes.edges[0]?.node.version ?? 0;
}

/**
 * Sends every resolve request once (10 at a time, past the response cache), so the server's record cache is warm;
 * with `pages`, every dashboard page too.
 */
async function prime(
  server: RegistryServer,
  registry: PreparedRegistry,
  pages: readonly PreparedRequest<ExpectedPage>[] = [],
): Promise<void> {
  const bodies = [...resolveRequests(registry.pairs), ...pages].map((r) => r.body);
  progress(`priming with ${bodies.length} requests${pages.length > 0 ? ' (resolve pairs and dashboard pages)' : ''}…`);
  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++];
        const response = await fetch(server.graphqlUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...NO_CACHE },
          body,
        });
        await response.arrayBuffer();
      }
    }),
  );
}

export async function measured<E>(load: LoadDefinition<E>, loadSettings: LoadSettings): Promise<LoadResult> {
  progress(`${load.name}: ${loadSettings.warmupSeconds} s warm-up, ${loadSettings.durationSeconds} s measured…`);
  const result = await runLoad(load, loadSettings);
  progress(
    `${load.name}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.latencyMs.p50.toFixed(2)} ms, p99 ${result.latencyMs.p99.toFixed(2)} ms` +
      (result.sqlPerRequest === null ? '' : `, ${result.sqlPerRequest.toFixed(2)} SQL/request`) +
      (result.cpuCores
        ? `, CPU cores: target ${result.cpuCores.target.toFixed(2)}, client ${result.cpuCores.client.toFixed(2)}, others ${result.cpuCores.others.toFixed(2)}`
        : '') +
      (hasErrors(result) ? ' — ERRORS' : ''),
  );
  return result;
}

/** All five loads on one registry. */
export async function runFull(root: string, options: BenchOptions): Promise<FullReport> {
  const started = performance.now();
  const registry = await prepareRegistry(root, options, options.size);
  const random = new Random(options.seed).derive('requests');
  const loads: LoadResult[] = [];

  // The bare HTTP limit first, with nothing else running.
  const baseline = await startHttpBaseline(root);
  try {
    const body = graphqlBody(FLOOR_QUERY);
    loads.push(
      await measured(
        {
          name: 'http',
          url: baseline.url,
          next: () => ({ body, expect: null }),
          fixed: true,
          verify: verifyFloor,
          verifyEvery: 1,
        },
        settings(options, null, baseline.process.pid),
      ),
    );
  } finally {
    await baseline.process.stop();
  }

  let server: FullReport['server'] = { startupMs: 0, rssMaxBytes: 0, rssAfterBytes: 0 };
  let impacts: ImpactPreview[] = [];
  const delivery: FullReport['delivery'] = [];
  let fairness: FairnessReport | null = null;
  let churnInfo: FullReport['churn'] = null;
  let freeServer: FullReport['freeServer'] = null;
  await withServer(root, registry, async (running) => {
    const at = settings(options, running);
    // The server's RSS over its whole run, between the loads too (the subscriber runs, the impact previews).
    const lifetime = new RssSampler(running.process.pid);
    lifetime.start(200);
    try {
      await serverRun(running, at);
    } finally {
      lifetime.stop();
    }
    await sleep(500);
    const after = rssBytes(running.process.pid) ?? 0;
    server = { startupMs: running.startupMs, rssMaxBytes: Math.max(lifetime.maxBytes, after), rssAfterBytes: after };
    progress(`server RSS: max ${mb(server.rssMaxBytes)} MB, after the loads ${mb(after)} MB`);
  });

  async function serverRun(running: RegistryServer, at: LoadSettings): Promise<void> {
    loads.push(await measured(floorLoad(running, 'floor'), at));
    loads.push(await measured(resolveLoad(running, registry, random), at));
    const tag = `run-${Date.now().toString(36)}`;
    // The cached resolve load again at once, while a writer registers a resource 20 times a second: the same
    // requests on the same warm caches, so that its ratio to resolve is what the writes cost (after the unique
    // loads, it measured the caches refilling from their one-off entries as well: in a probe, the first resolve+writes
    // after them ran 0.91 × resolve and a second one 1.0 ×, with no request executed).
    const admin = { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` };
    const writer = startPacedClient({
      url: running.graphqlUrl,
      headers: admin,
      perSecond: WRITES_PER_SECOND,
      next: resourceWriteRequests(registry.model, random.derive('resource-writes'), `${tag}-w`),
      verify: verifyResourceWrite,
    });
    let withWrites: LoadResult | null = null;
    try {
      withWrites = await measured({ ...resolveLoad(running, registry, random), name: 'resolve+writes' }, at);
    } finally {
      const written = await writer.stop('writer (beside resolve+writes)');
      progress(
        `writer: ${written.requestsPerSecond.toFixed(1)} writes/s (asked ${WRITES_PER_SECOND}), p50 ${written.latencyMs.p50.toFixed(2)} ms` +
          (hasErrors(written) ? ' — ERRORS' : ''),
      );
      if (withWrites) loads.push(withWrites);
      loads.push(written);
    }

    const pages = dashboardRequests(registry.model);
    loads.push(
      await measured(
        {
          name: 'dashboard',
          url: running.graphqlUrl,
          next: () => random.pick(pages),
          verify: verifyDashboard,
          verifyEvery: 10,
        },
        at,
      ),
    );
    // The same three past the response cache: what the GraphQL layer and the resolution engine cost on their own.
    loads.push(await measured(floorLoad(running, 'floor (no cache)'), at));
    loads.push(await measured(resolveLoad(running, registry, random, true), at));
    loads.push(
      await measured(
        {
          name: 'dashboard (no cache)',
          url: running.graphqlUrl,
          next: () => random.pick(pages),
          verify: verifyDashboard,
          verifyEvery: 10,
          headers: NO_CACHE,
        },
        at,
      ),
    );
    const matrices = matrixRequests(registry.model, random.derive('matrix'));
    loads.push(
      await measured(
        {
          name: 'matrix (no cache)',
          url: running.graphqlUrl,
          next: () => random.pick(matrices),
          verify: verifyMatrix,
          verifyEvery: 10,
          headers: NO_CACHE,
        },
        at,
      ),
    );
    // The floor again, on the server as the loads so far left it (its caches full): the unique loads' ratios are to
    // this one (see withRatios).
    loads.push(await measured(floorLoad(running, 'floor (before the unique loads)'), at));
    // Every body unique, by a variable the query does not declare: no cache keyed by the body can serve it.
    loads.push(await measured(uniqueResolveLoad('unique-resolve', running, registry, random, `${tag}-r`), at));
    loads.push(await measured(uniqueDashboardLoad('unique-dashboard', running, pages, random, `${tag}-d`), at));

    fairness = await measureFairness(root, running, registry, at, loads);

    // Unique query texts of several shapes for a minute: every cache churns; the server's RSS is sampled throughout.
    const churnSeconds = at.durationSeconds * CHURN_DURATION_FACTOR;
    const churn = await measured(
      {
        name: 'churn',
        url: running.graphqlUrl,
        next: churnRequests(registry.model, registry.pairs, random.derive('churn'), `${tag}-c`),
        verify: verifyChurn,
        verifyEvery: 10,
      },
      { ...at, durationSeconds: churnSeconds },
    );
    loads.push(churn);
    churnInfo = {
      seconds: churnSeconds,
      shapes: [...CHURN_SHAPES],
      rssMaxBytes: churn.rssMaxBytes ?? 0,
      rssAfterBytes: rssBytes(running.process.pid) ?? 0,
    };
    progress(`churn: RSS peak ${mb(churnInfo.rssMaxBytes)} MB, ${mb(churnInfo.rssAfterBytes)} MB after`);

    const nextTool = writeRequests(registry.model, random.derive('write'), tag);
    const writeLoad: LoadDefinition<string> = {
      name: 'write',
      url: running.graphqlUrl,
      next: nextTool,
      verify: verifyWrite,
      verifyEvery: 1,
      headers: admin,
    };
    loads.push(await measured(writeLoad, at));

    // The write load again, with 1, 10 and 100 WebSocket subscribers counting what is delivered to them.
    for (const count of options.quick ? [10] : [1, 10, 100]) {
      const subscribers = await openSubscribers(running.graphqlUrl, count);
      await waitForSubscribers(running.origin, count);
      progress(`write with ${count} subscriber${count === 1 ? '' : 's'}: ${at.durationSeconds} s…`);
      const result = await runLoad(writeLoad, { ...at, warmupSeconds: 0 });
      const seen = subscribers.stop(result.durationSeconds);
      await subscribers.close();
      delivery.push({ ...seen, writesPerSecond: result.requestsPerSecond, pacedAt: null });
      progress(
        `  ${Math.round(seen.eventsPerSecond)} events/s delivered (${Math.round(result.requestsPerSecond)} writes/s), ` +
          `commit to arrival p50 ${seen.latencyMs.p50} ms, p99 ${seen.latencyMs.p99} ms`,
      );
      if (hasErrors(result)) loads.push({ ...result, name: 'write' });
    }
    // And with a writer paced at a fixed rate: the delay at the same writes/s, comparable between versions.
    for (const count of options.quick ? [10] : [1, 10, 100]) {
      const rate = pacedRate(count);
      progress(`paced write (${rate}/s) with ${count} subscriber${count === 1 ? '' : 's'}: ${at.durationSeconds} s…`);
      const paced = await pacedDelivery(running, count, nextTool, rate, at.durationSeconds, () =>
        waitForSubscribers(running.origin, count),
      );
      delivery.push(paced.row);
      progress(
        `  ${Math.round(paced.row.eventsPerSecond)} events/s delivered (${paced.row.writesPerSecond.toFixed(1)} writes/s), ` +
          `commit to arrival p50 ${paced.row.latencyMs.p50} ms, p99 ${paced.row.latencyMs.p99} ms`,
      );
      if (hasErrors(paced.writer)) loads.push(paced.writer);
    }

    progress('binding-impact previews (dry runs)…');
    impacts = await measureImpacts(registry.model, running.graphqlUrl, running.origin);
    for (const i of impacts) {
      progress(
        `impact: ${i.name}: ${i.ms.toFixed(0)} ms, ${i.totalCount} changes${i.complete ? '' : ' (work cap reached)'}, ${i.statements} SQL`,
      );
    }
  }

  // The unique loads again, on a second server whose repeated reads cost nothing (--free-reads): the headroom
  // above the data access. Its reads never see writes, so it gets read-only loads only.
  await withServer(
    root,
    registry,
    async (free) => {
      // A fresh process against one that has served every load before: twice the warm-up, after the priming pass.
      const at = { ...settings(options, free), warmupSeconds: options.warmupSeconds * 2 };
      const pages = dashboardRequests(registry.model);
      await prime(free, registry, pages);
      const tag = `free-${Date.now().toString(36)}`;
      const before = loads.length;
      loads.push(
        await measured(uniqueResolveLoad('unique-resolve (free data)', free, registry, random, `${tag}-r`), at),
      );
      loads.push(
        await measured(uniqueDashboardLoad('unique-dashboard (free data)', free, pages, random, `${tag}-d`), at),
      );
      const during = Math.max(0, ...loads.slice(before).map((l) => l.rssMaxBytes ?? 0));
      freeServer = { startupMs: free.startupMs, rssMaxBytes: Math.max(during, rssBytes(free.process.pid) ?? 0) };
    },
    { freeReads: true },
  );

  // The bulk path: an export of this registry registered into an empty server.
  progress('bulk register: export, then register into an empty server…');
  const { types, resources, projects, links, tools } = registry.model.counts;
  const bulkSource = {
    entities: types + resources + projects + links + tools,
    postgresAdminUrl: registry.postgres?.adminUrl ?? null,
  };
  const bulkRegister: BulkRegisterReport = await withServer(root, registry, (source) =>
    measureBulkRegister(root, bulkSource, source, progress),
  );
  progress(
    `bulk register: ${bulkRegister.entities} entities in ${bulkRegister.seconds.toFixed(1)} s = ` +
      `${Math.round(bulkRegister.entitiesPerSecond)}/s (server CPU ${bulkRegister.serverCpuSeconds.toFixed(1)} s), ` +
      `${bulkRegister.changeLogEntries} change-log entries, export ${bulkRegister.sameExport ? 'the same' : 'DIFFERENT'}`,
  );

  const rows = withRatios(loads);
  return {
    kind: 'full',
    ...reportStamp(options),
    registry: registry.info,
    resolvePairs: registry.mix,
    server,
    loads: rows,
    impacts,
    delivery,
    fairness,
    churn: churnInfo,
    freeServer,
    bulkRegister,
    writesPerSecondAsked: WRITES_PER_SECOND,
    targets: fullTargets(rows, server, { fairness, churn: churnInfo, bulkRegister }),
    errors: loads.some(hasErrors),
    elapsedMs: performance.now() - started,
  };
}

/** The resolve load, the unique dashboard page and the matrix (each past the response cache), once per registry size. */
export async function runGrowth(root: string, options: BenchOptions, sizes: readonly number[]): Promise<GrowthReport> {
  const started = performance.now();
  const steps: GrowthStep[] = [];
  for (const size of sizes) {
    const registry = await prepareRegistry(root, options, size);
    const random = new Random(options.seed).derive(`requests-${size}`);
    await withServer(root, registry, async (running) => {
      // Past the response cache, so the growth is the resolution engine's, not the cache's; and after one pass
      // over every pair, so each size is compared in its steady state rather than by how many first reads it has.
      await prime(running, registry);
      const at = settings(options, running);
      const resolve = await measured(resolveLoad(running, registry, random, true), at);
      // The unique dashboard page and the matrix past the response cache, at each size too.
      const pages = dashboardRequests(registry.model);
      const uniqueDashboard = await measured(
        uniqueDashboardLoad('unique-dashboard', running, pages, random, `growth-${size}-d`),
        at,
      );
      const matrices = matrixRequests(registry.model, random.derive('matrix'));
      const matrix = await measured(
        {
          name: 'matrix (no cache)',
          url: running.graphqlUrl,
          next: () => random.pick(matrices),
          verify: verifyMatrix,
          verifyEvery: 10,
          headers: NO_CACHE,
        },
        at,
      );
      const loads = [resolve, uniqueDashboard, matrix];
      const rss = Math.max(...loads.map((load) => load.rssMaxBytes ?? 0), rssBytes(running.process.pid) ?? 0);
      steps.push({
        registry: registry.info,
        resolvePairs: registry.mix,
        startupMs: running.startupMs,
        rssMaxBytes: rss,
        resolve,
        uniqueDashboard,
        matrix,
      });
    });
  }
  const first = steps[0]?.resolve.latencyMs.p50;
  const last = steps[steps.length - 1]?.resolve.latencyMs.p50;
  const p50Ratio = steps.length >= 2 && first ? last / first : null;
  return {
    kind: 'growth',
    ...reportStamp(options),
    steps,
    p50Ratio,
    targets: growthTargets(steps, p50Ratio, options.backend),
    errors: steps.some((s) => [s.resolve, s.uniqueDashboard, s.matrix].some((load) => load && hasErrors(load))),
    elapsedMs: performance.now() - started,
  };
}
