import { expect } from 'chai';
import { sqlite } from '../support/backends';
import { seedExample } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

/** Past the response cache, so every request executes. */
const FRESH = { 'cache-control': 'no-cache' };

const PAGE = `{ tools(first: 10) { totalCount edges { node { name resourceSlots { name binding
  resourceType { name ancestors { name } } } } } } }`;

/** The page three times past the response cache, then once through it; the bodies, and the caches' headers. */
async function ask(server: TestServer) {
  const texts: string[] = [];
  for (let i = 0; i < 3; i++) {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...FRESH },
      body: JSON.stringify({ query: PAGE }),
    });
    texts.push(await response.text());
  }
  const cached = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: PAGE }),
  });
  await cached.text();
  const again = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: PAGE }),
  });
  await again.text();
  return { texts, cache: again.headers.get('x-registry-cache') };
}

/**
 * One switch for the engine (EXECUTION), and the two caches' switches kept
 * apart from it: `reference` runs graphql-js through Apollo with no compiled
 * query, no assembled page and no direct path, its caches still on; and
 * RECORD_CACHE=false turns off the kept records (and name lists) alone,
 * not page assembly.
 */
describe('EXECUTION and the cache switches', () => {
  let fast: TestServer;
  let reference: TestServer;
  let noRecords: TestServer;

  before(async function () {
    this.timeout(60_000);
    [fast, reference, noRecords] = await Promise.all([
      startServer(sqlite),
      startServer(sqlite, { execution: 'reference' }),
      startServer(sqlite, { recordCache: false }),
    ]);
    await Promise.all([seedExample(fast), seedExample(reference), seedExample(noRecords)]);
  });

  after(async () => {
    await Promise.all([fast?.close(), reference?.close(), noRecords?.close()]);
  });

  it('fast: compiles the query, assembles the page from kept parts and answers past Apollo', async () => {
    const { texts, cache } = await ask(fast);
    const { stats } = fast.app.execution;
    expect(stats.compiled, 'compiled runs').to.be.greaterThan(0);
    expect(stats.direct, 'direct answers').to.be.greaterThan(0);
    expect(stats.assembly.assembled, 'pages assembled').to.be.greaterThan(0);
    expect(fast.app.versioning.cacheUsage().kept.parts?.entries).to.be.greaterThan(0);
    expect(new Set(texts).size).to.equal(1);
    expect(cache).to.equal('hit');
  });

  it('reference: graphql-js through Apollo only, the same answers, and its caches still on', async () => {
    const { texts, cache } = await ask(reference);
    const { stats } = reference.app.execution;
    expect(stats.compiled).to.equal(0);
    expect(stats.direct).to.equal(0);
    expect(stats.assembly).to.deep.equal({ assembled: 0, partsUsed: 0, partsComputed: 0, declined: 0 });
    expect(stats.fallback).to.be.greaterThan(0);
    const usage = reference.app.versioning.cacheUsage();
    expect(usage.kept.parts?.entries ?? 0, 'no answer part kept').to.equal(0);
    expect(usage.records.entries, 'the record cache is on').to.be.greaterThan(0);
    expect(cache, 'the response cache is on').to.equal('hit');
    const { texts: fastTexts } = await ask(fast);
    expect(texts[0]).to.equal(fastTexts[0]);
  });

  it('RECORD_CACHE=false: no record or name kept, and pages still assembled from kept parts', async () => {
    const { texts } = await ask(noRecords);
    const usage = noRecords.app.versioning.cacheUsage();
    expect(usage.records.entries).to.equal(0);
    expect(usage.names).to.equal(0);
    expect(usage.kept.parts?.entries).to.be.greaterThan(0);
    expect(noRecords.app.execution.stats.assembly.assembled).to.be.greaterThan(0);
    const { texts: fastTexts } = await ask(fast);
    expect(texts[0]).to.equal(fastTexts[0]);
  });
});
