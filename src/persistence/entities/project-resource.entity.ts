import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { ProjectEntity } from './project.entity';
import { ResourceEntity } from './resource.entity';
import { PROJECT_RESOURCE } from '../tables';

/** A resource linked to a project: at most once, with an alias unique within the project. */
@Entity({ name: PROJECT_RESOURCE.name })
@Unique('uq_project_resource_alias', ['projectId', 'alias'])
@Index('idx_project_resource_resource', ['resourceId'])
export class ProjectResourceEntity {
  @PrimaryColumn({
    name: PROJECT_RESOURCE.columns.projectId,
    type: 'varchar',
    length: 26,
    primaryKeyConstraintName: 'pk_project_resource',
  })
  projectId!: string;

  @PrimaryColumn({
    name: PROJECT_RESOURCE.columns.resourceId,
    type: 'varchar',
    length: 26,
    primaryKeyConstraintName: 'pk_project_resource',
  })
  resourceId!: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  alias!: string | null;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: PROJECT_RESOURCE.columns.projectId, foreignKeyConstraintName: 'fk_project_resource_project' })
  project?: ProjectEntity;

  @ManyToOne(() => ResourceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: PROJECT_RESOURCE.columns.resourceId, foreignKeyConstraintName: 'fk_project_resource_resource' })
  resource?: ResourceEntity;
}
