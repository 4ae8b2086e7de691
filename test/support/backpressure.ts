/**
 * A request sent as a client that honours the server's backpressure would send it: an answer of HTTP 503
 * SERVICE_UNAVAILABLE is sent again after a pause, as its Retry-After asks (at most 5 tries); anything else is the
 * answer. On PostgreSQL, the last of 100 concurrent writes may wait longer than the pool's connection timeout for
 * one of its connections on a busy machine, and is then refused with 503 before it starts: nothing was written.
 */
export async function honouringBackpressure<T extends { status: number }>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const answer = await send();
    if (answer.status !== 503 || attempt === 5) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
  }
}
