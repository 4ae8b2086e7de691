/**
 * One client that sends its requests one after another, beside a load: the
 * paced writer of resolve+writes (one write every 1/rate seconds, on a
 * schedule, not as fast as the server allows) and the fairness load's probe
 * (as fast as its answers come). A request that takes longer than its slot
 * delays the next one (requests never overlap), so the achieved rate can fall
 * below the asked one; the report gives the achieved rate. Stopping waits for
 * the request in flight, so even a request stuck behind others for the whole
 * run is timed. Every answer is checked like a load's.
 */
import type { LoadResult } from './loads';
import { LatencyRecorder, ResponseTally } from './loads';
import { sleep } from './processes';
import type { PreparedRequest } from './workloads';

export interface PacedClient {
  /** Stops after the request in flight and returns the client's figures as a load row named `name`. */
  stop(name: LoadResult['name']): Promise<LoadResult>;
}

/** Starts sending, `perSecond` requests per second at most (Infinity: each as soon as the last is answered), until stopped. */
export function startPacedClient<E>(options: {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly perSecond: number;
  next(): PreparedRequest<E>;
  verify(body: string, expect: E): string | null;
}): PacedClient {
  const tally = new ResponseTally();
  const checks = tally.checks;
  const latencies = new LatencyRecorder();
  const intervalMs = 1000 / options.perSecond;
  const started = performance.now();
  let sent = 0;
  let running = true;

  const loop = (async () => {
    for (let i = 0; running; i++) {
      const wait = started + i * intervalMs - performance.now();
      if (wait > 0) await sleep(wait);
      if (!running) break;
      const request = options.next();
      sent += 1;
      const at = performance.now();
      try {
        const response = await fetch(options.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...options.headers },
          body: request.body,
        });
        const body = await response.text();
        latencies.record(performance.now() - at);
        tally.record(response.status, body, 1, () => options.verify(body, request.expect));
      } catch (error) {
        checks.connectionErrors += 1;
        tally.requestError(error);
      }
    }
  })();

  return {
    async stop(name) {
      running = false;
      await loop;
      const seconds = (performance.now() - started) / 1000;
      return {
        name,
        requestsPerSecond: checks.responses / seconds,
        latencyMs: latencies.summary(),
        autocannonLatencyMs: { p50: 0, p99: 0 },
        requestsSent: sent,
        requestsCompleted: checks.responses,
        durationSeconds: seconds,
        sqlStatements: null,
        sqlPerRequest: null,
        rssMaxBytes: null,
        cpuCores: null,
        checks,
        warmup: null,
      };
    },
  };
}
