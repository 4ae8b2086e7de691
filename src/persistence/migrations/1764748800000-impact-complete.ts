import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `registry_change.impact_complete`: false when the binding impact's cap
 * (20,000 tool × project pairs a mutation) left some of the pairs an entry
 * reached unexamined, so that its `impact_count` is a lower bound.
 *
 * Entries written before this migration say true. The server of the time did
 * not record the cut, and nothing stored tells it afterwards (an entry cut at
 * the cap and one that changed nothing both have a count of 0); only a
 * mutation that reached more than 20,000 pairs can have been cut, and saying
 * false for every old entry would mark as doubtful the many that were whole.
 * docs/api.md says so.
 */
export class ImpactComplete1764748800000 implements MigrationInterface {
  name = 'ImpactComplete1764748800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // A plain ADD COLUMN with a constant default changes no row on either database (TypeORM's addColumn copies
    // the whole table on SQLite). SQLite has no boolean: true is 1, as the entity's default is written there.
    const complete = queryRunner.connection.driver.options.type === 'postgres' ? 'true' : '(1)';
    await queryRunner.query(
      `ALTER TABLE "registry_change" ADD COLUMN "impact_complete" boolean NOT NULL DEFAULT ${complete}`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('registry_change', 'impact_complete');
  }
}
