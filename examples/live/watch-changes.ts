// Follows the registry's change log live, as a Node service would, with graphql-ws over WebSocket:
//
//   node -r @swc-node/register examples/live/watch-changes.ts [http://localhost:4000/graphql] [afterVersion]
//
// It prints one line per change-log entry, and resumes where it left off when the connection drops
// (restart, network, or the server dropping a consumer too slow to keep up): each resubscription asks for the
// entries after the last version it printed, so nothing is missed and nothing is printed twice.
// With READ_TOKEN or ADMIN_TOKEN set on the server, pass one in REGISTRY_TOKEN.
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const url = (process.argv[2] ?? 'http://localhost:4000/graphql').replace(/^http/, 'ws');
let lastVersion: number | null = process.argv[3] === undefined ? null : Number(process.argv[3]);

const CHANGES = `subscription Changes($after: Int) {
  registryChanged(afterVersion: $after) { version at actor kind summary impactCount }
}`;

interface Entry {
  version: number;
  at: string;
  actor: string;
  kind: string;
  summary: string;
  impactCount: number;
}

const client = createClient({
  url,
  webSocketImpl: WebSocket,
  // The token goes in connection_init (an Authorization header on the upgrade request works too).
  connectionParams: () => (process.env.REGISTRY_TOKEN ? { authorization: `Bearer ${process.env.REGISTRY_TOKEN}` } : {}),
  // Reconnecting is done below, by subscribing again from the last version printed: graphql-ws's own retry would
  // resubscribe with the first variables, and replay what was printed already.
  retryAttempts: 0,
});

async function follow(): Promise<void> {
  for (;;) {
    try {
      const changes = client.iterate<{ registryChanged: Entry }>({ query: CHANGES, variables: { after: lastVersion } });
      for await (const result of changes) {
        if (result.errors) throw new Error(result.errors.map((e) => e.message).join('; '));
        const entry = result.data!.registryChanged;
        lastVersion = entry.version;
        console.log(
          `v${entry.version} ${entry.at} ${entry.actor} ${entry.kind}: ${entry.summary} (${entry.impactCount} binding changes)`,
        );
      }
    } catch (error) {
      console.error(
        `connection lost (${error instanceof Error ? error.message : String(error)}); resuming after v${lastVersion ?? 'now'}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

process.once('SIGINT', () => void Promise.resolve(client.dispose()).then(() => process.exit(0)));
void follow();
