/** The benchmark's command line: `npm run bench -- [options]`, parsed with node's util.parseArgs. */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_POSTGRES_URL } from './postgres-registry';

/** What one benchmark run does. */
export interface BenchOptions {
  /** Resources in the registry for the full run. */
  readonly size: number;
  /** When set, only the resolve load runs, once per size (growth mode). */
  readonly sizes: readonly number[] | null;
  readonly seed: string;
  readonly quick: boolean;
  /** Where the JSON report goes. */
  readonly out: string;
  /** Seconds measured per load. */
  readonly durationSeconds: number;
  /** Seconds of unmeasured load before each measured one. */
  readonly warmupSeconds: number;
  readonly connections: number;
  /** Ignore a cached database and build it again. */
  readonly regenerate: boolean;
  /** When set, only floor and resolve run, on servers with METRICS=true and with it off, in turn (metrics mode). */
  readonly metrics: boolean;
  /** The database the server runs on: the generated SQLite file, or a copy of it in PostgreSQL. */
  readonly backend: 'sqlite' | 'postgres';
  /** With `backend` postgres: the server to make the databases on (a user that may create databases). */
  readonly postgresUrl: string;
  /** Peer mode: this server against PostGraphile 4 on the same PostgreSQL tables, cold (needs backend postgres). */
  readonly peer: boolean;
  /** Compare mode: a git revision whose build is measured beside this checkout's, alternating over rounds. */
  readonly against: string | null;
  /** Compare mode: only these of its loads (null: all). */
  readonly loads: readonly ComparedLoad[] | null;
}

export const DEFAULT_SIZE = 50_000;
/** The registry size of `--quick`. */
export const QUICK_SIZE = 400;
export const DEFAULT_SEED = '1';

export const USAGE = `Usage: npm run bench -- [options]

  --size N         registry size in resources: 1k, 10k, 50k (default), 100k, or a number
  --sizes A,B,...  growth mode: only the resolve load, once per size (e.g. 1k,10k,100k)
  --seed S         generator seed (default ${DEFAULT_SEED}); letters, digits, '-' and '_'
  --quick          a tiny registry (${QUICK_SIZE} resources) and 1 s per load, for CI
  --out FILE       JSON report (default bench-results/latest.json; with --quick, bench-results/quick.json)
  --duration S     seconds measured per load (default 10; 1 with --quick)
  --warmup S       seconds of warm-up before each load (default 2; 0.25 with --quick)
  --connections N  concurrent connections (default 10)
  --regenerate     build the database again even when a cached one exists
  --backend B      sqlite (default) or postgres: the registry copied into PostgreSQL (a template database kept
                   between runs, a fresh copy per server), every mode and load run on it
  --postgres-url U the PostgreSQL server for --backend postgres (default BENCH_POSTGRES_URL, else
                   postgres://postgres@127.0.0.1:5432/postgres)
  --peer           peer mode (with --backend postgres): this server, cold (RECORD_CACHE=false, no response
                   cache), against PostGraphile 4 (scripts/bench/peers/postgraphile, npm ci there first) on the
                   same tables: the 50-tool page and a single tool, answers compared first, A/B over two rounds
  --against REV    compare mode: the read loads (floor, resolve, past the cache, unique) on this checkout's build
                   and on git revision REV's (checked out and built once, in the system's temporary folder):
                   four rounds, each a fresh pair of servers side by side; each change is the median of the
                   rounds' pairs, each ratio to its own side's floor; FAIL where a ratio falls by more than 5 %
  --loads A,B,...  with --against: only these of its loads (floor is always measured: the ratios are to it)
  --metrics        metrics mode: only floor and resolve, on a server with METRICS=true (scraped every
                   second) and one with it off, side by side in six rounds of fresh pairs, and the ratio of on to off
  --help           this text`;

/** A command line that cannot be used; the message says why. */
export class UsageError extends Error {}

/** Parses the arguments after `npm run bench --`. Returns null for --help. */
export function parseBenchArgs(argv: readonly string[], cwd = process.cwd()): BenchOptions | null {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        size: { type: 'string' },
        sizes: { type: 'string' },
        seed: { type: 'string' },
        quick: { type: 'boolean', default: false },
        out: { type: 'string' },
        duration: { type: 'string' },
        warmup: { type: 'string' },
        connections: { type: 'string' },
        regenerate: { type: 'boolean', default: false },
        metrics: { type: 'boolean', default: false },
        backend: { type: 'string', default: 'sqlite' },
        'postgres-url': { type: 'string' },
        peer: { type: 'boolean', default: false },
        against: { type: 'string' },
        loads: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const values = parsed.values;
  if (values.help) return null;

  const quick = values.quick === true;
  const seed = values.seed ?? DEFAULT_SEED;
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(seed))
    throw new UsageError(`--seed must be 1–40 letters, digits, '-' or '_' (got "${seed}")`);
  const size = values.size !== undefined ? parseSize(values.size, '--size') : quick ? QUICK_SIZE : DEFAULT_SIZE;
  const sizes = values.sizes !== undefined ? values.sizes.split(',').map((s) => parseSize(s.trim(), '--sizes')) : null;
  if (sizes && sizes.length === 0) throw new UsageError('--sizes needs at least one size');
  if (sizes && values.size !== undefined) throw new UsageError('--size and --sizes cannot be combined');
  if (sizes && values.metrics) throw new UsageError('--metrics and --sizes cannot be combined');
  const backend = values.backend;
  if (backend !== 'sqlite' && backend !== 'postgres')
    throw new UsageError(`--backend must be sqlite or postgres (got "${backend}")`);
  if (values.peer && backend !== 'postgres') throw new UsageError('--peer needs --backend postgres');
  if (values.peer && (sizes || values.metrics))
    throw new UsageError('--peer cannot be combined with --sizes or --metrics');
  if (values['postgres-url'] !== undefined && backend !== 'postgres')
    throw new UsageError('--postgres-url needs --backend postgres');
  const against = values.against ?? null;
  if (against !== null && (sizes || values.metrics || values.peer))
    throw new UsageError('--against cannot be combined with --sizes, --metrics or --peer');
  if (against !== null && !/^[A-Za-z0-9][A-Za-z0-9._/~^-]{0,99}$/.test(against))
    throw new UsageError(`--against needs a git revision (a commit, tag or branch; got "${against}")`);

  return {
    size,
    sizes: sizes ? [...new Set(sizes)].sort((a, b) => a - b) : null,
    seed,
    quick,
    out: resolve(cwd, values.out ?? (quick ? 'bench-results/quick.json' : 'bench-results/latest.json')),
    durationSeconds: parsePositive(values.duration, quick ? 1 : 10, '--duration'),
    warmupSeconds: parseNonNegative(values.warmup, quick ? 0.25 : 2, '--warmup'),
    connections: Math.round(parsePositive(values.connections, 10, '--connections')),
    regenerate: values.regenerate === true,
    metrics: values.metrics === true,
    backend,
    postgresUrl: values['postgres-url'] ?? DEFAULT_POSTGRES_URL,
    peer: values.peer === true,
    against,
    loads: parseLoads(values.loads, against),
  };
}

/** The loads of compare mode that --loads names (floor always among them); null without --loads. */
function parseLoads(text: string | undefined, against: string | null): readonly ComparedLoad[] | null {
  if (text === undefined) return null;
  if (against === null) throw new UsageError('--loads needs --against');
  const names = text.split(',').map((name) => name.trim());
  for (const name of names)
    if (!(COMPARABLE_LOADS as readonly string[]).includes(name))
      throw new UsageError(`--loads: "${name}" is not one of ${COMPARABLE_LOADS.join(', ')}`);
  return COMPARABLE_LOADS.filter((name) => name === 'floor' || names.includes(name));
}

/** The loads compare mode measures, in order (./compare.ts). */
export const COMPARABLE_LOADS = [
  'floor',
  'resolve',
  'resolve (no cache)',
  'dashboard (no cache)',
  'unique-resolve',
  'unique-dashboard',
] as const;

/** One of the loads compare mode measures. */
export type ComparedLoad = (typeof COMPARABLE_LOADS)[number];

/** "1k" → 1000, "2.5k" → 2500, "1m" → 1000000, "750" → 750. At least 50, at most 2 million. */
export function parseSize(text: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(text);
  if (!match) throw new UsageError(`${flag}: "${text}" is not a size (e.g. 1k, 50k, 100k or 2000)`);
  const factor = match[2] === '' ? 1 : match[2].toLowerCase() === 'k' ? 1_000 : 1_000_000;
  const value = Math.round(Number(match[1]) * factor);
  if (value < 50 || value > 2_000_000) throw new UsageError(`${flag}: ${text} is out of range (50 to 2m resources)`);
  return value;
}

/** 50000 → "50k", 1500 → "1.5k", 400 → "400". */
export function formatSize(size: number): string {
  if (size >= 1_000_000 && size % 100_000 === 0) return `${size / 1_000_000}m`;
  if (size >= 1_000 && size % 100 === 0) return `${size / 1_000}k`;
  return String(size);
}

function parsePositive(text: string | undefined, fallback: number, flag: string): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`${flag} must be a positive number (got "${text}")`);
  return value;
}

function parseNonNegative(text: string | undefined, fallback: number, flag: string): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0)
    throw new UsageError(`${flag} must be zero or a positive number (got "${text}")`);
  return value;
}
