import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

/** The WebSocket URL of a GraphQL endpoint. */
export function wsUrl(httpUrl: string): string {
  return httpUrl.replace(/^http/, 'ws');
}

/** A graphql-ws client (graphql-transport-ws), as a Node service would open one, with optional upgrade headers. */
export function subscriptionClient(
  httpUrl: string,
  options: { connectionParams?: Record<string, unknown>; headers?: Record<string, string>; retry?: boolean } = {},
): Client & { closes: { code: number; reason: string }[] } {
  const closes: { code: number; reason: string }[] = [];
  const headers = options.headers ?? {};
  class HeaderedWebSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  }
  const client = createClient({
    url: wsUrl(httpUrl),
    webSocketImpl: HeaderedWebSocket,
    connectionParams: options.connectionParams,
    lazy: true,
    retryAttempts: options.retry ? 5 : 0,
    on: {
      closed: (event) => {
        const { code, reason } = event as { code: number; reason: string };
        closes.push({ code, reason: String(reason) });
      },
    },
  });
  return Object.assign(client, { closes });
}

/**
 * Subscribes and collects results until `done` says enough (or the stream
 * ends), failing after `timeoutMs`. Resolves with what came, errors included.
 */
export async function collect<T>(
  client: Client,
  query: string,
  variables: Record<string, unknown>,
  done: (items: T[]) => boolean,
  timeoutMs = 15_000,
): Promise<{ items: T[]; errors: unknown[] }> {
  const items: T[] = [];
  const errors: unknown[] = [];
  const iterator = client.iterate<Record<string, T>>({ query, variables });
  const timer = setTimeout(() => void iterator.return?.(undefined), timeoutMs);
  try {
    for await (const result of iterator) {
      if (result.errors) errors.push(...result.errors);
      if (result.data) items.push(Object.values(result.data)[0]);
      if (done(items) || result.errors) break;
    }
  } catch (error) {
    errors.push(error);
  } finally {
    clearTimeout(timer);
    await iterator.return?.(undefined);
  }
  return { items, errors };
}

/** A graphql-transport-ws message as the server sends it. */
export interface ServerMessage {
  type: string;
  id?: string;
  payload?: any;
}

/**
 * A bare graphql-transport-ws socket, for what a well-behaved client would not do: many subscribes at once, not
 * reading. It has sent connection_init and been acknowledged; every later message is kept in `messages`.
 */
export interface RawSubscriber {
  readonly socket: WebSocket;
  readonly messages: ServerMessage[];
  readonly closed: Promise<{ code: number; reason: string }>;
  subscribe(id: string, query: string, variables?: Record<string, unknown>): void;
  /** Waits until `count` messages match (or fails after `timeoutMs`). */
  waitFor(match: (m: ServerMessage) => boolean, count: number, timeoutMs?: number): Promise<ServerMessage[]>;
  /** Stops reading from the TCP socket (the server's sends back up), or reads again. */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function rawSubscriber(
  httpUrl: string,
  options: { authorization?: string; headers?: Record<string, string> } = {},
): Promise<RawSubscriber> {
  const socket = new WebSocket(wsUrl(httpUrl), 'graphql-transport-ws', { headers: options.headers ?? {} });
  const messages: ServerMessage[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const acked = new Promise<void>((resolve, reject) => {
    socket.on('message', (data) => {
      const message = JSON.parse((data as Buffer).toString()) as ServerMessage;
      if (message.type === 'connection_ack') resolve();
      else messages.push(message);
    });
    void closed.then(({ code, reason }) => reject(new Error(`closed before ack: ${code} ${reason}`)));
  });
  socket.send(
    JSON.stringify({
      type: 'connection_init',
      payload: options.authorization ? { authorization: options.authorization } : {},
    }),
  );
  await acked;
  const tcp = (socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
  return {
    socket,
    messages,
    closed,
    subscribe(id, query, variables) {
      socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query, variables } }));
    },
    async waitFor(match, count, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.filter(match);
        if (found.length >= count) return found;
        if (Date.now() > until)
          throw new Error(`waited for ${count} messages, got ${found.length}: ${JSON.stringify(messages.slice(-3))}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    pause: () => tcp.pause(),
    resume: () => tcp.resume(),
    async close() {
      if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.close();
      await closed;
    },
  };
}
