/**
 * Compare mode (`--against <git revision>`): the read loads on this checkout's
 * build and on another revision's, in one run (./side-by-side.ts): each round
 * a fresh pair of servers running side by side, each on its own copy of the
 * same registry, every load measured on one and then the other in alternating
 * order, so that drift on a shared machine and a process's own luck fall on
 * both sides alike (two separate full runs differed by up to a fifth on a row;
 * one server process held 0.65 × its twin's speed for its whole life). The
 * other revision is checked out once into a git worktree of its own (outside
 * the repository, in the system's temporary folder), given this checkout's
 * node_modules when the lockfiles are the same (else `npm ci` there), and
 * built with its own `npm run build`; later runs reuse the build.
 *
 * What it answers: whether a change made a read cost more than before, with
 * the run-to-run spread of two separate full runs (up to a fifth on a row)
 * taken out of the comparison.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasErrors, NO_CACHE, type LoadDefinition, type LoadResult } from './loads';
import { COMPARABLE_LOADS, formatSize, type BenchOptions, type ComparedLoad } from './options';
import type { RegistryServer } from './processes';
import { Random } from './random';
import {
  floorLoad,
  prepareRegistry,
  progress,
  resolveLoad,
  uniqueDashboardLoad,
  uniqueResolveLoad,
  type PreparedRegistry,
} from './run';
import { sideBySide } from './side-by-side';
import { busyMachineNote, int, median, reportStamp, type MachineInfo, type RegistryInfo } from './report';
import { dashboardRequests, verifyDashboard, type ExpectedPage } from './workloads';

/** Rounds of a compare run: each a fresh pair of servers, every load measured on both, in alternating order. */
export const COMPARE_ROUNDS = 4;

/** The loads compared, in the order each server runs them; every ratio is to the same server's floor. */
export const COMPARED_LOADS: readonly ComparedLoad[] = COMPARABLE_LOADS;

/** A ratio that falls by more than this (after / before − 1) fails the comparison. */
export const COMPARE_TOLERANCE = 0.05;

export interface CompareReport {
  readonly kind: 'compare';
  readonly date: string;
  readonly machine: MachineInfo;
  readonly options: BenchOptions;
  readonly registry: RegistryInfo;
  /** The other revision (before) and this checkout (after), as `git describe` names them. */
  readonly before: { readonly revision: string; readonly commit: string };
  readonly after: { readonly revision: string; readonly commit: string };
  readonly rounds: number;
  /** Every measured load, named `<load> (before)` or `<load> (after)`, in the order run. */
  readonly loads: readonly LoadResult[];
  readonly rows: readonly CompareRow[];
  readonly errors: boolean;
  readonly elapsedMs: number;
}

/** One load over all rounds: requests a second on each side, its ratio to that side's floor, and the change. */
export interface CompareRow {
  readonly load: ComparedLoad;
  readonly before: { readonly perSecond: number; readonly ratio: number; readonly byRound: readonly number[] };
  readonly after: { readonly perSecond: number; readonly ratio: number; readonly byRound: readonly number[] };
  /** The median over the rounds of (after's ratio / before's ratio − 1), each round's ratios to its own floors (the floor: rateChange). */
  readonly change: number;
  /** The median over the rounds of (after's req/s / before's − 1): side by side, drift falls on both sides alike. */
  readonly rateChange: number;
  readonly pass: boolean;
}

/** Checks the revision out and builds it, once; returns the checkout's folder. */
export function builtRevision(root: string, revision: string): { dir: string; commit: string } {
  const commit = git(root, ['rev-parse', '--verify', `${revision}^{commit}`]);
  const dir = join(tmpdir(), 'tool-registry-bench-against', commit.slice(0, 12));
  if (existsSync(join(dir, 'dist', 'scripts', 'bench', 'server-main.js'))) {
    progress(`against ${revision} (${commit.slice(0, 12)}): reusing the build in ${dir}`);
    return { dir, commit };
  }
  if (!existsSync(dir)) {
    progress(`against ${revision}: checking ${commit.slice(0, 12)} out into ${dir}`);
    git(root, ['worktree', 'add', '--detach', dir, commit]);
  }
  if (!existsSync(join(dir, 'node_modules'))) {
    const same =
      readFileSync(join(root, 'package-lock.json'), 'utf8') === readFileSync(join(dir, 'package-lock.json'), 'utf8');
    if (same) symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    else {
      progress(`against ${revision}: its package-lock.json differs; npm ci there`);
      execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
    }
  }
  progress(`against ${revision}: npm run build there`);
  execFileSync('npm', ['run', '-s', 'build'], { cwd: dir, stdio: 'inherit' });
  return { dir, commit };
}

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

/** The compare run (see the top of this file). */
export async function runCompare(root: string, options: BenchOptions, against: string): Promise<CompareReport> {
  const started = performance.now();
  const other = builtRevision(root, against);
  const registry = await prepareRegistry(root, options, options.size);
  const random = new Random(options.seed).derive('requests');
  const pages = dashboardRequests(registry.model);
  const rounds = options.quick ? 1 : COMPARE_ROUNDS;
  const tag = `compare-${Date.now().toString(36)}`;
  const loads = await sideBySide(root, options, registry, {
    sides: [
      ['before', { serverRoot: other.dir }],
      ['after', {}],
    ],
    plan: (server, side) =>
      sideLoads(server, registry, pages, random, `${tag}-${side}`).filter(
        (load) => options.loads === null || options.loads.includes(load.name as ComparedLoad),
      ),
    name: (load, side) => `${load as ComparedLoad} (${side})`,
    rounds,
  });
  return {
    kind: 'compare',
    ...reportStamp(options),
    registry: registry.info,
    before: { revision: against, commit: other.commit },
    after: { revision: describe(root), commit: git(root, ['rev-parse', 'HEAD']) },
    rounds,
    loads,
    rows: compareRows(loads).filter((row) => options.loads === null || options.loads.includes(row.load)),
    errors: loads.some(hasErrors),
    elapsedMs: performance.now() - started,
  };
}

function describe(root: string): string {
  const dirty = git(root, ['status', '--porcelain', '--untracked-files=no']) !== '';
  return `${git(root, ['rev-parse', '--short=12', 'HEAD'])}${dirty ? ' + uncommitted changes' : ''}`;
}

/** The compared loads on one server, in COMPARED_LOADS order. */
function sideLoads(
  running: RegistryServer,
  registry: PreparedRegistry,
  pages: ReturnType<typeof dashboardRequests>,
  random: Random,
  tag: string,
): LoadDefinition<unknown>[] {
  const dashboardPastCache: LoadDefinition<ExpectedPage> = {
    name: 'dashboard (no cache)',
    url: running.graphqlUrl,
    next: () => random.pick(pages),
    verify: verifyDashboard,
    verifyEvery: 10,
    headers: NO_CACHE,
  };
  return [
    floorLoad(running, 'floor'),
    resolveLoad(running, registry, random),
    resolveLoad(running, registry, random, true),
    dashboardPastCache,
    uniqueResolveLoad('unique-resolve', running, registry, random, tag),
    uniqueDashboardLoad('unique-dashboard', running, pages, random, tag),
  ] as LoadDefinition<unknown>[];
}

/**
 * Each compared load over all rounds: its rate and its ratio to its own side's floor over all rounds, and the
 * changes as the median over the rounds of each round's pair (the two sides measured one after the other on
 * the same machine moment): one server process in a few runs at half speed for its whole life (see
 * ./side-by-side.ts) then moves the result by one round's weight, where it moved a sum by a fifth.
 */
export function compareRows(loads: readonly LoadResult[]): CompareRow[] {
  const runs = (load: ComparedLoad, which: 'before' | 'after') => loads.filter((l) => l.name === `${load} (${which})`);
  const side = (load: ComparedLoad, which: 'before' | 'after') => {
    const measured = runs(load, which);
    const seconds = measured.reduce((s, r) => s + r.durationSeconds, 0);
    return {
      perSecond: seconds === 0 ? 0 : measured.reduce((n, r) => n + r.requestsCompleted, 0) / seconds,
      byRound: measured.map((r) => r.requestsPerSecond),
    };
  };
  const floors = { before: side('floor', 'before'), after: side('floor', 'after') };
  return COMPARED_LOADS.map((load) => {
    const before = side(load, 'before');
    const after = side(load, 'after');
    const ratio = (perSecond: number, floor: number) => (floor === 0 ? 0 : perSecond / floor);
    const rounds = Math.min(before.byRound.length, after.byRound.length);
    const pairs = Array.from({ length: rounds }, (_, i) => i);
    const rateChange = median(pairs.map((i) => after.byRound[i] / before.byRound[i] - 1));
    const change =
      load === 'floor'
        ? rateChange
        : median(
            pairs.map(
              (i) =>
                ratio(after.byRound[i], floors.after.byRound[i]) / ratio(before.byRound[i], floors.before.byRound[i]) -
                1,
            ),
          );
    return {
      load,
      rateChange,
      before: { ...before, ratio: load === 'floor' ? 1 : ratio(before.perSecond, floors.before.perSecond) },
      after: { ...after, ratio: load === 'floor' ? 1 : ratio(after.perSecond, floors.after.perSecond) },
      change,
      pass: change >= -COMPARE_TOLERANCE,
    };
  });
}

/** The compare run as a Markdown table, with a PASS or FAIL per row. */
export function compareTable(report: CompareReport): string {
  const lines = [
    `| Load | Before: req/s by round | After: req/s by round | Before: req/s, ratio | After: req/s, ratio | Change of req/s | Change of ratio | Ratio ≥ −${COMPARE_TOLERANCE * 100} % |`,
    '|---|---|---|---:|---:|---:|---:|---|',
  ];
  const percent = (change: number) => `${change >= 0 ? '+' : '−'}${Math.abs(change * 100).toFixed(1)} %`;
  for (const row of report.rows) {
    const ratio = (r: CompareRow['before']) => (row.load === 'floor' ? '—' : `${r.ratio.toFixed(3)} × floor`);
    lines.push(
      `| ${row.load} | ${row.before.byRound.map(int).join(', ')} | ${row.after.byRound.map(int).join(', ')} | ${int(row.before.perSecond)}, ${ratio(row.before)} | ${int(row.after.perSecond)}, ${ratio(row.after)} | ${percent(row.rateChange)} | ${row.load === 'floor' ? '—' : percent(row.change)} | ${row.pass ? 'PASS' : 'FAIL'} |`,
    );
  }
  lines.push(
    '',
    `Before: ${report.before.revision} (${report.before.commit.slice(0, 12)}); after: ${report.after.revision}. ` +
      `${report.rounds} round${report.rounds === 1 ? '' : 's'}, each a fresh pair of servers side by side on their own copies of the registry, each load measured on both in alternating order; ` +
      `every ratio is to the same side's floor; each change is the median over the rounds of the round's pair. ` +
      `${report.options.connections} connections, ${Math.max(1, report.options.durationSeconds / 2)} s per measurement after ${report.options.warmupSeconds} s of warm-up; ${formatSize(report.registry.size)} registry, seed ${report.options.seed}, ${report.options.backend}; ` +
      `${report.machine.cpus} × ${report.machine.cpuModel}, Node ${report.machine.node}; ${report.date}.`,
    ...busyMachineNote(report.loads),
  );
  return lines.join('\n');
}
