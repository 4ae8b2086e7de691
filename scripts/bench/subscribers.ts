/**
 * Live delivery: WebSocket subscribers (graphql-transport-ws, spoken with the
 * `ws` package directly so the client stays light) that count the
 * `registryChanged` events they receive while the write load runs, and the
 * delay from each entry's commit (`at`, stamped by the server) to its arrival.
 */
import WebSocket from 'ws';

/** What a set of subscribers saw. */
export interface DeliveryResult {
  readonly subscribers: number;
  /** Events delivered per second, summed over every subscriber. */
  readonly eventsPerSecond: number;
  /** Events each subscriber got, at least and at most (all equal when none missed any). */
  readonly perSubscriber: { readonly min: number; readonly max: number };
  /** Commit-to-arrival delay, over every event of every subscriber. */
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly max: number };
  readonly durationSeconds: number;
}

const SUBSCRIPTION = 'subscription { registryChanged { version at } }';

/** Opens `count` subscriptions and resolves once every one is acknowledged and subscribed. */
export async function openSubscribers(
  url: string,
  count: number,
): Promise<{ stop(durationSeconds: number): DeliveryResult; close(): Promise<void> }> {
  const sockets: WebSocket[] = [];
  const delays: number[] = [];
  const counts = new Array<number>(count).fill(0);
  let counting = false;
  await Promise.all(
    Array.from(
      { length: count },
      (_, i) =>
        new Promise<void>((resolve, reject) => {
          const socket = new WebSocket(url.replace(/^http/, 'ws'), 'graphql-transport-ws');
          sockets.push(socket);
          socket.once('error', reject);
          socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
          socket.on('message', (data: Buffer) => {
            const message = JSON.parse(data.toString()) as {
              type: string;
              payload?: { data?: { registryChanged?: { at: string } } };
            };
            if (message.type === 'connection_ack') {
              socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: SUBSCRIPTION } }));
              // The server has registered the subscription once it answers a ping after the subscribe.
              socket.send(JSON.stringify({ type: 'ping' }));
            } else if (message.type === 'pong') {
              resolve();
            } else if (message.type === 'next' && counting) {
              counts[i] += 1;
              const at = message.payload?.data?.registryChanged?.at;
              if (at) delays.push(Date.now() - Date.parse(at));
            } else if (message.type === 'error') {
              reject(new Error(`subscription refused: ${JSON.stringify(message.payload)}`));
            }
          });
        }),
    ),
  );
  counting = true;
  return {
    stop(durationSeconds) {
      counting = false;
      const total = counts.reduce((a, b) => a + b, 0);
      delays.sort((a, b) => a - b);
      const at = (q: number) =>
        delays.length === 0 ? 0 : delays[Math.min(delays.length - 1, Math.floor(q * delays.length))];
      return {
        subscribers: count,
        eventsPerSecond: total / durationSeconds,
        perSubscriber: { min: Math.min(...counts), max: Math.max(...counts) },
        latencyMs: { p50: at(0.5), p99: at(0.99), max: delays.at(-1) ?? 0 },
        durationSeconds,
      };
    },
    async close() {
      await Promise.all(
        sockets.map(
          (socket) =>
            new Promise<void>((resolve) => {
              if (socket.readyState === WebSocket.CLOSED) return resolve();
              socket.once('close', () => resolve());
              socket.close(1000);
            }),
        ),
      );
    },
  };
}

/** What a replaying client got. */
export interface ReplayResult {
  /** Entries it was sent, over every replay. */
  readonly entries: number;
  /** Replays it finished (each of every entry after `afterVersion`). */
  readonly replays: number;
}

/**
 * A client that replays the change log over WebSocket, as fast as it reads: `registryChanged(afterVersion)` until it
 * has the `entries` entries after `afterVersion`, then again from the start, until stopped.
 */
export async function startReplayer(
  url: string,
  afterVersion: number,
  entries: number,
): Promise<{ sent(): number; stop(): Promise<ReplayResult> }> {
  const socket = new WebSocket(url.replace(/^http/, 'ws'), 'graphql-transport-ws');
  let received = 0;
  let replays = 0;
  let inThisReplay = 0;
  let id = 0;
  const subscribe = () => {
    id += 1;
    inThisReplay = 0;
    socket.send(
      JSON.stringify({
        id: String(id),
        type: 'subscribe',
        payload: {
          query: 'subscription($after: Int) { registryChanged(afterVersion: $after) { version } }',
          variables: { after: afterVersion },
        },
      }),
    );
  };
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { type: string; id?: string; payload?: unknown };
      if (message.type === 'connection_ack') {
        subscribe();
        resolve();
      } else if (message.type === 'next' && message.id === String(id)) {
        received += 1;
        inThisReplay += 1;
        if (inThisReplay >= entries) {
          replays += 1;
          socket.send(JSON.stringify({ id: String(id), type: 'complete' }));
          subscribe();
        }
      } else if (message.type === 'error') {
        reject(new Error(`replay refused: ${JSON.stringify(message.payload)}`));
      }
    });
  });
  return {
    sent: () => received,
    async stop() {
      const result = { entries: received, replays };
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.close(1000);
      });
      return result;
    },
  };
}
