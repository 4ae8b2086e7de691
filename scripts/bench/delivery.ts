/**
 * Live delivery under a paced writer: `count` WebSocket subscribers to
 * `registryChanged` while one client registers tools at a fixed rate (one
 * at a time, on a schedule). With the writer unpaced (10 connections writing
 * as fast as they can, the full run's first delivery rows), the server's
 * split of the thread between writes and deliveries decides both the write
 * rate and the delay, so two versions that split it differently cannot be
 * compared on delay; at the same asked rate they can.
 */
import type { LoadResult } from './loads';
import { startPacedClient } from './paced-client';
import { BENCH_ADMIN_TOKEN, sleep, type RegistryServer } from './processes';
import { openSubscribers, type DeliveryResult } from './subscribers';
import { verifyWrite, type PreparedRequest } from './workloads';

/**
 * The paced writer's rate by number of subscribers: the writes/s that the feed of before the bounded live updates
 * (delivery synchronous with the commit, which held the writers back) sustained with an unpaced writer, as its
 * benchmark recorded them (README of 2026-12-04: 302, 272 and 115 writes/s), so that the delay now can be set
 * beside the delay then at the same rate.
 */
export const PACED_WRITES_PER_SECOND: Readonly<Record<number, number>> = { 1: 300, 10: 270, 100: 115 };

/** The paced rate for `count` subscribers (the rate of the nearest count listed at or above it). */
export function pacedRate(count: number): number {
  const listed = Object.keys(PACED_WRITES_PER_SECOND)
    .map(Number)
    .sort((a, b) => a - b);
  const at = listed.find((n) => n >= count) ?? listed[listed.length - 1];
  return PACED_WRITES_PER_SECOND[at];
}

/** One delivery row: what the subscribers saw, the writes achieved, and the rate asked (null: unpaced). */
export type DeliveryRow = DeliveryResult & { readonly writesPerSecond: number; readonly pacedAt: number | null };

/**
 * Opens `count` subscribers, writes at `perSecond` for `durationSeconds` (as the benchmark's admin unless other
 * `headers` are given), and returns what they saw. `ready` waits until the server counts the subscribers (the
 * benchmark's entry reports them); the subscribers' own ping after subscribing already orders the subscription
 * before the first write.
 */
export async function pacedDelivery(
  server: RegistryServer,
  count: number,
  writes: () => PreparedRequest<string>,
  perSecond: number,
  durationSeconds: number,
  ready: () => Promise<void> = async () => {},
  headers: Record<string, string> = { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
): Promise<{ row: DeliveryRow; writer: LoadResult }> {
  const subscribers = await openSubscribers(server.graphqlUrl, count);
  try {
    await ready();
    const writer = startPacedClient({
      url: server.graphqlUrl,
      headers,
      perSecond,
      next: writes,
      verify: verifyWrite,
    });
    await sleep(durationSeconds * 1000);
    const written = await writer.stop('write');
    // Deliveries of the last writes may still be on their way: give them a moment before counting.
    await sleep(250);
    const seen = subscribers.stop(written.durationSeconds);
    return { row: { ...seen, writesPerSecond: written.requestsPerSecond, pacedAt: perSecond }, writer: written };
  } finally {
    await subscribers.close();
  }
}
