import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { ResourceEntity } from './resource.entity';
import { ResourceTypeEntity } from './resource-type.entity';
import { ToolEntity } from './tool.entity';

/** A tool's resource slot; `ordinal` keeps declaration order. */
@Entity({ name: 'resource_slot' })
@Unique('uq_resource_slot_name', ['toolId', 'name'])
@Index('idx_resource_slot_type', ['resourceTypeId'])
@Index('idx_resource_slot_static_resource', ['staticResourceId'])
@Check('ck_resource_slot_access', `"access" IN ('READ_ONLY', 'READ_WRITE', 'WRITE_ONLY')`)
@Check('ck_resource_slot_binding', `"binding" IN ('CONTEXTUAL', 'STATIC', 'PARAMETER')`)
@Check('ck_resource_slot_static', `("binding" = 'STATIC') = ("static_resource_id" IS NOT NULL)`)
export class ResourceSlotEntity {
  @PrimaryColumn({ name: 'tool_id', type: 'varchar', length: 26, primaryKeyConstraintName: 'pk_resource_slot' })
  toolId!: string;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'pk_resource_slot' })
  ordinal!: number;

  @Column({ type: 'varchar', length: 64 })
  name!: string;

  @Column({ name: 'resource_type_id', type: 'varchar', length: 26 })
  resourceTypeId!: string;

  @Column({ type: 'varchar', length: 16 })
  access!: string;

  @Column({ type: 'varchar', length: 16 })
  binding!: string;

  @Column({ name: 'static_resource_id', type: 'varchar', length: 26, nullable: true })
  staticResourceId!: string | null;

  @Column({ type: 'boolean' })
  required!: boolean;

  @ManyToOne(() => ToolEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tool_id', foreignKeyConstraintName: 'fk_resource_slot_tool' })
  tool?: ToolEntity;

  @ManyToOne(() => ResourceTypeEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'resource_type_id', foreignKeyConstraintName: 'fk_resource_slot_type' })
  resourceType?: ResourceTypeEntity;

  @ManyToOne(() => ResourceEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'static_resource_id', foreignKeyConstraintName: 'fk_resource_slot_static_resource' })
  staticResource?: ResourceEntity;
}
