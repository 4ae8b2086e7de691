// The dashboard's operation types are generated from its documents; this fails when they drift apart.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { DASHBOARD_TYPES, generateDashboardTypes } from '../../scripts/codegen-dashboard';

describe('web/dashboard/generated/operations.ts', function () {
  this.timeout(60_000);

  it('is exactly what codegen makes of the documents and schema.graphql (run `npm run codegen:dashboard`)', async () => {
    const committed = readFileSync(DASHBOARD_TYPES, 'utf8').split('\n');
    const generated = (await generateDashboardTypes()).split('\n');
    const line = generated.findIndex((text, i) => text !== committed[i]);
    const where = line === -1 ? committed.length : line;
    expect(
      { line: where + 1, generated: generated[where], committed: committed[where] },
      'the dashboard types are out of date: run `npm run codegen:dashboard`',
    ).to.deep.equal({
      line: Math.max(generated.length, committed.length) + 1,
      generated: undefined,
      committed: undefined,
    });
  });
});
