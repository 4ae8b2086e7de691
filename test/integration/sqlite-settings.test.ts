import { expect } from 'chai';
import { linkSync, mkdirSync, symlinkSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { sqlite } from '../support/backends';
import { startServer, type TestServer } from '../support/server';

describe('SQLite settings', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(sqlite);
  });
  after(() => server.close());

  it('runs with WAL, synchronous=FULL, a busy timeout, foreign keys on and a 4 MB page cache on both connections', async () => {
    const [journal] = await server.app.db.read<{ journal_mode: string }>('PRAGMA journal_mode');
    const [fk] = await server.app.db.read<{ foreign_keys: number }>('PRAGMA foreign_keys');
    const [busy] = await server.app.db.read<{ timeout: number }>('PRAGMA busy_timeout');
    const [readerCache] = await server.app.db.read<{ cache_size: number }>('PRAGMA cache_size');
    const sync = await server.app.db.write((tx) => tx.query<{ synchronous: number }>('PRAGMA synchronous'));
    const [writerBusy] = await server.app.db.write((tx) => tx.query<{ timeout: number }>('PRAGMA busy_timeout'));
    const [writerCache] = await server.app.db.write((tx) => tx.query<{ cache_size: number }>('PRAGMA cache_size'));
    expect({
      journal: journal.journal_mode,
      fk: fk.foreign_keys,
      busy: busy.timeout,
      writerBusy: writerBusy.timeout,
      synchronous: sync[0].synchronous,
      // better-sqlite3's own build default is -16000 (16 MB a connection).
      readerCache: readerCache.cache_size,
      writerCache: writerCache.cache_size,
    }).to.deep.equal({
      journal: 'wal',
      fk: 1,
      busy: 5000,
      writerBusy: 5000,
      synchronous: 2,
      readerCache: -4096,
      writerCache: -4096,
    });
  });

  it('refuses a link to a resource that does not exist at the database level too (foreign keys)', async () => {
    let error: unknown;
    try {
      await server.app.db.write((tx) =>
        tx.query("INSERT INTO project_resource (project_id, resource_id, alias) VALUES ('P', 'R', NULL)"),
      );
    } catch (e) {
      error = e;
    }
    expect(String((error as { driverError?: { code?: string } })?.driverError?.code)).to.equal(
      'SQLITE_CONSTRAINT_FOREIGNKEY',
    );
  });
});

describe('one server per SQLite file', () => {
  it('starts on a database whose folder does not exist yet (a fresh clone)', async () => {
    const base = await sqlite.freshDatabase();
    if (base.kind !== 'sqlite') throw new Error('expected SQLite');
    const path = base.path.replace(/\.sqlite$/, '/nested/folder/registry.sqlite');
    const server = await startServer(sqlite, { database: { kind: 'sqlite', path }, demoData: true });
    try {
      expect((await server.data(`{ tools { totalCount } }`)).tools.totalCount).to.equal(2); // the demo's
    } finally {
      await server.close();
    }
  });

  it('refuses a second server on the same file, in one clear line, and allows one after the first stops', async () => {
    const first = await startServer(sqlite);
    let refused: Error | null = null;
    try {
      await startServer(sqlite, { database: first.config.database });
    } catch (error) {
      refused = error as Error;
    }
    expect(refused?.message).to.match(
      /^another registry server is already using .*registry-test-.*; run one server per SQLite file, or use PostgreSQL for several instances$/,
    );
    await first.close();
    const second = await startServer(sqlite, { database: first.config.database });
    await second.close();
  });

  /** Starts a server on a fresh file, then tries a second one on `otherName(path)`: the error it gives, or null when it started. */
  async function secondServerBy(otherName: (path: string) => string): Promise<Error | null> {
    const base = await sqlite.freshDatabase();
    if (base.kind !== 'sqlite') throw new Error('expected SQLite');
    const first = await startServer(sqlite, { database: base });
    try {
      const second = await startServer(sqlite, { database: { kind: 'sqlite', path: otherName(base.path) } });
      await second.close();
      return null;
    } catch (error) {
      return error as Error;
    } finally {
      await first.close();
    }
  }

  it('refuses a second server that reaches the same file through a symbolic link', async () => {
    const refused = await secondServerBy((path) => {
      const link = join(dirname(path), `link-to-${basename(path)}`);
      symlinkSync(path, link);
      return link;
    });
    expect(refused?.message).to.match(
      /^another registry server is already using .*link-to-db-.*\.sqlite \(the file .*db-\d+\.sqlite\); /,
    );
    expect(refused?.message).to.not.include('\n');
  });

  it('refuses a second server that reaches the same file through another relative path', async () => {
    const refused = await secondServerBy((path) => {
      const folder = join(dirname(path), 'sub');
      mkdirSync(folder, { recursive: true });
      // `<relative folder>/sub/../db-N.sqlite`, written out: path.join would fold the `sub/..` away.
      return `${relative(process.cwd(), folder)}/../${basename(path)}`;
    });
    expect(refused?.message).to.match(/^another registry server is already using \.\..*sub\/\.\.\/db-\d+\.sqlite/);
  });

  it('refuses a second server that reaches the same file through a hard link, and a hard-linked file at all', async () => {
    let original = '';
    const refused = await secondServerBy((path) => {
      original = path;
      const link = join(dirname(path), `hard-${basename(path)}`);
      linkSync(path, link);
      return link;
    });
    expect(refused?.message).to.match(
      /^the database file .*hard-db-\d+\.sqlite has 2 hard links: SQLite keeps its -wal and -shm files beside each name, so a server on another name would lose writes; remove the other links$/,
    );
    // The first server's own name is refused as well while the second name exists.
    let again: Error | null = null;
    try {
      await (await startServer(sqlite, { database: { kind: 'sqlite', path: original } })).close();
    } catch (error) {
      again = error as Error;
    }
    expect(again?.message).to.match(/has 2 hard links/);
  });
});
