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
}
