import {
  Table,
  TableCheck,
  TableColumn,
  TableIndex,
  TableUnique,
  type MigrationInterface,
  type QueryRunner,
} from 'typeorm';

/**
 * Safe, visible change:
 * - names of resources, projects and tools become unique ignoring case, through
 *   a `name_key` column (the name, lowercased) with the unique constraint; the
 *   name keeps a plain index, since lookups stay exact (type names are
 *   lowercase by their grammar, so their name is already their key);
 * - `created_at` and `updated_at` on the four named tables, as ISO-8601 UTC
 *   text (existing rows get the time of this migration);
 * - the change log, `registry_change`.
 */
export class SafeChange1764576000000 implements MigrationInterface {
  name = 'SafeChange1764576000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const now = new Date().toISOString();
    const timestamp = (name: string, isNullable: boolean) =>
      new TableColumn({ name, type: 'varchar', length: '24', isNullable });

    for (const table of ['resource_type', 'resource', 'project', 'tool']) {
      const keyed = table !== 'resource_type';
      await queryRunner.addColumns(table, [
        ...(keyed ? [new TableColumn({ name: 'name_key', type: 'varchar', length: '200', isNullable: true })] : []),
        timestamp('created_at', true),
        timestamp('updated_at', true),
      ]);
      await queryRunner.query(
        `UPDATE "${table}" SET ${keyed ? 'name_key = LOWER(name), ' : ''}created_at = '${now}', updated_at = '${now}'`,
      );
      if (keyed) {
        const clashes = (await queryRunner.query(
          `SELECT name_key FROM "${table}" GROUP BY name_key HAVING COUNT(*) > 1 ORDER BY name_key`,
        )) as { name_key: string }[];
        if (clashes.length > 0) {
          throw new Error(
            `${table} names must become unique ignoring case, but these differ only by case: ${clashes
              .slice(0, 10)
              .map((c) => c.name_key)
              .join(', ')}; rename all but one of each, then start the server again`,
          );
        }
      }
      const columns = await queryRunner.getTable(table);
      const column = (name: string) => columns!.findColumnByName(name)!;
      await queryRunner.changeColumns(table, [
        ...(keyed
          ? [
              {
                oldColumn: column('name_key'),
                newColumn: new TableColumn({ name: 'name_key', type: 'varchar', length: '200' }),
              },
            ]
          : []),
        { oldColumn: column('created_at'), newColumn: timestamp('created_at', false) },
        { oldColumn: column('updated_at'), newColumn: timestamp('updated_at', false) },
      ]);
      if (!keyed) continue;

      await queryRunner.dropUniqueConstraint(table, `uq_${table}_name`);
      await queryRunner.createUniqueConstraint(
        table,
        new TableUnique({ name: `uq_${table}_name_key`, columnNames: ['name_key'] }),
      );
      await queryRunner.createIndex(table, new TableIndex({ name: `idx_${table}_name`, columnNames: ['name'] }));
    }

    await queryRunner.createTable(
      new Table({
        name: 'registry_change',
        columns: [
          {
            name: 'id',
            type: 'varchar',
            length: '26',
            isPrimary: true,
            primaryKeyConstraintName: 'pk_registry_change',
          },
          { name: 'version', type: 'integer' },
          { name: 'seq', type: 'integer' },
          { name: 'at', type: 'varchar', length: '24' },
          { name: 'actor', type: 'varchar', length: '64' },
          { name: 'operation', type: 'varchar', length: '64' },
          { name: 'kind', type: 'varchar', length: '16' },
          { name: 'entity_id', type: 'varchar', length: '26' },
          { name: 'entity_name', type: 'varchar', length: '200' },
          { name: 'previous_name', type: 'varchar', length: '200', isNullable: true },
          { name: 'related_id', type: 'varchar', length: '26', isNullable: true },
          { name: 'related_name', type: 'varchar', length: '200', isNullable: true },
          { name: 'summary', type: 'text' },
          { name: 'impact_count', type: 'integer' },
          { name: 'binding_changes', type: 'text', isNullable: true },
        ],
        uniques: [new TableUnique({ name: 'uq_registry_change_version_seq', columnNames: ['version', 'seq'] })],
        checks: [
          new TableCheck({
            name: 'ck_registry_change_kind',
            expression: `"kind" IN ('RESOURCE_TYPE', 'RESOURCE', 'PROJECT', 'LINK', 'TOOL')`,
          }),
        ],
        indices: [
          new TableIndex({ name: 'idx_registry_change_entity', columnNames: ['entity_id'] }),
          new TableIndex({ name: 'idx_registry_change_related', columnNames: ['related_id'] }),
          new TableIndex({ name: 'idx_registry_change_entity_name', columnNames: ['entity_name'] }),
          new TableIndex({ name: 'idx_registry_change_previous_name', columnNames: ['previous_name'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('registry_change');
    for (const table of ['tool', 'project', 'resource', 'resource_type']) {
      const keyed = table !== 'resource_type';
      if (keyed) {
        await queryRunner.dropIndex(table, `idx_${table}_name`);
        await queryRunner.dropUniqueConstraint(table, `uq_${table}_name_key`);
        await queryRunner.createUniqueConstraint(
          table,
          new TableUnique({ name: `uq_${table}_name`, columnNames: ['name'] }),
        );
      }
      await queryRunner.dropColumns(table, [...(keyed ? ['name_key'] : []), 'created_at', 'updated_at']);
    }
  }
}
