// The benchmark on PostgreSQL: the generated registry copied into a template database, and a copy of it per run.
import BetterSqlite3 from 'better-sqlite3';
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { generateRegistry } from '../../scripts/bench/generate';
import { databaseUrl, postgresTemplate, workingDatabase } from '../../scripts/bench/postgres-registry';
import { POSTGRES_ADMIN_URL, requirePostgres } from '../support/backends';

const TABLES = [
  'resource_type',
  'resource_type_parent',
  'resource',
  'project',
  'project_resource',
  'tool',
  'resource_slot',
];

describe('benchmark: the registry on PostgreSQL (--backend postgres)', function () {
  this.timeout(120_000);
  let dir: string;
  let file: string;
  let template: string | null = null;

  before(async function () {
    await requirePostgres(this);
    dir = mkdtempSync(join(tmpdir(), 'bench-pg-'));
    // Named after this process: the template's name comes from the file's.
    file = join(dir, `registry-test-${process.pid}.sqlite`);
    await generateRegistry(file, 400, 'pg');
  });
  after(async () => {
    if (template) {
      const admin = new Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      await admin.end();
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('copies every row into a template once, and makes a fresh database of it for each run', async () => {
    template = await postgresTemplate(POSTGRES_ADMIN_URL, file, { regenerate: true });
    expect(await postgresTemplate(POSTGRES_ADMIN_URL, file), 'reused').to.equal(template);
    const source = new BetterSqlite3(file, { readonly: true });
    const expected = Object.fromEntries(
      [...TABLES, 'registry_change'].map((t) => [
        t,
        (source.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n,
      ]),
    );
    const state = source.prepare('SELECT version, types_version FROM registry_state WHERE id = 1').get();
    const required = (
      source.prepare('SELECT COUNT(*) AS n FROM resource_slot WHERE required = 1').get() as { n: number }
    ).n;
    source.close();
    const run = await workingDatabase(POSTGRES_ADMIN_URL, template);
    try {
      const client = new Client({ connectionString: run.url });
      await client.connect();
      try {
        const counted: Record<string, number> = {};
        for (const t of Object.keys(expected)) {
          counted[t] = Number((await client.query(`SELECT COUNT(*) AS n FROM ${t}`)).rows[0].n);
        }
        expect(counted).to.deep.equal(expected);
        expect(expected.resource).to.equal(400);
        const pgState = (await client.query('SELECT version, types_version FROM registry_state WHERE id = 1')).rows[0];
        expect({ version: Number(pgState.version), types_version: Number(pgState.types_version) }).to.deep.equal(state);
        // Booleans arrive as booleans (SQLite keeps 0 and 1).
        const pgRequired = await client.query('SELECT COUNT(*) AS n FROM resource_slot WHERE required');
        expect(Number(pgRequired.rows[0].n)).to.equal(required);
      } finally {
        await client.end();
      }
    } finally {
      await run.drop();
    }
    expect(databaseUrl('postgres://u@h:5432/postgres', 'x')).to.equal('postgres://u@h:5432/x');
  });
});
