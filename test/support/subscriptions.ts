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
