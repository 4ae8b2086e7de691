import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { ProjectEntity } from './project.entity';
import { ResourceEntity } from './resource.entity';

/** A resource linked to a project: at most once, with an alias unique within the project. */
@Entity({ name: 'project_resource' })
@Unique('uq_project_resource_alias', ['projectId', 'alias'])
@Index('idx_project_resource_resource', ['resourceId'])
export class ProjectResourceEntity {
  @PrimaryColumn({ name: 'project_id', type: 'varchar', length: 26, primaryKeyConstraintName: 'pk_project_resource' })
  projectId!: string;

  @PrimaryColumn({ name: 'resource_id', type: 'varchar', length: 26, primaryKeyConstraintName: 'pk_project_resource' })
  resourceId!: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  alias!: string | null;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_project_resource_project' })
  project?: ProjectEntity;

  @ManyToOne(() => ResourceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'resource_id', foreignKeyConstraintName: 'fk_project_resource_resource' })
  resource?: ResourceEntity;
}
