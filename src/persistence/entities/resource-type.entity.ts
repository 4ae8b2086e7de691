import { Column, Entity, Unique, PrimaryColumn } from 'typeorm';

/** A resource type. Its parents live in resource_type_parent. */
@Entity({ name: 'resource_type' })
@Unique('uq_resource_type_name', ['name'])
export class ResourceTypeEntity {
  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'pk_resource_type' })
  id!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;
}
