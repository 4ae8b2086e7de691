import { Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';
import { PROJECT } from '../tables';

/** A project: the context in which contextual slots find their resources. */
@Entity({ name: PROJECT.name })
@Unique('uq_project_name_key', ['nameKey'])
@Index('idx_project_name_id', ['name', 'id'])
export class ProjectEntity {
  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'pk_project' })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  /** The name with its letters lowercased: names are unique ignoring case. */
  @Column({ name: PROJECT.columns.nameKey, type: 'varchar', length: 200 })
  nameKey!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ name: PROJECT.columns.createdAt, type: 'varchar', length: 24 })
  createdAt!: string;

  @Column({ name: PROJECT.columns.updatedAt, type: 'varchar', length: 24 })
  updatedAt!: string;
}
