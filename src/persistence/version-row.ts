/**
 * The registry's one row of counters (registry_state), as a write
 * transaction moves it: the version every write bumps first, the types
 * version, and the last keyed batch (registerBatch's `key` and `after`).
 */
import type { WriteTransaction } from './database';
import type { RegistryState } from './records';
import { CHANGE_CHANNEL } from './change-listener';
import { REGISTRY_STATE, type RegistryStateRow } from './tables';

const V = REGISTRY_STATE.columns;

/** A registerBatch sent with a key, and the version it committed. */
export interface KeyedBatch {
  readonly key: string;
  readonly version: number;
}

export class VersionRow {
  /** The last keyed batch as the bump found it: committed before this transaction's write, or null. */
  private keyedBefore: KeyedBatch | null = null;

  constructor(private readonly tx: WriteTransaction) {}

  /**
   * Moves the version by one: run first in every write transaction. It returns the counters with the new version
   * and the types version as it stood before this transaction. It takes the row's lock: on PostgreSQL that orders
   * writers across instances, and what the row says is then the latest commit (so is the last keyed batch it
   * returns). On PostgreSQL the same statement tells every server instance that this version committed: NOTIFY is
   * delivered only if the transaction commits (a dry run, or a write that made no edit, rolls back and tells no
   * one), in commit order; the payload is just the version, far below NOTIFY's 8,000-byte cap. SQLite has one
   * server per file, which learns of its own commits directly.
   */
  async bump(): Promise<RegistryState> {
    const announce =
      this.tx.sql.dialect === 'postgres' ? `, pg_notify(?, CAST(${V.version} AS text)) IS NULL AS announced` : '';
    const [row] = await this.tx.query<RegistryStateRow>(
      `UPDATE ${REGISTRY_STATE.name} SET ${V.version} = ${V.version} + 1 WHERE ${V.id} = 1 ` +
        `RETURNING ${V.version}, ${V.typesVersion}, ${V.batchKey}, ${V.batchVersion}${announce}`,
      announce ? [CHANGE_CHANNEL] : [],
    );
    this.keyedBefore =
      row.batch_key != null && row.batch_version != null
        ? { key: row.batch_key, version: Number(row.batch_version) }
        : null;
    return { version: Number(row.version), typesVersion: Number(row.types_version) };
  }

  /** Moves the counter that moves only when resource types change. */
  async bumpTypes(): Promise<void> {
    await this.tx.query(
      `UPDATE ${REGISTRY_STATE.name} SET ${V.typesVersion} = ${V.typesVersion} + 1 WHERE ${V.id} = 1`,
    );
  }

  /** True when the write committed just before this one (at `version` - 1) is the batch of `key`. */
  followsBatch(key: string, version: number): boolean {
    return this.keyedBefore?.key === key && this.keyedBefore.version === version - 1;
  }

  /** Records this write, committing `version`, as the batch of `key`. */
  async keyBatch(key: string, version: number): Promise<void> {
    await this.tx.query(
      `UPDATE ${REGISTRY_STATE.name} SET ${V.batchKey} = ?, ${V.batchVersion} = ? WHERE ${V.id} = 1`,
      [key, version],
    );
  }
}
