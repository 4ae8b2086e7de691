import { Column, Entity, PrimaryColumn } from 'typeorm';
import { REGISTRY_STATE } from '../tables';

/**
 * One row of counters that every write bumps in its own transaction. On
 * PostgreSQL every request reads it (one statement), so an instance sees
 * another's writes at once; on SQLite the one owning server keeps it in memory.
 * `types_version` moves only when resource types change.
 */
@Entity({ name: REGISTRY_STATE.name })
export class RegistryStateEntity {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'pk_registry_state' })
  id!: number;

  @Column({ type: 'integer' })
  version!: number;

  @Column({ name: REGISTRY_STATE.columns.typesVersion, type: 'integer' })
  typesVersion!: number;

  /** The key of the last registerBatch sent with one, and the version it committed (see the BatchKeys migration). */
  @Column({ name: REGISTRY_STATE.columns.batchKey, type: 'varchar', length: 64, nullable: true })
  batchKey!: string | null;

  @Column({ name: REGISTRY_STATE.columns.batchVersion, type: 'integer', nullable: true })
  batchVersion!: number | null;
}
