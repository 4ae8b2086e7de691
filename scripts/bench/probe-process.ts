/**
 * The fairness probe in a process of its own: `{ __typename }` past the
 * response cache, one request at a time, from the parent's `go` to its
 * `stop` (IPC messages); then it sends its figures back, and it exits when
 * the parent disconnects. In the benchmark's
 * own process the probe shared one event loop with autocannon, so once the
 * expensive requests came back fast and large (hundreds a second of 300 KB
 * pages), its answers waited for the client, not the server: 30 ms in
 * process against 0.2 ms from a process of its own, on the same server.
 * Run as `node -r @swc-node/register scripts/bench/probe-process.ts <graphql url>`.
 */
import { startPacedClient } from './paced-client';
import { NO_CACHE } from './loads';
import { FLOOR_QUERY, graphqlBody, verifyFloor } from './workloads';

const url = process.argv[2];
if (!url || !process.send) throw new Error('usage: a child process with IPC, given the GraphQL URL');
const body = graphqlBody(FLOOR_QUERY);
let client: ReturnType<typeof startPacedClient> | null = null;
process.on('message', (message: { go?: true; stop?: string }) => {
  if (message.go) {
    client = startPacedClient({
      url,
      headers: NO_CACHE,
      perSecond: Infinity,
      next: () => ({ body, expect: null }),
      verify: verifyFloor,
    });
  } else if (message.stop && client) {
    void client.stop(message.stop as never).then((result) => process.send!({ result }));
  }
});
// Kept until the parent lets go, so that its CPU can still be read when the load beside it ends.
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
