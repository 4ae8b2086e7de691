/**
 * Metrics mode (`--metrics`): floor and resolve on a server with METRICS=true,
 * scraped every second as Prometheus would (more often than any real setup),
 * and on one with metrics off, side by side (./side-by-side.ts): each round a
 * fresh pair, both running at once on their own copies of the registry, each
 * load measured on one and then the other in alternating order. Reports
 * each load's requests a second over the rounds, and the ratio of on to off.
 */
import { hasErrors } from './loads';
import type { BenchOptions } from './options';
import { Random } from './random';
import { floorLoad, prepareRegistry, progress, resolveLoad } from './run';
import { reportStamp, type MetricsOverheadReport } from './report';
import { sideBySide } from './side-by-side';

/** Rounds: fresh pairs of servers, each load measured once on each side (half the load's duration). */
const METRICS_ROUNDS = 6;

/** How often the metrics run's stand-in for Prometheus scrapes /metrics (a real scrape interval is 15 s or more). */
const SCRAPE_INTERVAL_MS = 1000;

export async function runMetricsOverhead(root: string, options: BenchOptions): Promise<MetricsOverheadReport> {
  const started = performance.now();
  const registry = await prepareRegistry(root, options, options.size);
  const random = new Random(options.seed).derive('requests');
  const rounds = options.quick ? 1 : METRICS_ROUNDS;
  const scraped = { scrapes: 0, failures: 0 };
  const loads = await sideBySide(root, options, registry, {
    sides: [
      ['metrics off', { env: { METRICS: 'false' } }],
      ['metrics on', { env: { METRICS: 'true' } }],
    ],
    plan: (server) => [floorLoad(server, 'floor'), resolveLoad(server, registry, random)],
    name: (load, side) => `${load as 'floor' | 'resolve'} (${side})`,
    rounds,
    beside: (servers) => {
      const scraper = startScraper(servers['metrics on'].origin);
      return {
        async stop() {
          const done = await scraper.stop();
          scraped.scrapes += done.scrapes;
          scraped.failures += done.failures;
        },
      };
    },
  });
  progress(`metrics scraped ${scraped.scrapes} times (${scraped.failures} failed)`);
  return {
    kind: 'metrics',
    ...reportStamp(options),
    registry: registry.info,
    rounds,
    loads,
    scrapes: scraped.scrapes,
    scrapeFailures: scraped.failures,
    errors: loads.some(hasErrors) || scraped.failures > 0,
    elapsedMs: performance.now() - started,
  };
}

/** GETs /metrics every SCRAPE_INTERVAL_MS until stopped, as Prometheus would; counts scrapes and failures. */
function startScraper(origin: string): { stop(): Promise<{ scrapes: number; failures: number }> } {
  let scrapes = 0;
  let failures = 0;
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = fetch(`${origin}/metrics`)
      .then(async (response) => {
        const text = await response.text();
        if (response.status !== 200 || !text.includes('registry_http_requests_total')) failures++;
      })
      .catch(() => void failures++)
      .finally(() => void scrapes++);
  }, SCRAPE_INTERVAL_MS);
  return {
    async stop() {
      clearInterval(timer);
      await running;
      return { scrapes, failures };
    },
  };
}
