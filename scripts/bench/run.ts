/**
 * The two kinds of benchmark run. A full run measures the five loads (http,
 * floor, resolve, dashboard, write) on one registry; a growth run (`--sizes`)
 * measures only the resolve load on a registry of each size. Both work on a
 * throw-away copy of the cached database, so the write load never changes
 * the cache, and both stop every process they started.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cachedRegistry, removeDatabaseFiles, type CachedRegistry } from './generate';
import { measureImpacts, type ImpactPreview } from './impacts';
import { openSubscribers } from './subscribers';
import { hasErrors, NO_CACHE, runLoad, type LoadDefinition, type LoadResult, type LoadSettings } from './loads';
import { loadRegistryModel, type RegistryModel } from './model';
import { formatSize, type BenchOptions } from './options';
import {
  BENCH_ADMIN_TOKEN,
  rssBytes,
  sleep,
  startHttpBaseline,
  waitForSubscribers,
  startRegistryServer,
  type RegistryServer,
} from './processes';
import { Random } from './random';
import {
  fullTargets,
  growthTargets,
  machineInfo,
  mb,
  describeMix,
  withRatios,
  type FullReport,
  type GrowthReport,
  type GrowthStep,
  type RegistryInfo,
} from './report';
import {
  chooseResolvePairs,
  dashboardRequests,
  FLOOR_QUERY,
  graphqlBody,
  matrixRequests,
  verifyMatrix,
  resolveRequests,
  verifyDashboard,
  verifyFloor,
  verifyResolve,
  verifyWrite,
  writeRequests,
  type ExpectedSlot,
  type ResolveMix,
} from './workloads';

/** How many distinct resolving pairs to look for. */
const RESOLVE_PAIRS = 5000;

/** Progress goes to stderr; the report goes to stdout. */
export function progress(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

/** Everything the loads need from one registry. */
interface PreparedRegistry {
  readonly cached: CachedRegistry;
  readonly model: RegistryModel;
  readonly info: RegistryInfo;
  readonly pairs: ReturnType<typeof chooseResolvePairs>['pairs'];
  readonly mix: ResolveMix;
}

async function prepareRegistry(root: string, options: BenchOptions, size: number): Promise<PreparedRegistry> {
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
  return {
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

/** A copy of the cached database for one server run, removed afterwards. */
function workingCopy(root: string, source: string): string {
  const dir = join(root, 'bench-results', 'run');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `registry-${process.pid}.sqlite`);
  removeDatabaseFiles(path);
  copyFileSync(source, path);
  return path;
}

/** Starts the server on a working copy, runs `work`, and always stops it and removes the copy. */
async function withServer<T>(
  root: string,
  registry: PreparedRegistry,
  work: (server: RegistryServer) => Promise<T>,
): Promise<T> {
  const file = workingCopy(root, registry.cached.path);
  try {
    const server = await startRegistryServer(root, file);
    progress(`server pid ${server.process.pid} ready in ${(server.startupMs / 1000).toFixed(2)} s`);
    try {
      return await work(server);
    } finally {
      await server.process.stop();
    }
  } finally {
    removeDatabaseFiles(file);
  }
}

/** Load settings against the registry server, or (with `targetPid`) against the http baseline. */
function settings(options: BenchOptions, server: RegistryServer | null, targetPid?: number): LoadSettings {
  return {
    durationSeconds: options.durationSeconds,
    warmupSeconds: options.warmupSeconds,
    connections: options.connections,
    serverOrigin: server?.origin ?? null,
    serverPid: server?.process.pid ?? null,
    targetPid: server?.process.pid ?? targetPid ?? process.pid,
  };
}

function resolveLoad(
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

/** Sends every resolve request once (10 at a time, past the response cache), so the server's record cache is warm. */
async function prime(server: RegistryServer, registry: PreparedRegistry): Promise<void> {
  const bodies = resolveRequests(registry.pairs).map((r) => r.body);
  progress(`resolve: priming with ${bodies.length} requests…`);
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

async function measured<E>(load: LoadDefinition<E>, loadSettings: LoadSettings): Promise<LoadResult> {
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
  await withServer(root, registry, async (running) => {
    const at = settings(options, running);
    const floorBody = graphqlBody(FLOOR_QUERY);
    loads.push(
      await measured(
        {
          name: 'floor',
          url: running.graphqlUrl,
          next: () => ({ body: floorBody, expect: null }),
          fixed: true,
          verify: verifyFloor,
          verifyEvery: 1,
        },
        at,
      ),
    );
    loads.push(await measured(resolveLoad(running, registry, random), at));
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
    loads.push(
      await measured(
        {
          name: 'floor (no cache)',
          url: running.graphqlUrl,
          next: () => ({ body: floorBody, expect: null }),
          fixed: true,
          verify: verifyFloor,
          verifyEvery: 1,
          headers: NO_CACHE,
        },
        at,
      ),
    );
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
    const nextTool = writeRequests(registry.model, random.derive('write'), `run-${Date.now().toString(36)}`);
    const writeLoad: LoadDefinition<string> = {
      name: 'write',
      url: running.graphqlUrl,
      next: nextTool,
      verify: verifyWrite,
      verifyEvery: 1,
      headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
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
      delivery.push({ ...seen, writesPerSecond: result.requestsPerSecond });
      progress(
        `  ${Math.round(seen.eventsPerSecond)} events/s delivered (${Math.round(result.requestsPerSecond)} writes/s), ` +
          `commit to arrival p50 ${seen.latencyMs.p50} ms, p99 ${seen.latencyMs.p99} ms`,
      );
      if (hasErrors(result)) loads.push({ ...result, name: 'write' });
    }

    progress('binding-impact previews (dry runs)…');
    impacts = await measureImpacts(registry.model, running.graphqlUrl, running.origin);
    for (const i of impacts) {
      progress(
        `impact: ${i.name}: ${i.ms.toFixed(0)} ms, ${i.totalCount} changes${i.complete ? '' : ' (work cap reached)'}, ${i.statements} SQL`,
      );
    }

    await sleep(500);
    const after = rssBytes(running.process.pid) ?? 0;
    const duringMax = Math.max(0, ...loads.map((l) => l.rssMaxBytes ?? 0));
    server = { startupMs: running.startupMs, rssMaxBytes: Math.max(duringMax, after), rssAfterBytes: after };
    progress(`server RSS: max ${mb(server.rssMaxBytes)} MB, after the loads ${mb(after)} MB`);
  });

  const rows = withRatios(loads);
  return {
    kind: 'full',
    date: new Date().toISOString(),
    machine: machineInfo(),
    options,
    registry: registry.info,
    resolvePairs: registry.mix,
    server,
    loads: rows,
    impacts,
    delivery,
    targets: fullTargets(rows, server),
    errors: loads.some(hasErrors),
    elapsedMs: performance.now() - started,
  };
}

/** The resolve load alone, once per registry size. */
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
      const resolve = await measured(resolveLoad(running, registry, random, true), settings(options, running));
      const rss = Math.max(resolve.rssMaxBytes ?? 0, rssBytes(running.process.pid) ?? 0);
      steps.push({
        registry: registry.info,
        resolvePairs: registry.mix,
        startupMs: running.startupMs,
        rssMaxBytes: rss,
        resolve,
      });
    });
  }
  const first = steps[0]?.resolve.latencyMs.p50;
  const last = steps[steps.length - 1]?.resolve.latencyMs.p50;
  const p50Ratio = steps.length >= 2 && first ? last / first : null;
  return {
    kind: 'growth',
    date: new Date().toISOString(),
    machine: machineInfo(),
    options,
    steps,
    p50Ratio,
    targets: growthTargets(steps, p50Ratio),
    errors: steps.some((s) => hasErrors(s.resolve)),
    elapsedMs: performance.now() - started,
  };
}
