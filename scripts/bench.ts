/**
 * `npm run bench`: the performance benchmark of the registry server (see the
 * docs/benchmark.md). Builds or reuses a synthetic registry, runs
 * the production build on it, measures the loads with autocannon, and prints
 * a Markdown table, the target checks and the JSON report's path. Exits 1 when
 * any load had an error answer (never because of a missed target).
 */
import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseBenchArgs, USAGE, UsageError, type BenchOptions } from './bench/options';
import {
  deliveryTable,
  errorLines,
  fairnessTable,
  fullTable,
  impactTable,
  growthTable,
  metricsOverheadTable,
  targetLines,
  writeJson,
} from './bench/report';
import { compareTable, runCompare } from './bench/compare';
import { peerTable, runPeer } from './bench/peer';
import { runMetricsOverhead } from './bench/metrics-mode';
import { progress, runFull, runGrowth } from './bench/run';

const ROOT = resolve(__dirname, '..');

async function main(): Promise<number> {
  let options: BenchOptions | null;
  try {
    options = parseBenchArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`bench: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
  if (options === null) {
    console.log(USAGE);
    return 0;
  }
  if (!existsSync(join(ROOT, 'dist', 'src', 'cli.js'))) {
    console.error('bench: dist/src/cli.js is missing; `npm run bench` builds it first (or run `npm run build`).');
    return 1;
  }

  if (options.sizes) {
    const report = await runGrowth(ROOT, options, options.sizes);
    writeJson(options.out, report);
    console.log(`\n## Resolve growth with registry size (${options.backend})\n\n${growthTable(report)}\n`);
    console.log(`Targets (informational):\n${targetLines(report.targets)}\n`);
    return finish(
      report.errors,
      errorLines(report.steps.flatMap((s) => [s.resolve, s.uniqueDashboard, s.matrix].filter((l) => l !== undefined))),
      options.out,
      report.elapsedMs,
    );
  }

  if (options.peer) {
    const report = await runPeer(ROOT, options);
    writeJson(options.out, report as never);
    console.log(`\n## Against PostGraphile 4 (PostgreSQL, cold)\n\n${peerTable(report)}\n`);
    console.log(`Targets (informational):\n${targetLines(report.targets)}\n`);
    return finish(
      report.errors,
      errorLines(report.rounds.flatMap((r) => [r.ours, r.theirs])),
      options.out,
      report.elapsedMs,
    );
  }

  if (options.against !== null) {
    const report = await runCompare(ROOT, options, options.against);
    writeJson(options.out, report as never);
    console.log(`\n## Before and after (${options.backend})\n\n${compareTable(report)}\n`);
    return finish(report.errors, errorLines(report.loads), options.out, report.elapsedMs);
  }

  if (options.metrics) {
    const report = await runMetricsOverhead(ROOT, options);
    writeJson(options.out, report);
    console.log(`\n## Metrics on and off\n\n${metricsOverheadTable(report)}\n`);
    return finish(report.errors, errorLines(report.loads), options.out, report.elapsedMs);
  }

  const report = await runFull(ROOT, options);
  writeJson(options.out, report);
  console.log(`\n## Benchmark (${options.backend})\n\n${fullTable(report)}\n`);
  if (report.impacts.length > 0) console.log(`${impactTable(report.impacts)}\n`);
  if (report.delivery.length > 0) console.log(`${deliveryTable(report.delivery)}\n`);
  if (report.fairness) console.log(`${fairnessTable(report.fairness)}\n`);
  console.log(`Targets (informational):\n${targetLines(report.targets)}\n`);
  return finish(report.errors, errorLines(report.loads), options.out, report.elapsedMs);
}

function finish(errors: boolean, details: string, out: string, elapsedMs: number): number {
  console.log(`JSON report: ${out}`);
  console.log(`Benchmark time: ${(elapsedMs / 1000).toFixed(1)} s (after the build)`);
  if (errors) {
    console.error(`\nbench: some requests failed; the figures above are not trustworthy.\n${details}`);
    return 1;
  }
  return 0;
}

// Ctrl-C or a stop: exit, and the exit hook kills the children this run started (by PID).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    progress(`${signal}: stopping`);
    process.exit(130);
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
