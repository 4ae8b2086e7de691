import { comparable, UNCOMPARED_HEADERS, type Answer } from './engine-comparison';
import type { TestServer } from './server';

/** How long a stream stays quiet before what it sent is taken as all it has (a replay comes at once). */
const QUIET_MS = 1000;
/** The events read at most from one stream. */
const MAX_EVENTS = 12;

/**
 * A subscription's answer over Server-Sent Events (POST /graphql/stream, graphql-sse): the status, the headers
 * compared (as for queries) and the text of the first MAX_EVENTS events (or of those sent before the stream was
 * quiet for QUIET_MS), then the stream is closed. With a version to resume after, the events are the change log's entries
 * after it, sent at once: the same on two servers of the same data.
 */
export async function subscribeBriefly(
  server: TestServer,
  query: string,
  variables: Record<string, unknown>,
  headers: Record<string, string>,
): Promise<Answer> {
  const controller = new AbortController();
  const response = await fetch(`${server.origin}/graphql/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ query, variables }),
    signal: controller.signal,
  });
  const compared: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!UNCOMPARED_HEADERS.has(name)) compared[name] = value;
  });
  if (!response.body) return { status: response.status, headers: compared, body: '' };
  if (!/^text\/event-stream/.test(response.headers.get('content-type') ?? ''))
    return { status: response.status, headers: compared, body: comparable(server, await response.text()) };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while ((text.match(/\n\n/g)?.length ?? 0) < MAX_EVENTS) {
      let timer: NodeJS.Timeout | undefined;
      const quiet = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), QUIET_MS)));
      const chunk = await Promise.race([reader.read(), quiet]);
      clearTimeout(timer);
      if (chunk === null || chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
  } finally {
    controller.abort();
    await reader.cancel().catch(() => undefined);
  }
  // Whole events only, MAX_EVENTS at most (a read may bring more), without keep-alive comments (`:` lines), which
  // come by the clock, not from the subscription.
  const events = text
    .split('\n')
    .filter((line) => !line.startsWith(':'))
    .join('\n')
    .split('\n\n')
    .slice(0, -1)
    .filter((event) => event.trim() !== '')
    .slice(0, MAX_EVENTS)
    .join('\n\n');
  return { status: response.status, headers: compared, body: comparable(server, events) };
}
