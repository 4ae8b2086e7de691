import { Column, Entity, Unique, PrimaryColumn } from 'typeorm';
import { PROJECT } from '../tables';

/** A project: the context in which contextual slots find their resources. */
@Entity({ name: PROJECT.name })
@Unique('uq_project_name', ['name'])
export class ProjectEntity {
  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'pk_project' })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;
}
