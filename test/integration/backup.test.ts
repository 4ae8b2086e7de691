import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolFileName } from '../../src/registry-files';
import { sqlite } from '../support/backends';
import { runScript } from '../support/cli';
import { gqlAt, spawnServer, type ServerProcess } from '../support/process-server';

const REGISTER = 'mutation($i: RegisterToolInput!) { registerTool(input: $i) { tool { id } } }';

/** The files of an export folder (registry.yaml and tools/*), by path, with their text. */
function exportedFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>([['registry.yaml', readFileSync(join(dir, 'registry.yaml'), 'utf8')]]);
  for (const name of readdirSync(join(dir, 'tools')).sort()) {
    files.set(`tools/${name}`, readFileSync(join(dir, 'tools', name), 'utf8'));
  }
  return files;
}

/** The registry version a server is at. */
async function versionOf(server: ServerProcess): Promise<number> {
  const { body } = await gqlAt(server.url, '{ changes(last: 1) { edges { node { version } } } }');
  return body.data.changes.edges[0]?.node.version ?? 0;
}

/** The names of the tools whose change-log entries came after `version`. */
async function toolsChangedAfter(server: ServerProcess, version: number): Promise<Set<string>> {
  const names = new Set<string>();
  let after: string | null = null;
  for (;;) {
    const { body } = await gqlAt(
      server.url,
      'query($v: Int!, $after: String) { changes(first: 100, after: $after, filter: { sinceVersion: $v, kind: TOOL }) { edges { node { entityName } } pageInfo { hasNextPage endCursor } } }',
      { v: version, after },
    );
    const page = body.data.changes;
    for (const edge of page.edges) names.add(edge.node.entityName);
    if (!page.pageInfo.hasNextPage) return names;
    after = page.pageInfo.endCursor;
  }
}

describe('backup and restore (tool-registry backup / restore, real processes, SQLite)', function () {
  this.timeout(240_000);
  const scratch = mkdtempSync(join(tmpdir(), 'registry-backup-'));

  it('backs up under write load; the restored registry exports as the source did at the backup version', async () => {
    const source = await sqlite.freshDatabase();
    if (source.kind !== 'sqlite') throw new Error('expected SQLite');
    const server = await spawnServer({ DATABASE_URL: `sqlite:${source.path}`, DEMO_DATA: 'true' });
    let restored: ServerProcess | null = null;
    try {
      // Four writers register tools one after another until told to stop.
      let stop = false;
      let acknowledged = 0;
      const writers = Array.from({ length: 4 }, async (_, w) => {
        for (let n = 0; !stop; n++) {
          const slots = [
            { name: 'repo', resourceType: 'git-checkout' },
            { name: 'out', resourceType: 'fs-directory', binding: 'PARAMETER' },
          ];
          const { body } = await gqlAt(server.url, REGISTER, { i: { name: `load/w${w}-n${n}`, resourceSlots: slots } });
          expect(body.errors).to.equal(undefined);
          acknowledged++;
        }
      });
      while (acknowledged < 20) await new Promise((resolve) => setTimeout(resolve, 20));
      const versionAtStart = await versionOf(server);
      const out = join(scratch, 'under-load.sqlite');
      const backup = await runScript('backup', ['--out', out], { DATABASE_URL: `sqlite:${source.path}` });
      const writtenDuring = acknowledged;
      while (acknowledged < writtenDuring + 20) await new Promise((resolve) => setTimeout(resolve, 20));
      stop = true;
      await Promise.all(writers);

      expect(backup.stderr).to.equal('');
      expect(backup.code).to.equal(0);
      const backedUp = Number(/^backed up registry version (\d+) \(\d+ pages\) to /.exec(backup.stdout)?.[1]);
      // The copy is one committed version, taken while writes went on before and after it.
      expect(backedUp).to.be.greaterThan(versionAtStart);
      expect(await versionOf(server)).to.be.greaterThan(backedUp);
      // One self-contained file: no write-ahead log beside it.
      expect(existsSync(`${out}-wal`)).to.equal(false);
      expect(statSync(out).size).to.be.greaterThan(0);

      const target = join(scratch, 'restored', 'registry.sqlite');
      const restore = await runScript('restore', [out], { DATABASE_URL: `sqlite:${target}` });
      expect(restore.stderr).to.equal('');
      expect(restore.code).to.equal(0);
      expect(restore.stdout).to.contain(`restored registry version ${backedUp} `);

      restored = await spawnServer({ DATABASE_URL: `sqlite:${target}` });
      expect(await versionOf(restored)).to.equal(backedUp);
      const exportDir = (name: string) => join(scratch, name);
      for (const [name, url] of [
        ['source-export', server.url],
        ['restored-export', restored.url],
      ] as const) {
        const exported = await runScript('export', ['--out', exportDir(name), '--url', url]);
        expect(exported.code, exported.stderr).to.equal(0);
      }
      // The source at the backup version: its export, less the tools registered after it.
      const later = await toolsChangedAfter(server, backedUp);
      expect(later.size).to.be.greaterThan(0);
      const sourceAtBackup = exportedFiles(exportDir('source-export'));
      for (const tool of later) expect(sourceAtBackup.delete(`tools/${toolFileName(tool)}`), tool).to.equal(true);
      const restoredFiles = exportedFiles(exportDir('restored-export'));
      expect([...restoredFiles.keys()]).to.deep.equal([...sourceAtBackup.keys()]);
      for (const [path, text] of sourceAtBackup) expect(restoredFiles.get(path), path).to.equal(text);
    } finally {
      await restored?.stop();
      await server.stop();
    }
  });

  it('refuses to restore over a database a server holds, and over an existing one without --force', async () => {
    const source = await sqlite.freshDatabase();
    if (source.kind !== 'sqlite') throw new Error('expected SQLite');
    const server = await spawnServer({ DATABASE_URL: `sqlite:${source.path}`, DEMO_DATA: 'true' });
    const out = join(scratch, 'held.sqlite');
    try {
      expect((await runScript('backup', ['--out', out], { DATABASE_URL: `sqlite:${source.path}` })).code).to.equal(0);
      const again = await runScript('backup', ['--out', out], { DATABASE_URL: `sqlite:${source.path}` });
      expect(again.code).to.equal(1);
      expect(again.stderr).to.contain('exists; pass --force to replace it');

      const held = await runScript('restore', [out, '--force'], { DATABASE_URL: `sqlite:${source.path}` });
      expect(held.code).to.equal(1);
      expect(held.stderr).to.match(/^restore: refusing to restore: another registry server is already using /);
      // The server still serves its registry.
      const { body } = await gqlAt(server.url, '{ resolveBindings(tool: "demo/mixed", project: "demo") { slotName } }');
      expect(body.data.resolveBindings).to.have.length(3);
    } finally {
      await server.stop();
    }
    const existing = await runScript('restore', [out], { DATABASE_URL: `sqlite:${source.path}` });
    expect(existing.code).to.equal(1);
    expect(existing.stderr).to.contain('exists; pass --force to replace it');
    const forced = await runScript('restore', [out, '--force'], { DATABASE_URL: `sqlite:${source.path}` });
    expect(forced.code, forced.stderr).to.equal(0);
  });

  it('refuses a file that is not a registry database, and on PostgreSQL points to pg_dump', async () => {
    const target = join(scratch, 'never-written.sqlite');
    const restore = await runScript('restore', [join(__dirname, 'backup.test.ts')], {
      DATABASE_URL: `sqlite:${target}`,
    });
    expect(restore.code).to.equal(1);
    expect(restore.stderr).to.match(
      /^restore: .*backup\.test\.ts is not a usable SQLite database \(file is not a database\)$/m,
    );
    expect(existsSync(target)).to.equal(false);
    const postgres = await runScript('backup', ['--out', join(scratch, 'pg.sqlite')], {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/registry',
    });
    expect(postgres.code).to.equal(1);
    expect(postgres.stderr).to.contain('pg_dump');
    const usage = await runScript('backup', [], { DATABASE_URL: `sqlite:${target}` });
    expect(usage.code).to.equal(2);
    expect(usage.stderr).to.contain('--out <file>');
  });

  it('migrate applies the migrations once, and is refused while a server holds the database', async () => {
    const database = await sqlite.freshDatabase();
    if (database.kind !== 'sqlite') throw new Error('expected SQLite');
    const env = { DATABASE_URL: `sqlite:${database.path}` };
    const first = await runScript('migrate', [], env);
    expect(first.code, first.stderr).to.equal(0);
    expect(first.stdout).to.match(/^applied InitialSchema\d+, /);
    const second = await runScript('migrate', [], env);
    expect(second.stdout.trim()).to.equal('the database is current');
    const server = await spawnServer(env);
    try {
      const held = await runScript('migrate', [], env);
      expect(held.code).to.equal(1);
      expect(held.stderr).to.contain('another registry server is already using');
    } finally {
      await server.stop();
    }
  });
});
