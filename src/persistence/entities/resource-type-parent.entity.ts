import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Column } from 'typeorm';
import { ResourceTypeEntity } from './resource-type.entity';

/** A direct parent of a resource type; `ordinal` keeps declaration order. */
@Entity({ name: 'resource_type_parent' })
@Index('idx_resource_type_parent_parent', ['parentId'])
export class ResourceTypeParentEntity {
  @PrimaryColumn({ name: 'type_id', type: 'varchar', length: 26, primaryKeyConstraintName: 'pk_resource_type_parent' })
  typeId!: string;

  @PrimaryColumn({
    name: 'parent_id',
    type: 'varchar',
    length: 26,
    primaryKeyConstraintName: 'pk_resource_type_parent',
  })
  parentId!: string;

  @Column({ type: 'integer' })
  ordinal!: number;

  @ManyToOne(() => ResourceTypeEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'type_id', foreignKeyConstraintName: 'fk_resource_type_parent_type' })
  type?: ResourceTypeEntity;

  @ManyToOne(() => ResourceTypeEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'parent_id', foreignKeyConstraintName: 'fk_resource_type_parent_parent' })
  parent?: ResourceTypeEntity;
}
