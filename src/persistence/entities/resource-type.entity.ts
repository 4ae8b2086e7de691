import { Column, Entity, Unique, PrimaryColumn } from 'typeorm';
import { RESOURCE_TYPE } from '../tables';

/** A resource type. Its parents live in resource_type_parent. */
@Entity({ name: RESOURCE_TYPE.name })
@Unique('uq_resource_type_name', ['name'])
export class ResourceTypeEntity {
  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'pk_resource_type' })
  id!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ name: RESOURCE_TYPE.columns.createdAt, type: 'varchar', length: 24 })
  createdAt!: string;

  @Column({ name: RESOURCE_TYPE.columns.updatedAt, type: 'varchar', length: 24 })
  updatedAt!: string;
}
