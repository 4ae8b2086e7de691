import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { BuildInfo } from '../version';

/** Hits, misses and evictions so far, and the bytes held now, of one cache. */
export interface CacheFigures {
  readonly hits: number;
  readonly misses: number;
  readonly evictions: number;
  readonly bytes: number;
}

/** One connection pool's figures (PostgreSQL). */
export interface PoolFigures {
  /** Which pool: the read path's own, or TypeORM's for writes. */
  readonly pool: string;
  /** Connections open (busy or idle), idle ones, and requests waiting for one. */
  readonly size: number;
  readonly idle: number;
  readonly waiting: number;
}

/** What a scrape reads from the rest of the server, each when it is scraped. */
export interface MetricSources {
  /** The response cache's evictions and bytes (its hits and misses are counted per request). */
  readonly responseCache?: () => Pick<CacheFigures, 'evictions' | 'bytes'> | null;
  /** The record caches by name (records, answer parts). */
  readonly recordCaches?: () => Readonly<Record<string, CacheFigures>>;
  /** The database's connection pools; none on SQLite. */
  readonly pools?: () => readonly PoolFigures[];
  /** Subscriptions open now. */
  readonly subscriptions?: () => number;
  /** Events handed to subscriptions so far (each a subscriber was sent). */
  readonly subscriptionEvents?: () => number;
  /** The registry version this instance knows. */
  readonly registryVersion?: () => Promise<number>;
}

/** One GraphQL operation as it completed. */
export interface CompletedOperation {
  /** query, mutation, subscription; null when it never got that far (a syntax error). */
  readonly type: string | null;
  readonly name: string | null;
  /** ok, graphql-errors, rejected (4xx) or error (5xx). */
  readonly outcome: string;
  readonly seconds: number;
  /** Whether the response cache answered it (hit), ran it and may keep it (miss), or was not used. */
  readonly cache: 'hit' | 'miss' | 'bypass';
}

/** Distinct operation names given labels of their own; later names are counted as `other`. */
export const OPERATION_NAME_LABELS = 200;

/** Seconds: GraphQL operations here take from tens of microseconds (a cache hit) to seconds (a heavy page). */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Seconds from a change's commit to its delivery to subscribers. */
const FEED_LAG_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The server's Prometheus metrics (prom-client, one registry of its own),
 * written at GET /metrics when METRICS=true. Everything is counted through the
 * few methods below, called from one place each (the request's completion,
 * the change feed's delivery), or read from its source when scraped. Label
 * values come from small fixed sets: routes, methods, statuses, operation
 * types and outcomes, cache and pool names, and the first
 * OPERATION_NAME_LABELS operation names (the names clients give their
 * operations); never names of registry entities, tokens or principals.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly operationNames = new BoundedLabel(OPERATION_NAME_LABELS);
  /**
   * What each request adds is counted here, in plain numbers and nested maps (nothing hashed or built per
   * request), and handed to prom-client's counters when scraped: prom-client's own inc() with labels hashes
   * them on every call, a few microseconds a request, about a twentieth of the cheapest request's cost.
   */
  private readonly requests = new Tally<string, string, number>();
  private readonly operations = new Tally<string, string, string>();
  private readonly cacheAnswers = { hits: 0, misses: 0 };
  private readonly durations: PlainHistogram;
  private readonly feedLag: PlainHistogram;
  /** Where the figures read at each scrape come from (see watch). */
  private readonly sources: { -readonly [K in keyof MetricSources]: MetricSources[K] } = {};

  constructor(build: BuildInfo) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'registry_build_info',
      help: 'The server version and git commit (always 1)',
      labelNames: ['version', 'commit'],
      registers,
    }).set({ version: build.version, commit: build.commit }, 1);
    const { requests, operations, cacheAnswers } = this;
    new Counter({
      name: 'registry_http_requests_total',
      help: 'HTTP requests answered, by route (the route pattern; unmatched for a 404), method and status',
      labelNames: ['route', 'method', 'status'],
      registers,
      collect() {
        this.reset();
        for (const [route, method, status, count] of requests.entries())
          this.inc({ route, method, status: String(status) }, count);
      },
    });
    new Counter({
      name: 'registry_graphql_operations_total',
      help: `GraphQL operations answered, by type, name (the first ${OPERATION_NAME_LABELS} names seen, then other) and outcome`,
      labelNames: ['operation_type', 'operation_name', 'outcome'],
      registers,
      collect() {
        this.reset();
        for (const [type, name, outcome, count] of operations.entries())
          this.inc({ operation_type: type, operation_name: name, outcome }, count);
      },
    });
    this.durations = new PlainHistogram(
      'registry_graphql_duration_seconds',
      'Time to answer a GraphQL operation, from the request to the response',
      DURATION_BUCKETS,
      registers,
    );
    for (const answer of ['hits', 'misses'] as const) {
      new Counter({
        name: `registry_response_cache_${answer}_total`,
        help:
          answer === 'hits'
            ? 'Operations answered from the response cache'
            : 'Cacheable operations the response cache did not hold (they ran)',
        registers,
        collect() {
          this.reset();
          this.inc(cacheAnswers[answer]);
        },
      });
    }
    this.feedLag = new PlainHistogram(
      'registry_change_feed_lag_seconds',
      "Seconds from a change's commit (on any instance) to this instance reading it for its subscribers",
      FEED_LAG_BUCKETS,
      registers,
    );
    this.registerSourcedMetrics(registers);
  }

  /** Names where figures read at each scrape come from (a source given again replaces the one before). */
  watch(sources: MetricSources): void {
    Object.assign(this.sources, sources);
  }

  /** The content type of `exposition()`. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Every metric in Prometheus's text exposition format. */
  exposition(): Promise<string> {
    return this.registry.metrics();
  }

  /** An HTTP request was answered. */
  requestCompleted(route: string, method: string, status: number): void {
    this.requests.add(route, method, status);
  }

  /** A GraphQL operation was answered. */
  operationCompleted(operation: CompletedOperation): void {
    this.operations.add(operation.type ?? 'unknown', this.operationNames.of(operation.name), operation.outcome);
    this.durations.observe(operation.seconds);
    if (operation.cache === 'hit') this.cacheAnswers.hits += 1;
    else if (operation.cache === 'miss') this.cacheAnswers.misses += 1;
  }

  /** The change feed read, for its subscribers, a change-log entry committed at `at` (ISO time, on any instance). */
  changeRead(at: string): void {
    const committed = Date.parse(at);
    if (Number.isFinite(committed)) this.feedLag.observe(Math.max(0, (Date.now() - committed) / 1000));
  }

  /** The metrics whose figures are read from their sources (see watch) at each scrape. */
  private registerSourcedMetrics(registers: Registry[]): void {
    const sources = this.sources;
    counterFrom(
      registers,
      'registry_response_cache_evictions_total',
      'Entries the response cache evicted to stay in its budget',
      () => sources.responseCache?.()?.evictions ?? 0,
    );
    gaugeFrom(
      registers,
      'registry_response_cache_bytes',
      'Bytes the response cache holds (as it counts them)',
      [],
      (set) => set({}, sources.responseCache?.()?.bytes ?? 0),
    );
    for (const figure of ['hits', 'misses', 'evictions'] as const) {
      new Counter({
        name: `registry_record_cache_${figure}_total`,
        help: `Record cache ${figure}, by cache (records: registry records; parts: kept answer parts)`,
        labelNames: ['cache'],
        registers,
        collect() {
          this.reset();
          for (const [cache, figures] of Object.entries(sources.recordCaches?.() ?? {}))
            this.inc({ cache }, figures[figure]);
        },
      });
    }
    gaugeFrom(
      registers,
      'registry_record_cache_bytes',
      'Bytes each record cache holds (as it counts them)',
      ['cache'],
      (set) => {
        for (const [cache, figures] of Object.entries(sources.recordCaches?.() ?? {})) set({ cache }, figures.bytes);
      },
    );
    for (const [figure, help] of [
      ['size', 'Connections open in the pool, busy or idle'],
      ['idle', 'Idle connections in the pool'],
      ['waiting', 'Queries waiting for a connection'],
    ] as const) {
      gaugeFrom(
        registers,
        `registry_db_pool_${figure}`,
        `${help} (PostgreSQL; by pool: read, write)`,
        ['pool'],
        (set) => {
          for (const pool of sources.pools?.() ?? []) set({ pool: pool.pool }, pool[figure]);
        },
      );
    }
    gaugeFrom(registers, 'registry_subscriptions_active', 'Subscriptions to the change log open now', [], (set) =>
      set({}, sources.subscriptions?.() ?? 0),
    );
    counterFrom(
      registers,
      'registry_subscription_events_total',
      'Events sent to subscriptions (one per subscriber)',
      () => sources.subscriptionEvents?.() ?? 0,
    );
    new Gauge({
      name: 'registry_version',
      help: 'The registry version this instance knows (it moves with every committed change)',
      registers,
      async collect() {
        if (sources.registryVersion) this.set(await sources.registryVersion());
      },
    });
  }
}

/** A counter whose total is read from its source at each scrape. */
function counterFrom(registers: Registry[], name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers,
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

/** A gauge whose values (by labels) are read from their source at each scrape. */
function gaugeFrom(
  registers: Registry[],
  name: string,
  help: string,
  labelNames: string[],
  read: (set: (labels: Record<string, string>, value: number) => void) => void,
): void {
  new Gauge({
    name,
    help,
    labelNames,
    registers,
    collect() {
      this.reset();
      read((labels, value) => this.set(labels, value));
    },
  });
}

/**
 * A histogram without labels, counted in plain numbers (a bucket's count, the sum and the count) and handed to
 * prom-client as a metric of its own, written in the same exposition as its Histogram's: prom-client's observe()
 * validates and hashes its labels and builds two objects on every call, which every request paid.
 */
export class PlainHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly counts: number[];
  private sum = 0;
  private count = 0;

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    registers: Registry[],
  ) {
    this.counts = bounds.map(() => 0);
    // A metric object as the registry reads it (name, help, type, get): prom-client's own types name only its classes.
    for (const registry of registers)
      registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  /** Counts one value (a value that is not a finite number is not counted). */
  observe(value: number): void {
    if (!Number.isFinite(value)) return;
    this.sum += value;
    this.count += 1;
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]) {
        this.counts[i] += 1;
        return;
      }
    }
  }

  /** The figures as prom-client's registry writes them: cumulative buckets up to +Inf, then the sum and the count. */
  get(): {
    name: string;
    help: string;
    type: string;
    aggregator: string;
    values: { labels: Record<string, string | number>; value: number; metricName: string }[];
  } {
    let below = 0;
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = this.bounds.map(
      (le, i) => {
        below += this.counts[i];
        return { labels: { le }, value: below, metricName: `${this.name}_bucket` };
      },
    );
    values.push(
      { labels: { le: '+Inf' }, value: this.count, metricName: `${this.name}_bucket` },
      { labels: {}, value: this.sum, metricName: `${this.name}_sum` },
      { labels: {}, value: this.count, metricName: `${this.name}_count` },
    );
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.counts.fill(0);
    this.sum = 0;
    this.count = 0;
  }
}

/** Counts by three label values, in nested maps: counting builds no key, and a scrape walks them all. */
class Tally<A, B, C> {
  private readonly counts = new Map<A, Map<B, Map<C, number>>>();

  add(a: A, b: B, c: C): void {
    let byB = this.counts.get(a);
    if (!byB) this.counts.set(a, (byB = new Map<B, Map<C, number>>()));
    let byC = byB.get(b);
    if (!byC) byB.set(b, (byC = new Map<C, number>()));
    byC.set(c, (byC.get(c) ?? 0) + 1);
  }

  *entries(): Generator<[A, B, C, number]> {
    for (const [a, byB] of this.counts)
      for (const [b, byC] of byB) for (const [c, count] of byC) yield [a, b, c, count];
  }
}

/**
 * A label whose values come from clients (operation names): each distinct
 * value keeps its own label until `limit` are known, after which new ones
 * are `other`. A value that is not a GraphQL name (or is longer than 100
 * characters) is `other` too, and a missing one `anonymous`.
 */
export class BoundedLabel {
  private readonly known = new Set<string>();

  constructor(private readonly limit: number) {}

  of(value: string | null): string {
    if (value === null) return 'anonymous';
    if (this.known.has(value)) return value;
    if (this.known.size >= this.limit || value.length > 100 || !/^[_A-Za-z][_0-9A-Za-z]*$/.test(value)) return 'other';
    this.known.add(value);
    return value;
  }
}
