import { Column, Entity, Unique, PrimaryColumn } from 'typeorm';
import { TOOL } from '../tables';

/** A registered tool. Its slots live in resource_slot. */
@Entity({ name: TOOL.name })
@Unique('uq_tool_name', ['name'])
export class ToolEntity {
  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'pk_tool' })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;
}
