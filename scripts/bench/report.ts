/**
 * Turns measured loads into the benchmark's report: the Markdown table, the
 * ratios (each load to the floor, the floor to bare HTTP), the informational
 * PASS/FAIL lines for the targets of the performance issue, and the JSON file
 * with the same figures.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname } from 'node:path';
import type { BulkRegisterReport } from './bulk-register';
import type { ImpactPreview } from './impacts';
import type { DeliveryRow } from './delivery';
import { errorCount, type LoadName, type LoadResult } from './loads';
import type { RegistryCounts } from './model';
import { formatSize, type BenchOptions } from './options';
import type { ResolveMix } from './workloads';

/** The targets of the performance issue, checked against one run's figures. */
export const TARGETS = {
  floorToHttp: 0.25,
  resolveToFloor: 0.5,
  dashboardToFloor: 0.1,
  dashboardToFloorStretch: 0.2,
  resolveSqlPerRequest: 3,
  dashboardSqlPerRequest: 8,
  rssBytes: 300 * 1024 * 1024,
  startupMs: 2000,
  /** Issue 33: start-up on PostgreSQL (SQLite's is `startupMs`). */
  startupMsPostgres: 5000,
  /** Issue 33 (was 1.3): p50 at the largest size of a growth run, to the smallest's (response cache defeated). */
  growthP50Ratio: 2,
  /** Issue 33: req/s at the largest size, to the smallest's. */
  growthRateRatio: 0.5,
  /** Issue 33: resolve's statements per request at every size of a growth run. */
  growthSqlPerRequest: 1,
  /** Issue 33: the ratios every load must reach, on PostgreSQL as on SQLite. */
  issue33: {
    resolveToFloor: 0.8,
    uniqueResolveToFloor: 0.5,
    uniqueDashboardToFloor: 0.2,
    /** `tool-registry register` of an export into an empty server. */
    bulkEntitiesPerSecond: 5_000,
    /** The matrix (20 × 50, past the response cache): 3 × the 137 req/s the issue measured on this machine. */
    matrixPerSecond: 3 * 137,
    /** The write load: 2 × the higher of the 493–603 writes/s the issue measured, at ≤ 5 statements a simple write. */
    writesPerSecond: 2 * 603,
  },
  /** Issue 13: every body unique, past every cache keyed by the body. */
  uniqueResolveToFloor: 0.4,
  uniqueDashboardToFloor: 0.15,
  /** Issue 13: the cached resolve load while a writer registers 20 resources a second, to resolve without writes. */
  resolveWithWritesToResolve: 0.6,
  /** Issue 11, item 8: RSS under the churn load. */
  churnRssBytes: 300 * 1024 * 1024,
  /** Issue 11, item 7: a trivial query's p50 beside 10 connections of the most expensive allowed requests, to idle. */
  fairnessP50Ratio: 10,
} as const;

/** One target: the measured value, the limit, and whether it holds (null when it could not be measured). */
export interface TargetCheck {
  readonly target: string;
  readonly measured: string;
  readonly pass: boolean | null;
}

/** The registry a run measured. */
export interface RegistryInfo {
  readonly size: number;
  readonly seed: string;
  readonly file: string;
  readonly bytes: number;
  /** Milliseconds spent generating it in this run; null when the cached file was used. */
  readonly generatedMs: number | null;
  readonly counts: RegistryCounts;
}

/** A load's row: its figures and its ratio to the floor (the floor's to http). */
export interface LoadRow extends LoadResult {
  readonly ratio: {
    readonly value: number;
    readonly to: 'http' | 'floor' | 'floor (no cache)' | 'floor (before the unique loads)' | 'resolve';
  } | null;
}

/** The fairness load: the expensive requests tried, the one sent, and the trivial query's p50 idle and beside it. */
export interface FairnessReport {
  /** QUERY_LIMITS.cost when the requests were sized. */
  readonly costLimit: number;
  readonly candidates: {
    readonly name: string;
    readonly size: string;
    readonly cost: number | null;
    readonly ms: number;
    readonly bytes: number;
  }[];
  readonly dropped: { readonly name: string; readonly reason: string }[];
  /** The name of the candidate the load sent: the slowest per request. */
  readonly chosen: string;
  readonly connections: number;
  readonly idleP50Ms: number;
  readonly loadedP50Ms: number;
  /** loaded / idle p50. */
  readonly ratio: number | null;
  /** The same probe beside one client replaying the change log over WebSocket, as fast as it reads. */
  readonly replay: {
    /** Entries in one replay (the newest of the log: 100,000 at the default size). */
    readonly entries: number;
    /** Entries the client was sent per second while the probe ran. */
    readonly entriesPerSecond: number;
    readonly loadedP50Ms: number;
    /** loaded / idle p50. */
    readonly ratio: number | null;
  } | null;
}

/** The churn load: how long it ran, its shapes, and the server's RSS. */
export interface ChurnReport {
  readonly seconds: number;
  readonly shapes: string[];
  readonly rssMaxBytes: number;
  readonly rssAfterBytes: number;
}

/** The report of a full run (all five loads on one registry). */
export interface FullReport {
  readonly kind: 'full';
  readonly date: string;
  readonly machine: MachineInfo;
  readonly options: BenchOptions;
  readonly registry: RegistryInfo;
  readonly resolvePairs: ResolveMix;
  readonly server: { readonly startupMs: number; readonly rssMaxBytes: number; readonly rssAfterBytes: number };
  readonly loads: LoadRow[];
  /** Dry runs of the widest-reaching mutations, timed once each. */
  readonly impacts: ImpactPreview[];
  /** Subscription events delivered during the write load (unpaced), then beside a paced writer, by number of subscribers. */
  readonly delivery: DeliveryRow[];
  readonly fairness: FairnessReport | null;
  readonly churn: ChurnReport | null;
  /** The second server, with --free-reads, that served the "(free data)" rows. */
  readonly freeServer: { readonly startupMs: number; readonly rssMaxBytes: number } | null;
  /** The bulk path: an export registered into an empty server (absent from older reports). */
  readonly bulkRegister?: BulkRegisterReport;
  /** The paced writer's asked rate during resolve+writes (the achieved one is its row's req/s). */
  readonly writesPerSecondAsked: number;
  readonly targets: TargetCheck[];
  readonly errors: boolean;
  readonly elapsedMs: number;
}

/** One size of a growth run. */
export interface GrowthStep {
  readonly registry: RegistryInfo;
  readonly resolvePairs: ResolveMix;
  readonly startupMs: number;
  readonly rssMaxBytes: number;
  readonly resolve: LoadResult;
  /** The unique dashboard page and the matrix past the response cache (absent from older reports). */
  readonly uniqueDashboard?: LoadResult;
  readonly matrix?: LoadResult;
}

/** The report of a growth run (`--sizes`): the resolve load, the unique dashboard page and the matrix at each size. */
export interface GrowthReport {
  readonly kind: 'growth';
  readonly date: string;
  readonly machine: MachineInfo;
  readonly options: BenchOptions;
  readonly steps: GrowthStep[];
  /** p50 at the largest size over p50 at the smallest. */
  readonly p50Ratio: number | null;
  readonly targets: TargetCheck[];
  readonly errors: boolean;
  readonly elapsedMs: number;
}

/** A metrics run (`--metrics`): floor and resolve with METRICS=true and with it off, in turn. */
export interface MetricsOverheadReport {
  readonly kind: 'metrics';
  readonly date: string;
  readonly machine: MachineInfo;
  readonly options: BenchOptions;
  readonly registry: RegistryInfo;
  readonly rounds: number;
  /** Every measured load, in the order run. */
  readonly loads: readonly LoadResult[];
  readonly scrapes: number;
  readonly scrapeFailures: number;
  readonly errors: boolean;
  readonly elapsedMs: number;
}

/**
 * The metrics run as a Markdown table: for floor and resolve, the requests a
 * second with metrics off and on (each round, then all rounds together), the
 * ratio of on to off, and the server's CPU time per request on each side.
 */
export function metricsOverheadTable(report: MetricsOverheadReport): string {
  const lines = [
    '| Load | Metrics off: req/s by round | Metrics on: req/s by round | Off: req/s (all rounds) | On: req/s (all rounds) | On / off | On / off, median of the rounds | Server CPU µs/request, off → on | Others (cores, max) |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const load of ['floor', 'resolve'] as const) {
    const off = report.loads.filter((l) => l.name === `${load} (metrics off)`);
    const on = report.loads.filter((l) => l.name === `${load} (metrics on)`);
    const rate = (runs: readonly LoadResult[]) =>
      runs.reduce((n, r) => n + r.requestsCompleted, 0) / runs.reduce((s, r) => s + r.durationSeconds, 0);
    const cpuPerRequest = (runs: readonly LoadResult[]) => {
      const busy = runs.reduce((s, r) => s + (r.cpuCores?.target ?? 0) * r.durationSeconds, 0);
      return (busy / runs.reduce((n, r) => n + r.requestsCompleted, 0)) * 1e6;
    };
    const others = Math.max(0, ...[...off, ...on].map((r) => r.cpuCores?.others ?? 0));
    lines.push(
      `| ${load} | ${off.map((r) => int(r.requestsPerSecond)).join(', ')} | ${on.map((r) => int(r.requestsPerSecond)).join(', ')} | ${int(rate(off))} | ${int(rate(on))} | ${(rate(on) / rate(off)).toFixed(3)} | ${pairedMedian(on, off).toFixed(3)} | ${cpuPerRequest(off).toFixed(1)} → ${cpuPerRequest(on).toFixed(1)} | ${others.toFixed(2)} |`,
    );
  }
  lines.push(
    '',
    `${report.rounds} round${report.rounds === 1 ? '' : 's'}, each a fresh pair side by side: a server with metrics off and one with METRICS=true scraped every second (${report.scrapes} scrapes, ${report.scrapeFailures} failed), each load measured on both in alternating order; ` +
      `${report.options.connections} connections, ${Math.max(1, report.options.durationSeconds / 2)} s per measurement after ${report.options.warmupSeconds} s of warm-up; ${formatSize(report.registry.size)} registry, seed ${report.options.seed}; ` +
      `${report.machine.cpus} × ${report.machine.cpuModel}, Node ${report.machine.node}; ${report.date}.`,
    ...busyMachineNote(report.loads),
  );
  return lines.join('\n');
}

/**
 * The median over the rounds of each round's on / off (the i-th run of each side is one round's pair): a server
 * process that ran at half speed for its whole life (it happens; see side-by-side.ts) moves it by one round.
 */
export function pairedMedian(on: readonly LoadResult[], off: readonly LoadResult[]): number {
  return median(on.slice(0, off.length).map((r, i) => r.requestsPerSecond / off[i].requestsPerSecond));
}

/** The median of the finite numbers given; 0 when there are none. */
export function median(values: readonly number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export interface MachineInfo {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly node: string;
  readonly platform: string;
}

/** What every report starts with: when, on what machine, with which options. */
export function reportStamp(options: BenchOptions): { date: string; machine: MachineInfo; options: BenchOptions } {
  return { date: new Date().toISOString(), machine: machineInfo(), options };
}

export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model ?? 'unknown',
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

/** Loads that have no ratio: the paced writer and the fairness rows (their figure is the p50 ratio below the table). */
const WITHOUT_RATIO: readonly LoadName[] = [
  'http',
  'writer (beside resolve+writes)',
  'fairness: { __typename } idle',
  'fairness: { __typename } beside expensive',
  'fairness: { __typename } beside a replay',
  'fairness: expensive',
];

/**
 * Adds each load's ratio: floor to http, "(no cache)" loads to the uncached floor, resolve+writes to resolve, the
 * unique loads to the floor measured right before them on the same server (when there is one), every other server
 * load (the floor measured again and the "(free data)" ones included) to the floor.
 *
 * The unique loads run after the others have filled the server's caches (about 100 MB of heap), and the same
 * `{ __typename }` costs the server about a third more then than on the empty server the first floor runs on
 * (young-generation collections take about twice as long on the bigger heap): 45 against 62 µs of CPU a request
 * in interleaved runs. So their ratio is taken to a floor measured in the state they run in.
 */
export function withRatios(loads: readonly LoadResult[]): LoadRow[] {
  const rate = (name: LoadName) => loads.find((l) => l.name === name)?.requestsPerSecond ?? null;
  const http = rate('http');
  const floor = rate('floor');
  const floorBeforeUnique = rate('floor (before the unique loads)');
  const freshFloor = rate('floor (no cache)');
  const resolve = rate('resolve');
  return loads.map((load) => {
    if (WITHOUT_RATIO.includes(load.name)) return { ...load, ratio: null };
    if (load.name === 'resolve+writes')
      return { ...load, ratio: resolve ? { value: load.requestsPerSecond / resolve, to: 'resolve' } : null };
    if (load.name === 'floor' || load.name === 'floor (no cache)')
      return { ...load, ratio: http ? { value: load.requestsPerSecond / http, to: 'http' } : null };
    if (load.name.endsWith('(no cache)'))
      return {
        ...load,
        ratio: freshFloor ? { value: load.requestsPerSecond / freshFloor, to: 'floor (no cache)' } : null,
      };
    if ((load.name === 'unique-resolve' || load.name === 'unique-dashboard') && floorBeforeUnique)
      return {
        ...load,
        ratio: { value: load.requestsPerSecond / floorBeforeUnique, to: 'floor (before the unique loads)' },
      };
    return { ...load, ratio: floor ? { value: load.requestsPerSecond / floor, to: 'floor' } : null };
  });
}

/** The targets for a full run. Informational: they never change the exit code. */
export function fullTargets(
  rows: readonly LoadRow[],
  server: FullReport['server'],
  extra: {
    readonly fairness: FairnessReport | null;
    readonly churn: ChurnReport | null;
    readonly bulkRegister?: BulkRegisterReport;
  } = {
    fairness: null,
    churn: null,
  },
): TargetCheck[] {
  const row = (name: LoadName) => rows.find((r) => r.name === name);
  // A load's own req/s against a figure measured on this machine (the scale issue's absolute targets).
  const rateCheck = (name: LoadName, min: number, what: string): TargetCheck => {
    const rate = row(name)?.requestsPerSecond;
    return {
      target: `${name} ≥ ${int(min)} req/s (${what})`,
      measured: rate === undefined ? 'not measured' : `${int(Math.round(rate))} req/s`,
      pass: rate === undefined ? null : rate >= min,
    };
  };
  // `to` names what the ratio is to; by default, what the row's own ratio says.
  const ratioCheck = (name: LoadName, min: number, to?: string): TargetCheck => {
    const ratio = row(name)?.ratio?.value;
    const base = to ?? row(name)?.ratio?.to ?? 'floor';
    return {
      target: `${name} ≥ ${min} × ${base} req/s`,
      measured: ratio === undefined ? 'not measured' : `${ratio.toFixed(3)} × ${base}`,
      pass: ratio === undefined ? null : ratio >= min,
    };
  };
  const sqlCheck = (name: LoadName, max: number): TargetCheck => {
    const perRequest = row(name)?.sqlPerRequest;
    return {
      target: `${name} ≤ ${max} SQL statements per request`,
      measured: perRequest == null ? 'not measured' : perRequest.toFixed(2),
      pass: perRequest == null ? null : perRequest <= max,
    };
  };
  return [
    ratioCheck('floor', TARGETS.floorToHttp, 'http'),
    ratioCheck('resolve', TARGETS.resolveToFloor, 'floor'),
    ratioCheck('dashboard', TARGETS.dashboardToFloor, 'floor'),
    {
      ...ratioCheck('dashboard', TARGETS.dashboardToFloorStretch, 'floor'),
      target: `dashboard ≥ ${TARGETS.dashboardToFloorStretch} × floor req/s (stretch)`,
    },
    sqlCheck('resolve', TARGETS.resolveSqlPerRequest),
    sqlCheck('dashboard', TARGETS.dashboardSqlPerRequest),
    {
      target: `server RSS ≤ ${mb(TARGETS.rssBytes)} MB`,
      measured: `${mb(server.rssMaxBytes)} MB (max)`,
      pass: server.rssMaxBytes <= TARGETS.rssBytes,
    },
    {
      target: `start-up ≤ ${TARGETS.startupMs / 1000} s`,
      measured: `${(server.startupMs / 1000).toFixed(2)} s`,
      pass: server.startupMs <= TARGETS.startupMs,
    },
    ratioCheck('unique-resolve', TARGETS.uniqueResolveToFloor),
    ratioCheck('unique-dashboard', TARGETS.uniqueDashboardToFloor),
    {
      ...ratioCheck('resolve+writes', TARGETS.resolveWithWritesToResolve, 'resolve'),
      target: `resolve+writes ≥ ${TARGETS.resolveWithWritesToResolve} × resolve req/s (a resource registered ${writerNote(rows)})`,
    },
    extra.churn
      ? {
          target: `server RSS ≤ ${mb(TARGETS.churnRssBytes)} MB under ${extra.churn.seconds} s of unique queries (churn)`,
          measured: `${mb(extra.churn.rssMaxBytes)} MB (peak)`,
          pass: extra.churn.rssMaxBytes <= TARGETS.churnRssBytes,
        }
      : { target: `churn: server RSS ≤ ${mb(TARGETS.churnRssBytes)} MB`, measured: 'not measured', pass: null },
    extra.fairness && extra.fairness.ratio !== null
      ? {
          target: `{ __typename } p50 beside ${extra.fairness.connections} connections of "${extra.fairness.chosen}" ≤ ${TARGETS.fairnessP50Ratio} × idle p50`,
          measured: `${ms(extra.fairness.loadedP50Ms)} ms vs ${ms(extra.fairness.idleP50Ms)} ms idle = ${extra.fairness.ratio.toFixed(1)}×`,
          pass: extra.fairness.ratio <= TARGETS.fairnessP50Ratio,
        }
      : { target: `fairness: p50 ≤ ${TARGETS.fairnessP50Ratio} × idle`, measured: 'not measured', pass: null },
    extra.fairness?.replay && extra.fairness.replay.ratio !== null
      ? {
          target: `{ __typename } p50 beside a replay of ${int(extra.fairness.replay.entries)} change-log entries ≤ ${TARGETS.fairnessP50Ratio} × idle p50`,
          measured: `${ms(extra.fairness.replay.loadedP50Ms)} ms vs ${ms(extra.fairness.idleP50Ms)} ms idle = ${extra.fairness.replay.ratio.toFixed(1)}× (${int(extra.fairness.replay.entriesPerSecond)} entries/s replayed)`,
          pass: extra.fairness.replay.ratio <= TARGETS.fairnessP50Ratio,
        }
      : {
          target: `fairness beside a replay: p50 ≤ ${TARGETS.fairnessP50Ratio} × idle`,
          measured: 'not measured',
          pass: null,
        },
    // Issue 33's, on either backend (the same run with --backend postgres checks them there).
    issue33(ratioCheck('resolve', TARGETS.issue33.resolveToFloor, 'floor')),
    issue33(ratioCheck('unique-resolve', TARGETS.issue33.uniqueResolveToFloor)),
    issue33(ratioCheck('unique-dashboard', TARGETS.issue33.uniqueDashboardToFloor)),
    issue33(rateCheck('matrix (no cache)', TARGETS.issue33.matrixPerSecond, '3 × the 137 req/s measured before')),
    issue33(rateCheck('write', TARGETS.issue33.writesPerSecond, '2 × the 603 writes/s measured before')),
    issue33(bulkCheck(extra.bulkRegister)),
  ];
}

/** The bulk path: fast enough, with every entity logged, and registering exactly what was exported. */
function bulkCheck(bulk: BulkRegisterReport | undefined): TargetCheck {
  const target =
    `bulk register ≥ ${int(TARGETS.issue33.bulkEntitiesPerSecond)} entities/s ` +
    '(an export registered into an empty server; one change-log entry per entity, and the same export after)';
  if (!bulk) return { target, measured: 'not measured', pass: null };
  const logged = bulk.changeLogEntries === bulk.entities;
  return {
    target,
    measured:
      `${int(Math.round(bulk.entitiesPerSecond))}/s (${int(bulk.entities)} in ${bulk.seconds.toFixed(1)} s), ` +
      `${int(bulk.changeLogEntries)} change-log entries, ${bulk.sameExport ? 'the same export' : 'a DIFFERENT export'}`,
    pass: bulk.entitiesPerSecond >= TARGETS.issue33.bulkEntitiesPerSecond && logged && bulk.sameExport,
  };
}

function issue33(check: TargetCheck): TargetCheck {
  return { ...check, target: `${check.target} (issue 33)` };
}

/** "20 times a second (achieved 19.8/s)", from the writer's row. */
function writerNote(rows: readonly LoadRow[]): string {
  const writer = rows.find((r) => r.name === 'writer (beside resolve+writes)');
  return writer ? `by a paced writer, achieved ${writer.requestsPerSecond.toFixed(1)} writes/s` : 'by a paced writer';
}

/** The growth target: resolve p50 at the largest size at most 1.3 × at the smallest. */
export function growthTargets(
  steps: readonly GrowthStep[],
  p50Ratio: number | null,
  backend: 'sqlite' | 'postgres' = 'sqlite',
): TargetCheck[] {
  const startupMs = backend === 'postgres' ? TARGETS.startupMsPostgres : TARGETS.startupMs;
  // At every size, even a single one: statements, memory and start-up.
  const perStep = steps.flatMap((step) => {
    const at = formatSize(step.registry.size);
    const perRequest = step.resolve.sqlPerRequest;
    return [
      {
        target: `resolve ≤ ${TARGETS.growthSqlPerRequest} SQL statement per request at ${at}`,
        measured: perRequest == null ? 'not measured' : perRequest.toFixed(2),
        pass: perRequest == null ? null : perRequest <= TARGETS.growthSqlPerRequest,
      },
      {
        target: `RSS ≤ ${mb(TARGETS.rssBytes)} MB at ${at}`,
        measured: `${mb(step.rssMaxBytes)} MB`,
        pass: step.rssMaxBytes <= TARGETS.rssBytes,
      },
      {
        target: `start-up ≤ ${startupMs / 1000} s on ${backend} at ${at}`,
        measured: `${(step.startupMs / 1000).toFixed(2)} s`,
        pass: step.startupMs <= startupMs,
      },
    ];
  });
  if (steps.length < 2 || p50Ratio === null)
    return [
      { target: `resolve p50 growth ≤ ${TARGETS.growthP50Ratio}×`, measured: 'needs two sizes', pass: null },
      ...perStep,
    ];
  const first = steps[0];
  const last = steps[steps.length - 1];
  const rateRatio = last.resolve.requestsPerSecond / first.resolve.requestsPerSecond;
  return [
    {
      target: `resolve p50 at ${formatSize(last.registry.size)} ≤ ${TARGETS.growthP50Ratio} × p50 at ${formatSize(first.registry.size)}`,
      measured: `${p50Ratio.toFixed(2)}×`,
      pass: p50Ratio <= TARGETS.growthP50Ratio,
    },
    {
      target: `resolve req/s at ${formatSize(last.registry.size)} ≥ ${TARGETS.growthRateRatio} × req/s at ${formatSize(first.registry.size)}`,
      measured: `${rateRatio.toFixed(2)}×`,
      pass: rateRatio >= TARGETS.growthRateRatio,
    },
    ...perStep,
  ];
}

/** The Markdown table of a full run. */
export function fullTable(report: FullReport): string {
  const lines = [
    '| Load | req/s | p50 (ms) | p99 (ms) | Ratio | SQL / request | CPU cores: server / client / others | Errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of report.loads) {
    const ratio = row.ratio ? `${row.ratio.value.toFixed(3)} × ${row.ratio.to}` : '—';
    const sql = row.sqlPerRequest == null ? '—' : row.sqlPerRequest.toFixed(2);
    lines.push(
      `| ${row.name} | ${int(row.requestsPerSecond)} | ${ms(row.latencyMs.p50)} | ${ms(row.latencyMs.p99)} | ${ratio} | ${sql} | ${cpu(row)} | ${totalErrors(row)} |`,
    );
  }
  const r = report.registry;
  lines.push(
    '',
    `Server: start-up ${(report.server.startupMs / 1000).toFixed(2)} s (spawn to /readyz 200); RSS max ${mb(report.server.rssMaxBytes)} MB, after the loads ${mb(report.server.rssAfterBytes)} MB.`,
    `Registry: ${formatSize(r.size)} (seed ${r.seed}): ${describeCounts(r.counts)}; ${mb(r.bytes)} MB file, ${r.generatedMs === null ? 'cached' : `generated in ${(r.generatedMs / 1000).toFixed(2)} s`}.`,
    `Resolve pairs: ${describeMix(report.resolvePairs)}.`,
    `${report.options.connections} connections, ${report.options.durationSeconds} s per load after ${report.options.warmupSeconds} s of warm-up; ${report.machine.cpus} × ${report.machine.cpuModel}, Node ${report.machine.node}; ${report.date}.`,
    ...newLoadNotes(report),
    ...busyMachineNote(report.loads),
  );
  return lines.join('\n');
}

/** One line each on resolve+writes, the free-data headroom, the fairness load and the churn load. */
function newLoadNotes(report: FullReport): string[] {
  const row = (name: LoadName) => report.loads.find((l) => l.name === name);
  const notes: string[] = [];
  const writer = row('writer (beside resolve+writes)');
  if (writer)
    notes.push(
      `resolve+writes: a writer registered a resource every ${Math.round(1000 / report.writesPerSecondAsked)} ms (asked ${report.writesPerSecondAsked}/s, achieved ${writer.requestsPerSecond.toFixed(1)}/s, write p50 ${ms(writer.latencyMs.p50)} ms); its ratio is to resolve without writes.`,
    );
  const floor = row('floor')?.requestsPerSecond;
  const again = row('floor (before the unique loads)')?.requestsPerSecond;
  if (floor && again) {
    const toFirst = (name: 'unique-resolve' | 'unique-dashboard') => {
      const rate = row(name)?.requestsPerSecond;
      return rate ? `${name} ${(rate / floor).toFixed(3)} ×` : null;
    };
    const shares = [toFirst('unique-resolve'), toFirst('unique-dashboard')].filter((h) => h !== null);
    notes.push(
      `Floor before the unique loads: ${int(again)} req/s, ${(again / floor).toFixed(3)} × the floor measured first on the empty server; the unique loads' ratios are to it (to the first floor they are ${shares.join(', ')}).`,
    );
  }
  const headroom = (name: 'unique-resolve' | 'unique-dashboard') => {
    const real = row(name)?.requestsPerSecond;
    const free = row(`${name} (free data)`)?.requestsPerSecond;
    return real && free ? `${name} ${(free / real).toFixed(2)}×` : null;
  };
  const free = [headroom('unique-resolve'), headroom('unique-dashboard')].filter((h) => h !== null);
  if (report.freeServer && free.length > 0)
    notes.push(
      `Free data (a second server, --free-reads: repeated reads from memory, read-only loads; start-up ${(report.freeServer.startupMs / 1000).toFixed(2)} s, RSS max ${mb(report.freeServer.rssMaxBytes)} MB): the same unique loads went ${free.join(', ')} as fast as on real data.`,
    );
  if (report.fairness) {
    const answers = (name: LoadName) => int(row(name)?.requestsCompleted ?? 0);
    notes.push(
      `Fairness: { __typename } past the response cache, one request at a time: p50 ${ms(report.fairness.idleP50Ms)} ms idle (${answers('fairness: { __typename } idle')} answers), ${ms(report.fairness.loadedP50Ms)} ms (${answers('fairness: { __typename } beside expensive')} answers) beside ${report.fairness.connections} connections sending "${report.fairness.chosen}" (the slowest per request of the table below; ${answers('fairness: expensive')} of them completed in the measured run).`,
    );
    const replay = report.fairness.replay;
    if (replay)
      notes.push(
        `Fairness beside a replay: the same probe, ${ms(replay.loadedP50Ms)} ms p50 (${answers('fairness: { __typename } beside a replay')} answers), while one WebSocket client replayed the newest ${int(replay.entries)} change-log entries again and again, as fast as it read (${int(replay.entriesPerSecond)} entries/s).`,
      );
  }
  if (report.churn)
    notes.push(
      `Churn: ${report.churn.seconds} s of unique query texts (${report.churn.shapes.join('; ')}); server RSS peak ${mb(report.churn.rssMaxBytes)} MB, ${mb(report.churn.rssAfterBytes)} MB after.`,
    );
  return notes;
}

/** The expensive requests the fairness load sized and timed, as a Markdown table. */
export function fairnessTable(fairness: FairnessReport | null): string {
  if (!fairness) return '';
  const rows = fairness.candidates.map(
    (c) =>
      `| ${c.name}${c.name === fairness.chosen ? ' (sent)' : ''} | ${c.size} | ${c.cost === null ? '—' : int(c.cost)} | ${ms(c.ms)} | ${int(c.bytes / 1024)} |`,
  );
  for (const d of fairness.dropped) rows.push(`| ${d.name} (not used) | ${d.reason} | — | — | — |`);
  return [
    `| Most expensive allowed request (cost limit ${int(fairness.costLimit)}) | Size | Estimated cost | ms per request (alone) | KB |`,
    '|---|---|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

/** The Markdown table of a growth run. */
export function growthTable(report: GrowthReport): string {
  const lines = [
    '| Size | Resources | Types | req/s | p50 (ms) | p99 (ms) | p50 × smallest | SQL / request | Start-up (s) | RSS max (MB) | CPU cores: server / client / others | Errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const base = report.steps[0]?.resolve.latencyMs.p50;
  for (const step of report.steps) {
    const load = step.resolve;
    const growth = base ? `${(load.latencyMs.p50 / base).toFixed(2)}×` : '—';
    lines.push(
      `| ${formatSize(step.registry.size)} | ${int(step.registry.counts.resources)} | ${int(step.registry.counts.types)} | ${int(load.requestsPerSecond)} | ${ms(load.latencyMs.p50)} | ${ms(load.latencyMs.p99)} | ${growth} | ${load.sqlPerRequest == null ? '—' : load.sqlPerRequest.toFixed(2)} | ${(step.startupMs / 1000).toFixed(2)} | ${mb(step.rssMaxBytes)} | ${cpu(load)} | ${totalErrors(load)} |`,
    );
  }
  const others = report.steps.flatMap((step) =>
    [step.uniqueDashboard, step.matrix].flatMap((load) =>
      load
        ? [
            `| ${formatSize(step.registry.size)} | ${load.name} | ${int(load.requestsPerSecond)} | ${ms(load.latencyMs.p50)} | ${ms(load.latencyMs.p99)} | ${load.sqlPerRequest == null ? '—' : load.sqlPerRequest.toFixed(2)} | ${cpu(load)} | ${totalErrors(load)} |`,
          ]
        : [],
    ),
  );
  if (others.length > 0)
    lines.push(
      '',
      '| Size | Load | req/s | p50 (ms) | p99 (ms) | SQL / request | CPU cores: server / client / others | Errors |',
      '|---|---|---:|---:|---:|---:|---:|---:|',
      ...others,
    );
  lines.push(
    '',
    `Resolve p50 grows ${report.p50Ratio === null ? '—' : `${report.p50Ratio.toFixed(2)}×`} from the smallest to the largest size.`,
    `${report.options.connections} connections, ${report.options.durationSeconds} s per size after ${report.options.warmupSeconds} s of warm-up, seed ${report.options.seed}; ${report.machine.cpus} × ${report.machine.cpuModel}, Node ${report.machine.node}; ${report.date}.`,
    ...busyMachineNote(report.steps.map((s) => s.resolve)),
  );
  return lines.join('\n');
}

/** PASS/FAIL lines. */
/** Subscription delivery as a Markdown table. */
export function deliveryTable(delivery: FullReport['delivery']): string {
  if (delivery.length === 0) return '';
  const rows = delivery.map(
    (d) =>
      `| ${d.subscribers} | ${d.pacedAt === null ? 'unpaced (10 connections)' : `paced at ${d.pacedAt}/s`} | ${Math.round(d.writesPerSecond).toLocaleString('en-US')} | ${Math.round(d.eventsPerSecond).toLocaleString('en-US')} | ${d.perSubscriber.min.toLocaleString('en-US')}–${d.perSubscriber.max.toLocaleString('en-US')} | ${d.latencyMs.p50} | ${d.latencyMs.p99} | ${d.latencyMs.max} |`,
  );
  return [
    '| Subscribers (registryChanged) | Writer | Writes/s | Events/s delivered (all subscribers) | Events per subscriber | Commit→arrival p50 (ms) | p99 (ms) | max (ms) |',
    '|---:|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

/** The impact previews as a Markdown table. */
export function impactTable(impacts: readonly ImpactPreview[]): string {
  if (impacts.length === 0) return '';
  const rows = impacts.map(
    (i) =>
      `| ${i.name} | ${i.ms.toFixed(0)} | ${i.totalCount.toLocaleString('en-US')} | ${i.complete ? 'yes' : 'no (work cap reached)'} | ${i.statements} |`,
  );
  return [
    '| Binding-impact preview (dry run) | ms | Changes found | Complete | SQL statements |',
    '|---|---:|---:|---|---:|',
    ...rows,
  ].join('\n');
}

export function targetLines(targets: readonly TargetCheck[]): string {
  return targets
    .map((t) => `${t.pass === null ? 'N/A ' : t.pass ? 'PASS' : 'FAIL'}  ${t.target}: ${t.measured}`)
    .join('\n');
}

/** The bad answers of each load that had any, for the console. */
export function errorLines(loads: readonly LoadResult[]): string {
  const lines: string[] = [];
  for (const load of loads) {
    for (const [phase, checks] of [
      ['measured', load.checks],
      ['warm-up', load.warmup?.checks],
    ] as const) {
      if (!checks || errorCount(checks) === 0) continue;
      lines.push(
        `${load.name} (${phase}): ${checks.non2xx} non-2xx, ${checks.graphqlErrors} with GraphQL errors, ${checks.wrongBodies} unexpected bodies, ${checks.connectionErrors} connection errors, ${checks.timeouts} timeouts`,
      );
      for (const sample of checks.samples) lines.push(`  ${sample}`);
    }
  }
  return lines.join('\n');
}

/** Writes the JSON report, creating its folder. */
export function writeJson(path: string, report: FullReport | GrowthReport | MetricsOverheadReport): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
}

/** Cores busy during the measured run: the process under load, the benchmark's client, everything else. */
function cpu(load: LoadResult): string {
  const c = load.cpuCores;
  return c ? `${c.target.toFixed(2)} / ${c.client.toFixed(2)} / ${c.others.toFixed(2)}` : '—';
}

/** Processes outside the benchmark that used this many cores on average make a load's figures doubtful. */
export const BUSY_MACHINE_CORES = 0.25;

/** A warning when other processes competed for the CPU during some load. */
export function busyMachineNote(loads: readonly LoadResult[]): string[] {
  const busy = loads.filter((l) => (l.cpuCores?.others ?? 0) > BUSY_MACHINE_CORES);
  if (busy.length === 0) return [];
  const worst = Math.max(...busy.map((l) => l.cpuCores?.others ?? 0));
  return [
    `Warning: other processes on this machine used up to ${worst.toFixed(2)} cores during ${busy.map((l) => l.name).join(', ')}; those figures are disturbed (the last column shows by how much).`,
  ];
}

function totalErrors(load: LoadResult): number {
  return errorCount(load.checks) + (load.warmup ? errorCount(load.warmup.checks) : 0);
}

function describeCounts(c: RegistryCounts): string {
  return (
    `${int(c.types)} types (${c.maxDepth + 1} levels, ${int(c.typesWithSeveralParents)} with several parents), ${int(c.resources)} resources, ` +
    `${int(c.projects)} projects with ${int(c.links)} links (${int(c.aliasedLinks)} aliased), ${int(c.tools)} tools with ${int(c.slots)} slots ` +
    `(${int(c.slotsByBinding.CONTEXTUAL)} contextual, ${int(c.slotsByBinding.STATIC)} static, ${int(c.slotsByBinding.PARAMETER)} parameter)`
  );
}

export function describeMix(mix: ResolveMix): string {
  const rules = Object.entries(mix.byRule)
    .sort((a, b) => b[1] - a[1])
    .map(([rule, n]) => `${rule} ${int(n)}`)
    .join(', ');
  return (
    `${int(mix.pairs)} distinct tool × project pairs (${int(mix.distinctTools)} tools, ${int(mix.distinctProjects)} projects; ${int(mix.attempts)} tried), ` +
    `${int(mix.pairsWithContextualBinding)} with a contextual slot bound; ${int(mix.slots)} slots: ${rules}; ${int(mix.paramsSupplied)} params supplied`
  );
}

export function int(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function ms(n: number): string {
  return n < 10 ? n.toFixed(2) : n.toFixed(1);
}

export function mb(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(0);
}
