import { createHash } from 'node:crypto';
import { TABLES } from '../../src/persistence/tables';
import type { TestServer } from './server';

/** A digest of every row of every table (each in its primary key's order): equal digests, equal databases. */
export async function databaseDigest(server: TestServer): Promise<string> {
  const hash = createHash('sha256');
  for (const table of TABLES) {
    const primaryKey = Object.entries(table.uniques).find(([name]) => name.startsWith('pk_'))![1];
    const rows = await server.app.db.read(`SELECT * FROM ${table.name} ORDER BY ${primaryKey.join(', ')}`);
    hash.update(table.name).update(JSON.stringify(rows));
  }
  return hash.digest('hex');
}
