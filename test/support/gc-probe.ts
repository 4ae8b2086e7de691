/**
 * Run by test/integration/request-state-gc.test.ts in a process of its own,
 * with V8's --trace-gc-nvp: starts the server on the demo data, warms it up,
 * prints a marker line, then sends resolveBindings requests one after
 * another over one keep-alive connection, each body unique (an unused
 * variable, as the benchmark's unique loads do), and prints a closing marker.
 * The test reads the young-generation collections between the markers: how
 * much each promoted to the old generation.
 */
import { Agent, request } from 'node:http';
import { cleanUpBackends, sqlite } from './backends';
import { startServer } from './server';

const QUERY = `query Resolve($tool: String!, $project: String!) {
  resolveBindings(tool: $tool, project: $project) { slotName bindingMode resourceId resource { name } deferred access }
}`;

async function main(): Promise<void> {
  const requests = Number(process.argv[2] ?? 3000);
  // The production path: no comparison of each answer with graphql-js, queries compiled at their second run.
  const server = await startServer(sqlite, { demoData: true }, { checkExecution: false });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(server.url);
  let n = 0;
  const send = () =>
    new Promise<void>((resolve, reject) => {
      const body = JSON.stringify({
        query: QUERY,
        variables: { tool: 'demo/mixed', project: 'demo', unique: `probe-${++n}` },
      });
      const req = request({ agent, host: url.hostname, port: url.port, path: url.pathname, method: 'POST' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200 || !text.includes('"resolveBindings"')) reject(new Error(text));
          else resolve();
        });
      });
      req.on('error', reject);
      req.setHeader('content-type', 'application/json');
      req.end(body);
    });
  // Warm-up: compiles the query, fills the record cache and the response cache's first entries.
  for (let i = 0; i < 500; i++) await send();
  console.log('GC-PROBE-START');
  for (let i = 0; i < requests; i++) await send();
  console.log('GC-PROBE-END');
  agent.destroy();
  await server.close();
  await cleanUpBackends();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
