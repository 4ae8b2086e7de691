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
export class Access1764835200000 implements MigrationInterface {
  name = 'Access1764835200000';

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

    // A plain ADD COLUMN changes no row (TypeORM's addColumn copies the whole table on SQLite); the wider actor and
    // the CHECK below need SQLite's table copy anyway, which writes the column into the table's definition with
    // the rest.
    await queryRunner.query(`ALTER TABLE "registry_change" ADD COLUMN "namespace" varchar(100)`);
    await widenActor(queryRunner, 200);

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
    await widenActor(queryRunner, 64);
    await queryRunner.dropTable('api_token');
    await queryRunner.dropTable('role_grant');
  }
}

/**
 * Sets the length of registry_change.actor, keeping every entry: on PostgreSQL an ALTER COLUMN TYPE (TypeORM's
 * changeColumn drops and adds the column there, losing what it held); on SQLite TypeORM's table copy, which keeps
 * the rows (SQLite does not enforce the length, but the table's definition says it).
 */
async function widenActor(queryRunner: QueryRunner, length: number): Promise<void> {
  if (queryRunner.connection.driver.options.type === 'postgres') {
    await queryRunner.query(`ALTER TABLE "registry_change" ALTER COLUMN "actor" TYPE varchar(${length})`);
    return;
  }
  const changes = (await queryRunner.getTable('registry_change'))!;
  await queryRunner.changeColumn(
    changes,
    changes.findColumnByName('actor')!,
    new TableColumn({ name: 'actor', type: 'varchar', length: String(length) }),
  );
}
