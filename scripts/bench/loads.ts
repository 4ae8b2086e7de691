/**
 * Runs one load with autocannon's programmatic API: an unmeasured warm-up,
 * then the measured run, with every response checked (status, GraphQL
 * `errors`, and the body's content for a sample), the server's SQL statement
 * count read before and after, and its RSS sampled meanwhile.
 */
import autocannon from 'autocannon';
import type { ComparedLoad } from './options';
import type { PreparedRequest } from './workloads';
import { cpus } from 'node:os';
import { cpuBetween, cpuSnapshot, RssSampler, sleep, sqlStatements } from './processes';

export type LoadName =
  | 'http'
  | 'floor'
  | 'floor (before the unique loads)'
  | 'resolve'
  | 'dashboard'
  | 'write'
  | 'floor (no cache)'
  | 'resolve (no cache)'
  | 'dashboard (no cache)'
  | 'matrix (no cache)'
  | 'unique-resolve'
  | 'unique-dashboard'
  | 'resolve+writes'
  | 'writer (beside resolve+writes)'
  | 'fairness: { __typename } idle'
  | 'fairness: { __typename } beside expensive'
  | 'fairness: { __typename } beside a replay'
  | 'fairness: expensive'
  | 'churn'
  | 'unique-resolve (free data)'
  | 'unique-dashboard (free data)'
  | 'floor (metrics off)'
  | 'floor (metrics on)'
  | 'resolve (metrics off)'
  | 'resolve (metrics on)'
  | `${ComparedLoad} (before)`
  | `${ComparedLoad} (after)`;

/** Sent with the "(no cache)" loads: asks the server for a fresh answer, past its response cache. */
export const NO_CACHE = { 'cache-control': 'no-cache' } as const;

/** What to send, and how to tell a good answer. */
export interface LoadDefinition<E> {
  readonly name: LoadName;
  readonly url: string;
  /** The next request body and what its answer must hold. */
  next(): PreparedRequest<E>;
  /**
   * True when every request is the same: then it is built once, with no per-request setup. (autocannon rebuilds a
   * request that has a setupRequest every time, which costs the client about a third of its speed against bare HTTP.)
   */
  readonly fixed?: boolean;
  /** Checks an answer's body (parsing it if it needs to); returns what is wrong, or null. */
  verify(body: string, expect: E): string | null;
  /** Parse and verify one answer in this many (1 = every one). Status and GraphQL `errors` are checked on every answer. */
  readonly verifyEvery: number;
  /** Extra request headers, e.g. the admin token for writes. */
  readonly headers?: Record<string, string>;
  /** Seconds before an unanswered request counts as a timeout (autocannon's default: 10). */
  readonly timeoutSeconds?: number;
}

/** Where and how long to run. */
export interface LoadSettings {
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  /** The registry server, for SQL statement counts; null for the http baseline. */
  readonly serverOrigin: string | null;
  /** The registry server's PID, for RSS samples; null when not sampled. */
  readonly serverPid: number | null;
  /** The PID of the process under load (the server, or the http baseline), for its CPU use. */
  readonly targetPid: number;
  /** Other client processes whose CPU counts as the client's (the fairness probe's). */
  readonly clientPids?: readonly number[];
}

/** Tallies of the answers of one autocannon run. */
export interface ResponseChecks {
  responses: number;
  non2xx: number;
  graphqlErrors: number;
  /** Answers that parsed but did not hold what was expected (or did not parse). */
  wrongBodies: number;
  verified: number;
  connectionErrors: number;
  timeouts: number;
  /** The first few bad answers, shortened. */
  samples: string[];
}

/** One load's figures. */
export interface LoadResult {
  readonly name: LoadName;
  readonly requestsPerSecond: number;
  /**
   * Latency percentiles from every response's own timing (autocannon measures each with hrtime); autocannon's
   * summary histogram keeps whole milliseconds only, too coarse for sub-millisecond requests.
   */
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly mean: number; readonly max: number };
  /** autocannon's own (whole-millisecond) percentiles, for comparison. */
  readonly autocannonLatencyMs: { readonly p50: number; readonly p99: number };
  /** Requests sent in the measured run (warm-up excluded). */
  readonly requestsSent: number;
  readonly requestsCompleted: number;
  readonly durationSeconds: number;
  readonly sqlStatements: number | null;
  readonly sqlPerRequest: number | null;
  readonly rssMaxBytes: number | null;
  /**
   * Average cores busy during the measured run: the process under load, the benchmark itself (autocannon), and
   * everything else on the machine. A target at 1.0 or a little above is saturated (Node runs JavaScript on one
   * core; GC helper threads add a little); "others" well above 0 means something else competed for the CPU and the
   * figures are less trustworthy.
   */
  readonly cpuCores: { readonly target: number; readonly client: number; readonly others: number } | null;
  readonly checks: ResponseChecks;
  readonly warmup: { readonly requestsSent: number; readonly checks: ResponseChecks } | null;
}

/** True when any answer of the load (warm-up included) was an error. */
export function hasErrors(result: LoadResult): boolean {
  return [result.checks, ...(result.warmup ? [result.warmup.checks] : [])].some((c) => errorCount(c) > 0);
}

/** Every kind of failed answer, added up. */
export function errorCount(checks: ResponseChecks): number {
  return checks.non2xx + checks.graphqlErrors + checks.wrongBodies + checks.connectionErrors + checks.timeouts;
}

/** Warm-up, then the measured run. */
export async function runLoad<E>(load: LoadDefinition<E>, settings: LoadSettings): Promise<LoadResult> {
  let warmup: LoadResult['warmup'] = null;
  if (settings.warmupSeconds > 0) {
    const run = await fire(load, settings.warmupSeconds, settings.connections);
    warmup = { requestsSent: run.result.requests.sent, checks: run.checks };
  }

  const sqlBefore = settings.serverOrigin ? await sqlStatements(settings.serverOrigin) : null;
  const sampler = settings.serverPid !== null ? new RssSampler(settings.serverPid) : null;
  sampler?.start(200);
  const pids = [settings.targetPid, process.pid, ...(settings.clientPids ?? [])];
  const cpuBefore = cpuSnapshot(pids);
  const { result, checks, latencies } = await fire(load, settings.durationSeconds, settings.connections);
  const cpu = cpuBetween(cpuBefore, cpuSnapshot(pids), cpus().length);
  sampler?.stop();
  sampler?.sample();
  let sqlAfter: number | null = null;
  if (settings.serverOrigin) {
    // Requests cut off when autocannon stopped may still be running on the server: wait until the count settles.
    sqlAfter = await settledStatements(settings.serverOrigin);
  }

  const sent = result.requests.sent;
  const statements = sqlBefore !== null && sqlAfter !== null ? sqlAfter - sqlBefore : null;
  return {
    name: load.name,
    requestsPerSecond: result.requests.average,
    latencyMs: latencies.summary(),
    autocannonLatencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
    requestsSent: sent,
    requestsCompleted: result.requests.total,
    durationSeconds: result.duration,
    sqlStatements: statements,
    sqlPerRequest: statements !== null && sent > 0 ? statements / sent : null,
    rssMaxBytes: sampler ? sampler.maxBytes : null,
    cpuCores: cpu
      ? {
          target: cpu.byPid.get(settings.targetPid) ?? 0,
          client: [process.pid, ...(settings.clientPids ?? [])].reduce(
            (sum, pid) => sum + (cpu.byPid.get(pid) ?? 0),
            0,
          ),
          others: cpu.others,
        }
      : null,
    checks,
    warmup,
  };
}

async function settledStatements(origin: string): Promise<number> {
  let previous = await sqlStatements(origin);
  for (let i = 0; i < 20; i++) {
    await sleep(50);
    const now = await sqlStatements(origin);
    if (now === previous) return now;
    previous = now;
  }
  return previous;
}

/** Per-connection state that autocannon hands to setupRequest and onResponse. */
interface ConnectionContext {
  expect?: unknown;
}

/** One autocannon run of `seconds`, with its answers checked. */
function fire<E>(
  load: LoadDefinition<E>,
  seconds: number,
  connections: number,
): Promise<{ result: autocannon.Result; checks: ResponseChecks; latencies: LatencyRecorder }> {
  const latencies = new LatencyRecorder();
  const tally = new ResponseTally();
  const checks = tally.checks;
  const onResponse = (status: number, body: string, context: object) =>
    tally.record(status, body, load.verifyEvery, () => load.verify(body, (context as ConnectionContext).expect as E));
  const fixed = load.fixed ? load.next() : null;
  const request: autocannon.Request = fixed
    ? {
        onResponse: (status, body, context) => {
          (context as ConnectionContext).expect = fixed.expect;
          onResponse(status, body, context);
        },
      }
    : {
        // autocannon keeps one context per connection and, with one request in the list, renews it before each request.
        setupRequest: (req, context) => {
          const next = load.next();
          (context as ConnectionContext).expect = next.expect;
          return { ...req, body: next.body };
        },
        onResponse,
      };

  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: load.url,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...load.headers },
        ...(fixed ? { body: fixed.body } : {}),
        connections,
        duration: seconds,
        timeout: load.timeoutSeconds ?? 10,
        requests: [request],
      },
      (error: unknown, result: autocannon.Result) => {
        if (error) reject(error instanceof Error ? error : new Error('autocannon failed'));
        else {
          checks.connectionErrors = Math.max(0, result.errors - result.timeouts);
          checks.timeouts = result.timeouts;
          resolve({ result, checks, latencies });
        }
      },
    );
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTimeMs: number) =>
      latencies.record(responseTimeMs),
    );
    instance.on('reqError', (error: unknown) => tally.requestError(error));
  });
}

/** What came back in a run: counts by outcome, and a few samples of what went wrong. */
export class ResponseTally {
  readonly checks: ResponseChecks = {
    responses: 0,
    non2xx: 0,
    graphqlErrors: 0,
    wrongBodies: 0,
    verified: 0,
    connectionErrors: 0,
    timeouts: 0,
    samples: [],
  };

  /**
   * One answer: a non-2xx status and a GraphQL `errors` entry are errors; of
   * the others, every `verifyEvery`-th (by answers so far) is checked with `verify`.
   */
  record(status: number, body: string, verifyEvery: number, verify: () => string | null): void {
    const checks = this.checks;
    checks.responses += 1;
    if (status < 200 || status >= 300) {
      checks.non2xx += 1;
      this.note(`HTTP ${status}`, body);
    } else if (body.includes('"errors"')) {
      checks.graphqlErrors += 1;
      this.note('GraphQL errors', body);
    } else if (checks.responses % verifyEvery === 0) {
      checks.verified += 1;
      let problem: string | null;
      try {
        problem = verify();
      } catch (error) {
        problem = `cannot check the body: ${(error as Error).message}`;
      }
      if (problem) {
        checks.wrongBodies += 1;
        this.note(`unexpected answer (${problem})`, body);
      }
    }
  }

  /** A request that got no answer (the connection failed); counted by the caller, sampled here. */
  requestError(error: unknown): void {
    this.note('request error', String((error as Error)?.message ?? error));
  }

  private note(what: string, body: string): void {
    if (this.checks.samples.length < 5)
      this.checks.samples.push(`${what}: ${body.length > 300 ? `${body.slice(0, 300)}…` : body}`);
  }
}

/** Every response time of a run, in milliseconds, at full precision. */
export class LatencyRecorder {
  private values = new Float64Array(1 << 16);
  private count = 0;

  record(ms: number): void {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = ms;
  }

  /** p50, p99 (nearest rank), mean and max; zeros when nothing was recorded. */
  summary(): { p50: number; p99: number; mean: number; max: number } {
    if (this.count === 0) return { p50: 0, p99: 0, mean: 0, max: 0 };
    const sorted = this.values.slice(0, this.count).sort();
    const rank = (p: number) => sorted[Math.min(this.count - 1, Math.max(0, Math.ceil((p / 100) * this.count) - 1))];
    let sum = 0;
    for (const value of sorted) sum += value;
    return { p50: rank(50), p99: rank(99), mean: sum / this.count, max: sorted[this.count - 1] };
  }
}
