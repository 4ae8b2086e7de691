import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { buildRegistrySchema } from '../../src/engine/executable-schema';
import { printRegistrySchema } from '../../src/graphql/schema';
import { dataSourceOptions } from '../../src/persistence/data-source';
import { Database } from '../../src/persistence/database';
import { MIGRATIONS } from '../../src/persistence/migrations';
import { Access1764835200000 } from '../../src/persistence/migrations/1764835200000-access';
import { describeEachBackend } from '../support/backends';

describe('schema.graphql', () => {
  it('is exactly the schema the server builds (run `npm run schema:emit` after changing the API)', async () => {
    const committed = readFileSync(join(__dirname, '..', '..', 'schema.graphql'), 'utf8').split('\n');
    const built = printRegistrySchema(await buildRegistrySchema()).split('\n');
    const line = built.findIndex((text, i) => text !== committed[i]);
    const where = line === -1 ? committed.length : line;
    expect(
      { line: where + 1, built: built[where], committed: committed[where] },
      'schema.graphql is out of date: run `npm run schema:emit`',
    ).to.deep.equal({ line: Math.max(built.length, committed.length) + 1, built: undefined, committed: undefined });
  });
});

describeEachBackend('migrations', (backend) => {
  it('create exactly the schema the entities describe (no drift)', async () => {
    const config = await backend.freshDatabase();
    const db = await Database.open(config);
    try {
      expect(await db.migrate()).to.deep.equal([
        'InitialSchema1764489600000',
        'SafeChange1764576000000',
        'PageIds1764662400000',
        'ImpactComplete1764748800000',
        'Access1764835200000',
        'BatchKeys1764921600000',
      ]);
      expect(await db.isMigrated()).to.equal(true);
      expect(await db.migrate(), 'a second run applies nothing').to.deep.equal([]);
    } finally {
      await db.close();
    }
    const dataSource = new DataSource(dataSourceOptions(config));
    await dataSource.initialize();
    try {
      const pending = (await dataSource.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query);
      // The one deliberate difference: PostgreSQL name columns use the "C" collation (byte order), which entities
      // cannot say per dialect. And TypeORM reads a PostgreSQL index's columns in the table's order (id before
      // name), so it takes each (name, id) index for a different one and would make it again, the same; the
      // indexes as they are, in the right order, are checked below.
      const expected =
        backend.name === 'postgres'
          ? ['project', 'resource_type', 'resource', 'tool'].flatMap((t) => [
              `ALTER TABLE "${t}" ALTER COLUMN "name" TYPE character varying COLLATE "undefined"`,
              ...(t === 'resource_type'
                ? []
                : [
                    `CREATE INDEX "idx_${t}_name_id" ON "${t}"  ("name", "id") `,
                    `DROP INDEX "public"."idx_${t}_name_id"`,
                  ]),
            ])
          : [];
      expect(pending.sort()).to.deep.equal(expected.sort());
      const indexes = await dataSource.query<{ sql: string }[]>(
        backend.name === 'postgres'
          ? `SELECT indexdef AS sql FROM pg_indexes WHERE indexname LIKE 'idx\\_%\\_name\\_id' ORDER BY indexname`
          : `SELECT sql FROM sqlite_master WHERE type = 'index' AND name LIKE '%\\_name\\_id' ESCAPE '\\' ORDER BY name`,
      );
      expect(
        indexes.map((i) =>
          i.sql
            .replace(/"/g, '')
            .replace(/public\./g, '')
            .replace(/ USING btree/, '')
            .trim(),
        ),
      ).to.deep.equal(['project', 'resource', 'tool'].map((t) => `CREATE INDEX idx_${t}_name_id ON ${t} (name, id)`));
    } finally {
      await dataSource.destroy();
    }
  });
});

describeEachBackend('the impact_complete migration', (backend) => {
  it('leaves the change-log entries written before it complete (true), the value it documents', async () => {
    const config = await backend.freshDatabase();
    const before = new DataSource({ ...dataSourceOptions(config), migrations: MIGRATIONS.slice(0, 3) });
    await before.initialize();
    try {
      expect((await before.runMigrations()).map((m) => m.name)).to.not.include('ImpactComplete1764748800000');
      await before.query(
        `INSERT INTO registry_change (id, version, seq, at, actor, operation, kind, entity_id, entity_name, summary, impact_count)
         VALUES ('01J00000000000000000000000', 1, 0, '2026-01-01T00:00:00.000Z', 'admin', 'createProject', 'PROJECT',
                 '01J00000000000000000000001', 'old', 'created project old', 0)`,
      );
    } finally {
      await before.destroy();
    }
    const db = await Database.open(config);
    try {
      expect(await db.migrate()).to.deep.equal(MIGRATIONS.slice(3).map((m) => m.name));
    } finally {
      await db.close();
    }
    const after = new DataSource(dataSourceOptions(config));
    await after.initialize();
    try {
      const [row] = await after.query(`SELECT impact_complete FROM registry_change`);
      expect([true, 1]).to.include(row.impact_complete);
    } finally {
      await after.destroy();
    }
  });
});

describeEachBackend('the access migration', (backend) => {
  it('keeps the change log of an older registry: its entries, actors as they were, no namespace', async () => {
    const config = await backend.freshDatabase();
    const index = MIGRATIONS.indexOf(Access1764835200000);
    const older = new DataSource({ ...dataSourceOptions(config), migrations: MIGRATIONS.slice(0, index) });
    await older.initialize();
    try {
      await older.runMigrations({ transaction: 'all' });
      await older.query(
        `INSERT INTO registry_change (id, version, seq, at, actor, operation, kind, entity_id, entity_name, summary, impact_count) ` +
          `VALUES ('01JA0000000000000000000001', 1, 0, '2026-11-30T00:00:00.000Z', 'admin', 'createProject', 'PROJECT', '01JA0000000000000000000002', 'acme/shop', 'created project acme/shop', 0)`,
      );
    } finally {
      await older.destroy();
    }
    const db = await Database.open(config);
    try {
      expect(await db.migrate()).to.deep.equal(MIGRATIONS.slice(index).map((m) => m.name));
      const rows = await db.read<{ actor: string; kind: string; namespace: string | null }>(
        'SELECT actor, kind, namespace FROM registry_change',
      );
      expect(rows).to.deep.equal([{ actor: 'admin', kind: 'PROJECT', namespace: null }]);
    } finally {
      await db.close();
    }
  });
});
