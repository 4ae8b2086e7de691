import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { ResourceEntity } from './resource.entity';
import { ResourceTypeEntity } from './resource-type.entity';
import { ToolEntity } from './tool.entity';
import { RESOURCE_SLOT, RESOURCE_SLOT_CHECKS } from '../tables';

/** A tool's resource slot; `ordinal` keeps declaration order. */
@Entity({ name: RESOURCE_SLOT.name })
@Unique('uq_resource_slot_name', ['toolId', 'name'])
@Index('idx_resource_slot_type', ['resourceTypeId'])
@Index('idx_resource_slot_static_resource', ['staticResourceId'])
@Check('ck_resource_slot_access', RESOURCE_SLOT_CHECKS.ck_resource_slot_access)
@Check('ck_resource_slot_binding', RESOURCE_SLOT_CHECKS.ck_resource_slot_binding)
@Check('ck_resource_slot_static', RESOURCE_SLOT_CHECKS.ck_resource_slot_static)
export class ResourceSlotEntity {
  @PrimaryColumn({
    name: RESOURCE_SLOT.columns.toolId,
    type: 'varchar',
    length: 26,
    primaryKeyConstraintName: 'pk_resource_slot',
  })
  toolId!: string;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'pk_resource_slot' })
  ordinal!: number;

  @Column({ type: 'varchar', length: 64 })
  name!: string;

  @Column({ name: RESOURCE_SLOT.columns.resourceTypeId, type: 'varchar', length: 26 })
  resourceTypeId!: string;

  @Column({ type: 'varchar', length: 16 })
  access!: string;

  @Column({ type: 'varchar', length: 16 })
  binding!: string;

  @Column({ name: RESOURCE_SLOT.columns.staticResourceId, type: 'varchar', length: 26, nullable: true })
  staticResourceId!: string | null;

  @Column({ type: 'boolean' })
  required!: boolean;

  @ManyToOne(() => ToolEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: RESOURCE_SLOT.columns.toolId, foreignKeyConstraintName: 'fk_resource_slot_tool' })
  tool?: ToolEntity;

  @ManyToOne(() => ResourceTypeEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: RESOURCE_SLOT.columns.resourceTypeId, foreignKeyConstraintName: 'fk_resource_slot_type' })
  resourceType?: ResourceTypeEntity;

  @ManyToOne(() => ResourceEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({
    name: RESOURCE_SLOT.columns.staticResourceId,
    foreignKeyConstraintName: 'fk_resource_slot_static_resource',
  })
  staticResource?: ResourceEntity;
}
