import { Column, Entity, Unique, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ResourceTypeEntity } from './resource-type.entity';
import { RESOURCE } from '../tables';

/** A registered resource; `short_name` is the last segment of `name`. */
@Entity({ name: RESOURCE.name })
@Unique('uq_resource_name_key', ['nameKey'])
@Index('idx_resource_name_id', ['name', 'id'])
@Index('idx_resource_type', ['typeId'])
@Index('idx_resource_short_name', ['shortName'])
export class ResourceEntity {
  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'pk_resource' })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  /** The name with its letters lowercased: names are unique ignoring case. */
  @Column({ name: RESOURCE.columns.nameKey, type: 'varchar', length: 200 })
  nameKey!: string;

  @Column({ name: RESOURCE.columns.shortName, type: 'varchar', length: 200 })
  shortName!: string;

  @Column({ name: RESOURCE.columns.typeId, type: 'varchar', length: 26 })
  typeId!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ name: RESOURCE.columns.createdAt, type: 'varchar', length: 24 })
  createdAt!: string;

  @Column({ name: RESOURCE.columns.updatedAt, type: 'varchar', length: 24 })
  updatedAt!: string;

  @ManyToOne(() => ResourceTypeEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: RESOURCE.columns.typeId, foreignKeyConstraintName: 'fk_resource_type' })
  type?: ResourceTypeEntity;
}
