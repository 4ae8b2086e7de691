import { Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';
import { TOOL } from '../tables';

/** A registered tool. Its slots live in resource_slot. */
@Entity({ name: TOOL.name })
@Unique('uq_tool_name_key', ['nameKey'])
@Index('idx_tool_name_id', ['name', 'id'])
export class ToolEntity {
  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'pk_tool' })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  /** The name with its letters lowercased: names are unique ignoring case. */
  @Column({ name: TOOL.columns.nameKey, type: 'varchar', length: 200 })
  nameKey!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ name: TOOL.columns.createdAt, type: 'varchar', length: 24 })
  createdAt!: string;

  @Column({ name: TOOL.columns.updatedAt, type: 'varchar', length: 24 })
  updatedAt!: string;
}
