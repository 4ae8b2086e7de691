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
 * Access: who may change what.
 * - `role_grant`: a principal holds a role on a namespace (or on `*`);
 * - `api_token`: tokens made in the registry, by the SHA-256 digest of their secret;
 * - the change log records principals (`user:…` can be long: `actor` widens to 200 characters),
 *   two new kinds (GRANT, API_TOKEN), and the namespace an access entry concerns.
 */
export class Access1764748800000 implements MigrationInterface {
  name = 'Access1764748800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'role_grant',
        columns: [
          { name: 'id', type: 'varchar', length: '26', isPrimary: true, primaryKeyConstraintName: 'pk_role_grant' },
          { name: 'principal', type: 'varchar', length: '200' },
          { name: 'role', type: 'varchar', length: '16' },
          { name: 'namespace', type: 'varchar', length: '100' },
          { name: 'granted_by', type: 'varchar', length: '200' },
          { name: 'created_at', type: 'varchar', length: '24' },
        ],
        uniques: [
          new TableUnique({ name: 'uq_role_grant_principal_namespace', columnNames: ['principal', 'namespace'] }),
        ],
        checks: [new TableCheck({ name: 'ck_role_grant_role', expression: `"role" IN ('VIEWER', 'EDITOR', 'OWNER')` })],
        indices: [new TableIndex({ name: 'idx_role_grant_namespace', columnNames: ['namespace'] })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'api_token',
        columns: [
          { name: 'id', type: 'varchar', length: '26', isPrimary: true, primaryKeyConstraintName: 'pk_api_token' },
          { name: 'name', type: 'varchar', length: '64' },
          { name: 'name_key', type: 'varchar', length: '64' },
          { name: 'secret_digest', type: 'varchar', length: '64' },
          { name: 'created_by', type: 'varchar', length: '200' },
          { name: 'created_at', type: 'varchar', length: '24' },
          { name: 'expires_at', type: 'varchar', length: '24', isNullable: true },
          { name: 'last_used_at', type: 'varchar', length: '24', isNullable: true },
          { name: 'revoked_at', type: 'varchar', length: '24', isNullable: true },
        ],
        uniques: [
          new TableUnique({ name: 'uq_api_token_name_key', columnNames: ['name_key'] }),
          new TableUnique({ name: 'uq_api_token_secret_digest', columnNames: ['secret_digest'] }),
        ],
      }),
    );

    const changes = (await queryRunner.getTable('registry_change'))!;
    await queryRunner.changeColumn(
      changes,
      changes.findColumnByName('actor')!,
      new TableColumn({ name: 'actor', type: 'varchar', length: '200' }),
    );
    await queryRunner.addColumn(
      'registry_change',
      new TableColumn({ name: 'namespace', type: 'varchar', length: '100', isNullable: true }),
    );
    await queryRunner.dropCheckConstraint('registry_change', 'ck_registry_change_kind');
    await queryRunner.createCheckConstraint(
      'registry_change',
      new TableCheck({
        name: 'ck_registry_change_kind',
        expression: `"kind" IN ('RESOURCE_TYPE', 'RESOURCE', 'PROJECT', 'LINK', 'TOOL', 'GRANT', 'API_TOKEN')`,
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM registry_change WHERE kind IN ('GRANT', 'API_TOKEN')`);
    await queryRunner.dropCheckConstraint('registry_change', 'ck_registry_change_kind');
    await queryRunner.createCheckConstraint(
      'registry_change',
      new TableCheck({
        name: 'ck_registry_change_kind',
        expression: `"kind" IN ('RESOURCE_TYPE', 'RESOURCE', 'PROJECT', 'LINK', 'TOOL')`,
      }),
    );
    await queryRunner.dropColumn('registry_change', 'namespace');
    const changes = (await queryRunner.getTable('registry_change'))!;
    await queryRunner.changeColumn(
      changes,
      changes.findColumnByName('actor')!,
      new TableColumn({ name: 'actor', type: 'varchar', length: '64' }),
    );
    await queryRunner.dropTable('api_token');
    await queryRunner.dropTable('role_grant');
  }
}
