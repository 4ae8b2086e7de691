import { expect } from 'chai';
import { Client } from 'pg';
import { postgres, requirePostgres } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

const REQUESTS = 20;
const QUERY = `{ tools(first: 5) { totalCount edges { node { name } } } }`;

/** Waits (polling, no deadline of its own: the test's timeout catches a hang) until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/**
 * On PostgreSQL each request needs the registry version, read from the database (another instance may have
 * written). Concurrent requests share those reads, each answered by a read sent after it asked.
 */
describe('registry version reads under concurrent requests [postgres]', function () {
  this.timeout(60_000);
  let server: TestServer;
  let url: string;

  before(async function () {
    await requirePostgres(this);
    server = await startServer(postgres);
    if (server.config.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    url = server.config.database.url;
    const r = registryOf(server);
    await r.type('kind');
    for (let i = 0; i < 3; i++) await r.tool(`tool-${i}`, [{ name: 'x', resourceType: 'kind' }]);
  });
  after(() => server?.close());

  it(`answers ${REQUESTS} concurrent cached requests with 2 version reads (one each before), all fresh`, async () => {
    const ask = async () => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: QUERY }),
      });
      return { cache: response.headers.get('x-registry-cache'), body: await response.json() };
    };
    await ask();
    const expected = await ask();
    expect(expected.cache).to.equal('hit');
    // The version row locked by another session: the first version read waits behind it, so every request has
    // asked before any read comes back (no timing decides how many share a read).
    const locker = new Client({ connectionString: url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE registry_state IN ACCESS EXCLUSIVE MODE');
      const statements = server.statements();
      const reads = server.app.versioning.versionReads().sent;
      const answers = Promise.all(Array.from({ length: REQUESTS }, ask));
      await until(() => {
        const now = server.app.versioning.versionReads();
        return now.sent === reads + 1 && now.answering + now.waiting === REQUESTS;
      });
      await locker.query('COMMIT');
      const answered = await answers;
      expect(answered.map((a) => a.cache)).to.deep.equal(Array(REQUESTS).fill('hit'));
      for (const a of answered) expect(a.body).to.deep.equal(expected.body);
      expect(server.app.versioning.versionReads().sent - reads, 'version reads').to.equal(2);
      expect(server.statements() - statements, 'statements').to.equal(2);
    } finally {
      await locker.end();
    }
  });
});
