// How the change log is read past a position (live updates, replays, another instance catching up): as a range of
// the (version, seq) index on both databases, not a scan from the start of the log filtered row by row.
import { expect } from 'chai';
import BetterSqlite3 from 'better-sqlite3';
import { Client } from 'pg';
import { changeHeadsAfter, changesAfter } from '../../src/persistence/reads/change-log-reads';
import { SqlDialect, toDialect } from '../../src/persistence/sql';
import { describeEachBackend } from '../support/backends';
import { startServer, type TestServer } from '../support/server';

/** The statement a read sends, captured (it reads nothing). */
async function statementOf(dialect: 'sqlite' | 'postgres', read: typeof changesAfter | typeof changeHeadsAfter) {
  let text = '';
  let params: readonly unknown[] = [];
  await read(
    {
      sql: new SqlDialect(dialect),
      query: async <Row>(sql: string, values: readonly unknown[] = []) => {
        text = sql;
        params = values;
        return [] as Row[];
      },
    },
    { version: 5, seq: 2 },
    9,
    100,
  );
  return { text: toDialect(dialect, text), params };
}

describeEachBackend('change-log reads past a position', (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(backend);
  });
  after(() => server?.close());

  for (const read of [changesAfter, changeHeadsAfter]) {
    it(`${read.name}: bounds the (version, seq) index scan from the position, not only from the upper version`, async () => {
      const { text, params } = await statementOf(backend.name, read);
      const database = server.config.database;
      if (database.kind === 'sqlite') {
        const db = new BetterSqlite3(database.path, { readonly: true });
        try {
          const plan = (db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[])
            .map((row) => row.detail)
            .join('\n');
          expect(plan).to.match(/SEARCH registry_change USING INDEX .*\(version,seq\)>\(\?,\?\)/);
        } finally {
          db.close();
        }
      } else {
        const client = new Client({ connectionString: database.url });
        await client.connect();
        try {
          // Whatever the table's size, an index plan is what is looked at: which conditions bound its range.
          await client.query('SET enable_seqscan = off');
          const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, params as unknown[]);
          const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
          expect(plan).to.match(/Index Cond: \(\(ROW\(version, seq\) > ROW\(/);
        } finally {
          await client.end();
        }
      }
    });
  }
});
