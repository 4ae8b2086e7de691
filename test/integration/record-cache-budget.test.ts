// The record cache past its budget (RECORD_CACHE_BYTES): a registry whose records do not fit stays within the
// budget by evicting, answers exactly as a server whose cache holds it all, and reading it again costs no more
// statements than reading it cold; where the records fit, a second reading costs none. Reference execution, so
// that no kept page part answers in the record cache's place; past the response cache throughout.
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config';
import { RECORD_CACHE_BYTES } from '../../src/application/versioning/record-cache';
import { describeEachBackend } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

const PAST_CACHE = { 'cache-control': 'no-cache' };
const BUDGET = 65_536;
const TOOLS = 60;

/** A page of tools with every slot's type, its ancestors and the static resource, from a cursor. */
const PAGE = `query($after: String) { tools(first: 10, after: $after) { pageInfo { hasNextPage endCursor } edges { node {
  name description resourceSlots { name access binding required
    resourceType { name description ancestors { name } } staticResource { name description type { name } } }
} } } }`;

interface Page {
  tools: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; edges: unknown[] };
}

describeEachBackend('record cache beyond its budget', (backend) => {
  let small: TestServer;
  let roomy: TestServer;

  async function fill(server: TestServer): Promise<void> {
    const r = registryOf(server);
    await r.type('level-0');
    for (let i = 1; i < 6; i++) await r.type(`level-${i}`, [`level-${i - 1}`]);
    for (let i = 0; i < 6; i++) await r.resource(`static/r${i}`, `level-${i}`);
    for (let t = 0; t < TOOLS; t++) {
      await r.tool(`tool-${String(t).padStart(2, '0')}`, [
        { name: 'ctx', resourceType: `level-${t % 6}` },
        { name: 'fixed', resourceType: `level-${t % 6}`, binding: 'STATIC', staticResource: `static/r${t % 6}` },
        { name: 'param', resourceType: 'level-0', binding: 'PARAMETER' },
      ]);
    }
  }

  /** Every page, in order, past the response cache: the bodies and the statements they took. */
  async function readAll(server: TestServer): Promise<{ pages: string[]; statements: number }> {
    const before = server.statements();
    const pages: string[] = [];
    let after: string | null = null;
    for (;;) {
      const data: Page = await server.data<Page>(PAGE, { after }, PAST_CACHE);
      pages.push(JSON.stringify(data));
      if (!data.tools.pageInfo.hasNextPage) break;
      after = data.tools.pageInfo.endCursor;
    }
    return { pages, statements: server.statements() - before };
  }

  before(async () => {
    small = await startServer(backend, { execution: 'reference', recordCacheBytes: BUDGET });
    roomy = await startServer(backend, { execution: 'reference' });
    await fill(small);
    await fill(roomy);
  });
  after(async () => {
    await small?.close();
    await roomy?.close();
  });

  it('takes its budget from RECORD_CACHE_BYTES, the cache’s own by default, and refuses one under 64 KiB', () => {
    expect(loadConfig({}).recordCacheBytes).to.equal(RECORD_CACHE_BYTES);
    expect(loadConfig({ RECORD_CACHE_BYTES: String(BUDGET) }).recordCacheBytes).to.equal(BUDGET);
    expect(() => loadConfig({ RECORD_CACHE_BYTES: '1000' })).to.throw(ConfigError, /RECORD_CACHE_BYTES/);
  });

  it('stays within the budget by evicting, answers as the roomy cache does, and costs no more than a cold read', async () => {
    // Cold: nothing cached on either.
    small.app.versioning.clearRecordCache();
    roomy.app.versioning.clearRecordCache();
    const coldSmall = await readAll(small);
    const coldRoomy = await readAll(roomy);
    expect(coldSmall.pages).to.have.length(TOOLS / 10);
    expect(coldSmall.pages).to.deep.equal(coldRoomy.pages);
    expect(coldSmall.statements).to.equal(coldRoomy.statements);

    // Again, at the same registry version.
    const againSmall = await readAll(small);
    const againRoomy = await readAll(roomy);
    expect(againSmall.pages).to.deep.equal(coldSmall.pages);
    expect(againRoomy.pages).to.deep.equal(coldRoomy.pages);

    // Within its budget, the roomy cache answers every record of the second reading.
    const versionReads = backend.name === 'postgres' ? TOOLS / 10 : 0;
    expect(againRoomy.statements).to.be.at.most(versionReads + 1);
    // Past it, the small one evicted and read again, but never more than a cold reading takes.
    const small_ = small.app.versioning.cacheFigures().records;
    expect(small_.evictions).to.be.greaterThan(0);
    expect(small_.bytes).to.be.at.most(BUDGET);
    expect(againSmall.statements).to.be.greaterThan(againRoomy.statements);
    expect(againSmall.statements).to.be.at.most(coldSmall.statements);
    expect(roomy.app.versioning.cacheFigures().records.evictions).to.equal(0);
  });
});
