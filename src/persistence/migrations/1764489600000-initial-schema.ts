import {
  Table,
  TableCheck,
  TableForeignKey,
  TableIndex,
  TableUnique,
  type MigrationInterface,
  type QueryRunner,
} from 'typeorm';
import type { TableColumnOptions } from 'typeorm/schema-builder/options/TableColumnOptions';

/**
 * The registry's tables. Dialect-neutral through TypeORM's schema API; the one
 * dialect-specific choice lives here: on PostgreSQL, name columns use the "C"
 * collation so that ORDER BY name compares plain bytes, exactly as SQLite does.
 */
export class InitialSchema1764489600000 implements MigrationInterface {
  name = 'InitialSchema1764489600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    const id = (name = 'id'): TableColumnOptions => ({ name, type: 'varchar', length: '26' });
    const nameColumn = (length: number): TableColumnOptions => ({
      name: 'name',
      type: 'varchar',
      length: String(length),
      ...(postgres ? { collation: 'C' } : {}),
    });
    const description: TableColumnOptions = { name: 'description', type: 'text', isNullable: true };

    await queryRunner.createTable(
      new Table({
        name: 'resource_type',
        columns: [
          { ...id(), isPrimary: true, primaryKeyConstraintName: 'pk_resource_type' },
          nameColumn(100),
          description,
        ],
        uniques: [new TableUnique({ name: 'uq_resource_type_name', columnNames: ['name'] })],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'resource_type_parent',
        columns: [
          { ...id('type_id'), isPrimary: true, primaryKeyConstraintName: 'pk_resource_type_parent' },
          { ...id('parent_id'), isPrimary: true, primaryKeyConstraintName: 'pk_resource_type_parent' },
          { name: 'ordinal', type: 'integer' },
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_resource_type_parent_type',
            columnNames: ['type_id'],
            referencedTableName: 'resource_type',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
          new TableForeignKey({
            name: 'fk_resource_type_parent_parent',
            columnNames: ['parent_id'],
            referencedTableName: 'resource_type',
            referencedColumnNames: ['id'],
            onDelete: 'RESTRICT',
          }),
        ],
        indices: [new TableIndex({ name: 'idx_resource_type_parent_parent', columnNames: ['parent_id'] })],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'resource',
        columns: [
          { ...id(), isPrimary: true, primaryKeyConstraintName: 'pk_resource' },
          nameColumn(200),
          { name: 'short_name', type: 'varchar', length: '200' },
          id('type_id'),
          description,
        ],
        uniques: [new TableUnique({ name: 'uq_resource_name', columnNames: ['name'] })],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_resource_type',
            columnNames: ['type_id'],
            referencedTableName: 'resource_type',
            referencedColumnNames: ['id'],
            onDelete: 'RESTRICT',
          }),
        ],
        indices: [
          new TableIndex({ name: 'idx_resource_type', columnNames: ['type_id'] }),
          new TableIndex({ name: 'idx_resource_short_name', columnNames: ['short_name'] }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'project',
        columns: [{ ...id(), isPrimary: true, primaryKeyConstraintName: 'pk_project' }, nameColumn(200), description],
        uniques: [new TableUnique({ name: 'uq_project_name', columnNames: ['name'] })],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'project_resource',
        columns: [
          { ...id('project_id'), isPrimary: true, primaryKeyConstraintName: 'pk_project_resource' },
          { ...id('resource_id'), isPrimary: true, primaryKeyConstraintName: 'pk_project_resource' },
          { name: 'alias', type: 'varchar', length: '64', isNullable: true },
        ],
        uniques: [new TableUnique({ name: 'uq_project_resource_alias', columnNames: ['project_id', 'alias'] })],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_project_resource_project',
            columnNames: ['project_id'],
            referencedTableName: 'project',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
          new TableForeignKey({
            name: 'fk_project_resource_resource',
            columnNames: ['resource_id'],
            referencedTableName: 'resource',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
        indices: [new TableIndex({ name: 'idx_project_resource_resource', columnNames: ['resource_id'] })],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'tool',
        columns: [{ ...id(), isPrimary: true, primaryKeyConstraintName: 'pk_tool' }, nameColumn(200), description],
        uniques: [new TableUnique({ name: 'uq_tool_name', columnNames: ['name'] })],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'resource_slot',
        columns: [
          { ...id('tool_id'), isPrimary: true, primaryKeyConstraintName: 'pk_resource_slot' },
          { name: 'ordinal', type: 'integer', isPrimary: true, primaryKeyConstraintName: 'pk_resource_slot' },
          { name: 'name', type: 'varchar', length: '64' },
          id('resource_type_id'),
          { name: 'access', type: 'varchar', length: '16' },
          { name: 'binding', type: 'varchar', length: '16' },
          { ...id('static_resource_id'), isNullable: true },
          { name: 'required', type: 'boolean' },
        ],
        uniques: [new TableUnique({ name: 'uq_resource_slot_name', columnNames: ['tool_id', 'name'] })],
        checks: [
          new TableCheck({
            name: 'ck_resource_slot_access',
            expression: `"access" IN ('READ_ONLY', 'READ_WRITE', 'WRITE_ONLY')`,
          }),
          new TableCheck({
            name: 'ck_resource_slot_binding',
            expression: `"binding" IN ('CONTEXTUAL', 'STATIC', 'PARAMETER')`,
          }),
          new TableCheck({
            name: 'ck_resource_slot_static',
            expression: `("binding" = 'STATIC') = ("static_resource_id" IS NOT NULL)`,
          }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_resource_slot_tool',
            columnNames: ['tool_id'],
            referencedTableName: 'tool',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
          new TableForeignKey({
            name: 'fk_resource_slot_type',
            columnNames: ['resource_type_id'],
            referencedTableName: 'resource_type',
            referencedColumnNames: ['id'],
            onDelete: 'RESTRICT',
          }),
          new TableForeignKey({
            name: 'fk_resource_slot_static_resource',
            columnNames: ['static_resource_id'],
            referencedTableName: 'resource',
            referencedColumnNames: ['id'],
            onDelete: 'RESTRICT',
          }),
        ],
        indices: [
          new TableIndex({ name: 'idx_resource_slot_type', columnNames: ['resource_type_id'] }),
          new TableIndex({ name: 'idx_resource_slot_static_resource', columnNames: ['static_resource_id'] }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'registry_state',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, primaryKeyConstraintName: 'pk_registry_state' },
          { name: 'version', type: 'integer' },
          { name: 'types_version', type: 'integer' },
        ],
      }),
    );
    await queryRunner.query('INSERT INTO registry_state (id, version, types_version) VALUES (1, 0, 0)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'registry_state',
      'resource_slot',
      'tool',
      'project_resource',
      'project',
      'resource',
      'resource_type_parent',
      'resource_type',
    ]) {
      await queryRunner.dropTable(table);
    }
  }
}
