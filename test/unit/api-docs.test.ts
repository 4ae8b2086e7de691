import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** The body of the first `ts` block after `file` is first named in docs/api.md. */
function blockAfter(doc: string, file: string): string | undefined {
  const at = doc.indexOf(`\`${file}\``);
  if (at < 0) return undefined;
  return /```ts\n([\s\S]*?)```/.exec(doc.slice(at))?.[1];
}

/**
 * docs/api.md shows the client configurations as the modules the client tests
 * import (test/integration/apollo-client.test.ts, urql-client.test.ts), so the
 * page cannot drift from what is tested.
 */
describe('docs/api.md', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');

  for (const file of ['examples/clients/apollo.ts', 'examples/clients/urql.ts']) {
    it(`shows ${file} as it is`, () => {
      expect(blockAfter(doc, file)).to.equal(readFileSync(join(ROOT, file), 'utf8'));
    });
  }

  it('has the section "Clients"', () => {
    expect(doc).to.match(/^## Clients$/m);
  });
});
