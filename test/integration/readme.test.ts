import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, validate } from 'graphql';
import { buildRegistrySchema } from '../../src/engine/executable-schema';
import { sqlite } from '../support/backends';
import { startServer, type TestServer } from '../support/server';

const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

interface Block {
  readonly lang: string;
  readonly text: string;
}

/** The fenced code blocks of the README section with this heading, in order. */
function blocksOf(heading: string): Block[] {
  const start = README.indexOf(`\n## ${heading}`);
  if (start < 0) throw new Error(`README has no section "${heading}"`);
  const next = README.indexOf('\n## ', start + 4);
  return allBlocks(README.slice(start, next < 0 ? undefined : next));
}

function allBlocks(markdown: string): Block[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], text: m[2] }));
}

/** The GraphQL request in a README block: a graphql block, or the JSON body of a curl command. */
function requestOf(block: Block): string | null {
  if (block.lang === 'graphql') return block.text;
  if (block.lang === 'sh' && block.text.includes('curl') && block.text.includes("-d '")) {
    const body = block.text.slice(block.text.indexOf("-d '") + 4, block.text.lastIndexOf("'"));
    return (JSON.parse(body) as { query: string }).query;
  }
  return null;
}

/**
 * The README's examples are requests a reader can send: every GraphQL block
 * is valid against the schema, and the tour and the explainBindings section,
 * run in order on a fresh demo server, answer what the README shows.
 */
describe('README examples', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startServer(sqlite, { demoData: true });
  });
  after(() => server.close());

  it('every GraphQL block in the README is valid against the schema', async () => {
    const schema = await buildRegistrySchema();
    const blocks = allBlocks(README).filter((b) => b.lang === 'graphql');
    expect(blocks.length).to.be.at.least(8);
    for (const block of blocks) {
      const errors = validate(schema, parse(block.text)).map((e) => e.message);
      expect(errors, block.text).to.deep.equal([]);
    }
  });

  it('the tour, then the explainBindings section, answer as shown, on a fresh demo server', async () => {
    const blocks = [...blocksOf('A short tour'), ...blocksOf("Why did (or didn't) it bind? `explainBindings`")];
    let checked = 0;
    let sent = 0;
    let last: { data?: any; errors?: unknown[] } | null = null;
    for (const block of blocks) {
      const query = requestOf(block);
      if (query !== null) {
        const { body } = await server.gql(query);
        expect(body.errors, query).to.equal(undefined);
        last = body;
        sent++;
      } else if (block.lang === 'json' && last !== null) {
        const shown = JSON.parse(block.text) as Record<string, unknown>;
        // A block shows the whole response ({"data": …}) or the value of its one root field.
        const actual = 'data' in shown ? last : Object.values(last.data as Record<string, unknown>)[0];
        expect(actual, block.text).to.deep.equal(shown);
        checked++;
        last = null;
      }
    }
    expect(sent).to.be.at.least(7);
    expect(checked).to.be.at.least(3);
  });
});
