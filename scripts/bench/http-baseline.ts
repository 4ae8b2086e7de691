/**
 * The benchmark's "http" load target: a bare node:http server that reads each
 * request body and answers every POST with the same small JSON (the size of
 * the floor's answer). Run as its own process by the benchmark; it prints
 * "listening on <port>" and stops on SIGTERM. Loopback only.
 */
import { createServer } from 'node:http';

const ANSWER = Buffer.from(JSON.stringify({ data: { __typename: 'Query' } }));

const server = createServer((request, response) => {
  // Read the whole body, as any real handler must, before answering.
  request.on('data', () => undefined);
  request.on('end', () => {
    if (request.method !== 'POST') {
      response.writeHead(405, { 'content-type': 'application/json' }).end('{"error":"POST only"}');
      return;
    }
    response
      .writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': ANSWER.length })
      .end(ANSWER);
  });
});

server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`listening on ${port}\n`);
});

process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
