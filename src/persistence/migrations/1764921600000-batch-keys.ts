import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `registry_state.batch_key` and `batch_version`: the key of the last
 * registerBatch sent with one (`input.key`), and the version it committed. A
 * batch sent with `input.after` runs only when the registry's last committed
 * write is the batch of that key: when `batch_version` is the version before
 * its own and `batch_key` is that key. So a client may send the next batch
 * before the one it follows has answered, and still never have it applied
 * after a failure of that one. Both start empty.
 */
export class BatchKeys1764921600000 implements MigrationInterface {
  name = 'BatchKeys1764921600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Plain ADD COLUMN, nullable, no default: no row changes on either database (TypeORM's addColumn copies the
    // whole table on SQLite).
    await queryRunner.query(`ALTER TABLE "registry_state" ADD COLUMN "batch_key" varchar(64)`);
    await queryRunner.query(`ALTER TABLE "registry_state" ADD COLUMN "batch_version" integer`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('registry_state', 'batch_version');
    await queryRunner.dropColumn('registry_state', 'batch_key');
  }
}
