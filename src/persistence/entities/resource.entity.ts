import { Column, Entity, Unique, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ResourceTypeEntity } from './resource-type.entity';
import { RESOURCE } from '../tables';

/** A registered resource; `short_name` is the last segment of `name`. */
@Entity({ name: RESOURCE.name })
@Unique('uq_resource_name', ['name'])
@Index('idx_resource_type', ['typeId'])
@Index('idx_resource_short_name', ['shortName'])
export class ResourceEntity {
  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'pk_resource' })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ name: RESOURCE.columns.shortName, type: 'varchar', length: 200 })
  shortName!: string;

  @Column({ name: RESOURCE.columns.typeId, type: 'varchar', length: 26 })
  typeId!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @ManyToOne(() => ResourceTypeEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: RESOURCE.columns.typeId, foreignKeyConstraintName: 'fk_resource_type' })
  type?: ResourceTypeEntity;
}
