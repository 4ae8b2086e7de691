import { expect } from 'chai';
import { MIGRATIONS } from '../../src/persistence/migrations';
import pino from 'pino';
import type { AppConfig } from '../../src/config';
import { bootstrap } from '../../src/main';
import { Database } from '../../src/persistence/database';
import { postgres, postgresAvailable, POSTGRES_ADMIN_URL, POSTGRES_REQUIRED } from '../support/backends';

describe('PostgreSQL specifics', function () {
  before(async function () {
    if (await postgresAvailable()) return;
    if (POSTGRES_REQUIRED) throw new Error(`PostgreSQL is required but does not answer at ${POSTGRES_ADMIN_URL}`);
    this.skip();
  });

  it('runs the migrations exactly once when several instances start at once on an empty database', async () => {
    const database = await postgres.freshDatabase();
    const config: AppConfig = {
      port: 0,
      host: '127.0.0.1',
      database,
      adminToken: null,
      readToken: null,
      demoData: true,
      production: false,
      logLevel: 'silent',
      introspection: true,
      execution: 'fast',
      responseCache: true,
      recordCache: true,
    };
    const apps = await Promise.all(
      Array.from({ length: 4 }, () => bootstrap(config, { logger: pino({ level: 'silent' }) })),
    );
    try {
      const applied = apps.map((a) => a.migrationsApplied.length);
      expect(
        applied.filter((n) => n === MIGRATIONS.length),
        JSON.stringify(applied),
      ).to.have.length(1);
      expect(applied.filter((n) => n === 0)).to.have.length(3);
      for (const app of apps) {
        const response = await fetch(app.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ tools { totalCount } }' }),
        });
        expect(((await response.json()) as any).data.tools.totalCount).to.equal(
          2,
          'the demo data (two tools) was loaded once',
        );
      }
    } finally {
      await Promise.all(apps.map((a) => a.close()));
    }
  });

  it('retries a transient serialization failure or deadlock, a bounded number of times', async () => {
    const db = await Database.open(await postgres.freshDatabase());
    try {
      await db.migrate();
      let attempts = 0;
      const result = await db.write(async () => {
        attempts += 1;
        if (attempts < 3)
          throw Object.assign(new Error('could not serialize access'), { code: attempts === 1 ? '40001' : '40P01' });
        return 'done';
      });
      expect({ result, attempts }).to.deep.equal({ result: 'done', attempts: 3 });

      let forever = 0;
      let final: unknown;
      try {
        await db.write(async () => {
          forever += 1;
          throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
        });
      } catch (error) {
        final = error;
      }
      expect(forever).to.equal(6, 'one try and five retries');
      expect((final as { code?: string }).code).to.equal('40P01');
    } finally {
      await db.close();
    }
  });

  it('does not retry other errors', async () => {
    const db = await Database.open(await postgres.freshDatabase());
    try {
      let attempts = 0;
      await db
        .write(async () => {
          attempts += 1;
          throw Object.assign(new Error('unique'), { code: '23505' });
        })
        .catch(() => undefined);
      expect(attempts).to.equal(1);
    } finally {
      await db.close();
    }
  });

  it('reads through named statements planned once per connection (plan_cache_mode force_generic_plan)', async () => {
    const db = await Database.open(await postgres.freshDatabase());
    try {
      // What every read connection runs with: a list parameter (= ANY($1)) would otherwise be planned at each execution.
      const [mode] = await db.read<{ plan_cache_mode: string }>('SHOW plan_cache_mode');
      expect(mode.plan_cache_mode).to.equal('force_generic_plan');
      // The same text twice on the pool: the second execution reuses the statement its connection prepared.
      const [one] = await db.read<{ n: number }>('SELECT COUNT(*)::int AS n FROM pg_class WHERE relname = ANY(?)', [
        ['no-such-a', 'no-such-b'],
      ]);
      const [two] = await db.read<{ n: number }>('SELECT COUNT(*)::int AS n FROM pg_class WHERE relname = ANY(?)', [
        ['no-such-c'],
      ]);
      expect([one.n, two.n]).to.deep.equal([0, 0]);
    } finally {
      await db.close();
    }
  });
});
