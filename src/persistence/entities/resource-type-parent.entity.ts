import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Column } from 'typeorm';
import { ResourceTypeEntity } from './resource-type.entity';
import { RESOURCE_TYPE_PARENT } from '../tables';

/** A direct parent of a resource type; `ordinal` keeps declaration order. */
@Entity({ name: RESOURCE_TYPE_PARENT.name })
@Index('idx_resource_type_parent_parent', ['parentId'])
export class ResourceTypeParentEntity {
  @PrimaryColumn({
    name: RESOURCE_TYPE_PARENT.columns.typeId,
    type: 'varchar',
    length: 26,
    primaryKeyConstraintName: 'pk_resource_type_parent',
  })
  typeId!: string;

  @PrimaryColumn({
    name: RESOURCE_TYPE_PARENT.columns.parentId,
    type: 'varchar',
    length: 26,
    primaryKeyConstraintName: 'pk_resource_type_parent',
  })
  parentId!: string;

  @Column({ type: 'integer' })
  ordinal!: number;

  @ManyToOne(() => ResourceTypeEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: RESOURCE_TYPE_PARENT.columns.typeId, foreignKeyConstraintName: 'fk_resource_type_parent_type' })
  type?: ResourceTypeEntity;

  @ManyToOne(() => ResourceTypeEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({
    name: RESOURCE_TYPE_PARENT.columns.parentId,
    foreignKeyConstraintName: 'fk_resource_type_parent_parent',
  })
  parent?: ResourceTypeEntity;
}
