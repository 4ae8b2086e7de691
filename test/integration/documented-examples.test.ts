import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sqlite } from '../support/backends';
import { blocksOf, isRequest, runExamples } from '../support/documented-examples';
import { startServer, type TestServer } from '../support/server';

const ROOT = join(__dirname, '..', '..');
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/**
 * Every example request in README.md and docs/*.md, run as written against a
 * fresh demo server (what `npm start` serves on a new database): see
 * test/support/documented-examples.ts for what counts as an example and what
 * is checked. Each document gets a server of its own and its examples run in
 * document order, because a document is read top to bottom: a later example
 * may build on what an earlier mutation made (the explainBindings walk-through
 * links, then explains, then fixes), while documents stay independent of each
 * other and of the order mocha runs them in.
 */
describe('documented examples', function () {
  this.timeout(120_000);
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const totals = { sent: 0, compared: 0 };
  for (const name of DOCUMENTS) {
    it(`${name}: every example runs on a fresh demo server and answers as shown`, async () => {
      const markdown = readFileSync(join(ROOT, name), 'utf8');
      server = await startServer(sqlite, { demoData: true });
      const report = await runExamples(name, markdown, server);
      expect(report.failures, report.failures.join('\n\n')).to.deep.equal([]);
      const requests = blocksOf(markdown).filter(isRequest).length;
      expect(report.sent + report.skipped, 'every request block is run or skipped by name').to.equal(requests);
      totals.sent += report.sent;
      totals.compared += report.compared;
    });
  }

  it('ran the examples the documents hold (the tour, explainBindings, the access walk-through, …)', function () {
    // Only meaningful after the documents' tests; run alone (--grep), it has nothing to count.
    if (totals.sent === 0) this.skip();
    expect(totals.sent).to.be.at.least(20);
    expect(totals.compared).to.be.at.least(5);
  });

  it('fails a broken example: an error, a wrong answer, a missing expected error, a failing command, other output', async () => {
    server = await startServer(sqlite, { demoData: true });
    const broken = [
      'An unknown field:',
      '```graphql',
      '{ noSuchField }',
      '```',
      'An answer that is not the one shown:',
      '```graphql',
      '{ project(ref: "demo") { name } }',
      '```',
      '```json',
      '{ "name": "shop" }',
      '```',
      '<!-- example: expect FORBIDDEN -->',
      '```graphql',
      '{ project(ref: "demo") { name } }',
      '```',
      '```sh',
      "curl -sf localhost:4000/no-such-page -H 'content-type: application/json'",
      '```',
      '```console',
      '$ echo hello',
      'goodbye',
      '```',
      'And one that is right:',
      '```graphql',
      '{ project(ref: "demo") { name } }',
      '```',
      '```json',
      '{ "name": "demo" }',
      '```',
    ].join('\n');
    const report = await runExamples('broken.md', broken, server);
    expect(report.sent).to.equal(6);
    expect(report.compared).to.equal(2);
    expect(report.failures.map((failure) => failure.split(':').slice(0, 2).join(':'))).to.deep.equal([
      'broken.md:2',
      'broken.md:9',
      'broken.md:13',
      'broken.md:16',
      'broken.md:19',
    ]);
  });
});
