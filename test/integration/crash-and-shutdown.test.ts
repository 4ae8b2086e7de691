import Database from 'better-sqlite3';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { sqlite } from '../support/backends';
import { gqlAt, spawnServer, type ServerProcess } from '../support/process-server';
import { collect, subscriptionClient } from '../support/subscriptions';

const REGISTER = 'mutation($i: RegisterToolInput!) { registerTool(input: $i) { tool { id } } }';

/** The JSON log lines a server process wrote (stdout), parsed; anything else it wrote is returned apart. */
function logLines(server: ServerProcess): { lines: any[]; other: string[] } {
  const lines: any[] = [];
  const other: string[] = [];
  for (const line of server.output.join('').split('\n').filter(Boolean)) {
    if (line.startsWith('{')) lines.push(JSON.parse(line));
    else other.push(line);
  }
  return { lines, other };
}

/** A POST whose body is sent in two halves, with a pause between, so it is in flight for a while. */
function slowRequest(
  url: string,
  body: string,
  pauseMs: number,
  onHalfSent: () => void,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, 10));
    onHalfSent();
    setTimeout(() => req.end(body.slice(10)), pauseMs);
  });
}

describe('crashes and shutdown (real processes, SQLite)', function () {
  this.timeout(240_000);

  it('SIGTERM: requests in flight complete, new ones are refused, the database is closed, and the process exits within 10 s', async () => {
    const database = await sqlite.freshDatabase();
    if (database.kind !== 'sqlite') throw new Error('expected SQLite');
    const server = await spawnServer({ DATABASE_URL: `sqlite:${database.path}`, DEMO_DATA: 'true' });
    const body = JSON.stringify({
      query: '{ resolveBindings(tool: "demo/mixed", project: "demo") { slotName resource { name } } }',
    });
    let signalledAt = 0;
    const inFlight = slowRequest(server.url, body, 700, () => {
      setTimeout(() => {
        signalledAt = Date.now();
        server.child.kill('SIGTERM');
      }, 200);
    });
    // A new connection after the signal is refused.
    await new Promise((resolve) => setTimeout(resolve, 450));
    const refused = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }).then(
      (r) => `HTTP ${r.status}`,
      (e: Error & { cause?: { code?: string } }) => e.cause?.code ?? e.message,
    );
    const completed = await inFlight;
    const exit = await server.exited;
    const exitedAfterMs = Date.now() - signalledAt;

    expect(completed.status).to.equal(200);
    expect(JSON.parse(completed.text).data.resolveBindings.map((b: any) => b.resource?.name ?? null)).to.deep.equal([
      'acme/app-repo',
      'local/shared-config',
      null,
    ]);
    expect(refused).to.match(/ECONNREFUSED|HTTP 503/);
    expect(exit.code).to.equal(0);
    expect(exitedAfterMs).to.be.below(10_000);
    // A cleanly closed SQLite database has checkpointed and removed its write-ahead log.
    expect(existsSync(`${database.path}-wal`)).to.equal(false);
  });

  it('kill -9 during a stream of registerTool calls, 20 times: every acknowledged tool survives whole, and the file is intact', async () => {
    const database = await sqlite.freshDatabase();
    if (database.kind !== 'sqlite') throw new Error('expected SQLite');
    const env = { DATABASE_URL: `sqlite:${database.path}`, DEMO_DATA: 'true' };
    const acknowledged: string[] = [];
    for (let cycle = 0; cycle < 20; cycle++) {
      const server = await spawnServer(env);
      const killAfter = 40 + ((cycle * 37) % 160);
      let stop = false;
      const writers = Array.from({ length: 4 }, async (_, w) => {
        for (let n = 0; !stop; n++) {
          const name = `crash/c${cycle}-w${w}-n${n}`;
          const slots = [
            { name: 'repo', resourceType: 'git-checkout' },
            { name: 'config', resourceType: 'fs-directory', binding: 'STATIC', staticResource: 'local/shared-config' },
            { name: 'out', resourceType: 'fs-directory', binding: 'PARAMETER' },
          ];
          try {
            const { status, body } = await gqlAt(server.url, REGISTER, { i: { name, resourceSlots: slots } });
            if (status === 200 && !body.errors) acknowledged.push(name);
          } catch {
            return; // the process died mid-request: not acknowledged
          }
        }
      });
      // Killed while the stream writes: once this cycle has an acknowledged write (however slow the machine), then
      // 40–200 ms later.
      const before = acknowledged.length;
      for (let waited = 0; acknowledged.length === before && waited < 30_000; waited += 5) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await new Promise((resolve) => setTimeout(resolve, killAfter));
      server.child.kill('SIGKILL');
      stop = true;
      await Promise.all(writers);
      await server.exited;
    }
    expect(acknowledged.length, 'at least one acknowledged write a cycle').to.be.at.least(20);

    const check = new Database(database.path, { readonly: true });
    try {
      expect(check.pragma('integrity_check', { simple: true })).to.equal('ok');
      const stored = new Set(
        (check.prepare("SELECT name FROM tool WHERE name LIKE 'crash/%'").all() as { name: string }[]).map(
          (r) => r.name,
        ),
      );
      const missing = acknowledged.filter((name) => !stored.has(name));
      expect(missing, 'acknowledged but lost').to.deep.equal([]);
      const partial = check
        .prepare(
          "SELECT t.name FROM tool t WHERE t.name LIKE 'crash/%' AND (SELECT COUNT(*) FROM resource_slot s WHERE s.tool_id = t.id) <> 3",
        )
        .all();
      expect(partial, 'tools without all their slots').to.deep.equal([]);
    } finally {
      check.close();
    }
  });

  it('SIGTERM logs "shutting down", then "stopped" with the connections and subscriptions it drained, through the logger', async () => {
    const database = await sqlite.freshDatabase();
    if (database.kind !== 'sqlite') throw new Error('expected SQLite');
    const server = await spawnServer({ DATABASE_URL: `sqlite:${database.path}`, DEMO_DATA: 'true' });
    const client = subscriptionClient(server.url);
    const changes = collect(client, 'subscription { registryChanged { version } }', {}, () => false, 20_000);
    // A subscription open, and a keep-alive connection that has served a request.
    for (let i = 0; i < 50 && !logLines(server).lines.some((l) => l.msg === 'request completed'); i++) {
      await gqlAt(server.url, '{ __typename }');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const exit = await server.stop('SIGTERM');
    await changes;
    await client.dispose();

    expect(exit.code).to.equal(0);
    expect(client.closes.map((c) => c.code)).to.deep.equal([1001]);
    const { lines, other } = logLines(server);
    expect(other, 'lines not written by the logger').to.deep.equal([]);
    const shuttingDown = lines.findIndex((l) => l.msg === 'shutting down');
    const stopped = lines.findIndex((l) => l.msg === 'stopped');
    expect(shuttingDown).to.be.at.least(0);
    expect(stopped).to.be.greaterThan(shuttingDown);
    expect(lines[shuttingDown]).to.include({ level: 30, signal: 'SIGTERM', graceMs: 10_000 });
    expect(lines[stopped]).to.include({ level: 30, subscriptions: 1 });
    // The WebSocket, and the HTTP connection if the client kept it alive.
    expect(lines[stopped].connections).to.be.within(1, 2);
    expect(lines[stopped].durationMs).to.be.a('number');
  });

  it('gives up after SHUTDOWN_GRACE_MS when a request in flight does not finish: it says so and exits 1', async () => {
    const database = await sqlite.freshDatabase();
    if (database.kind !== 'sqlite') throw new Error('expected SQLite');
    const server = await spawnServer({ DATABASE_URL: `sqlite:${database.path}`, SHUTDOWN_GRACE_MS: '1000' });
    // A request whose body never ends: it stays in flight.
    const stuck = request(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '1000' },
    });
    stuck.on('error', () => undefined);
    stuck.write('{"query":');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalledAt = Date.now();
    const exit = await server.stop('SIGTERM');
    const tookMs = Date.now() - signalledAt;
    stuck.destroy();

    expect(exit.code).to.equal(1);
    expect(tookMs).to.be.at.least(900);
    const { lines } = logLines(server);
    expect(lines.map((l) => l.msg)).to.include.members([
      'shutting down',
      'shutdown took longer than SHUTDOWN_GRACE_MS; exiting with requests still open',
    ]);
    expect(lines.map((l) => l.msg)).to.not.include('stopped');
  });
});
