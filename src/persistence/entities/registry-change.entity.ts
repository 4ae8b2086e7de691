import { Check, Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';
import { REGISTRY_CHANGE, REGISTRY_CHANGE_CHECKS } from '../tables';

/**
 * One entry of the change log: one edit of a committed mutation, written in
 * the mutation's own transaction. Entries are ordered by (version, seq): the
 * registry version the mutation committed, and the edit's place in it.
 */
@Entity({ name: REGISTRY_CHANGE.name })
@Unique('uq_registry_change_version_seq', ['version', 'seq'])
@Index('idx_registry_change_entity', ['entityId'])
@Index('idx_registry_change_related', ['relatedId'])
@Index('idx_registry_change_entity_name', ['entityName'])
@Index('idx_registry_change_previous_name', ['previousName'])
@Check('ck_registry_change_kind', REGISTRY_CHANGE_CHECKS.ck_registry_change_kind)
export class RegistryChangeEntity {
  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'pk_registry_change' })
  id!: string;

  @Column({ type: 'integer' })
  version!: number;

  @Column({ type: 'integer' })
  seq!: number;

  @Column({ type: 'varchar', length: 24 })
  at!: string;

  /** The principal who made the change (`user:alice`, `token:ci`), or `anonymous` in open development mode. */
  @Column({ type: 'varchar', length: 200 })
  actor!: string;

  @Column({ type: 'varchar', length: 64 })
  operation!: string;

  @Column({ type: 'varchar', length: 16 })
  kind!: string;

  /** The thing changed (for a link, its project). */
  @Column({ name: REGISTRY_CHANGE.columns.entityId, type: 'varchar', length: 26 })
  entityId!: string;

  @Column({ name: REGISTRY_CHANGE.columns.entityName, type: 'varchar', length: 200 })
  entityName!: string;

  /** The name it had before, when the change renamed it. */
  @Column({ name: REGISTRY_CHANGE.columns.previousName, type: 'varchar', length: 200, nullable: true })
  previousName!: string | null;

  /** For a link, its resource. */
  @Column({ name: REGISTRY_CHANGE.columns.relatedId, type: 'varchar', length: 26, nullable: true })
  relatedId!: string | null;

  @Column({ name: REGISTRY_CHANGE.columns.relatedName, type: 'varchar', length: 200, nullable: true })
  relatedName!: string | null;

  @Column({ type: 'text' })
  summary!: string;

  /** Binding changes found among the (tool, project) pairs examined. */
  @Column({ name: REGISTRY_CHANGE.columns.impactCount, type: 'integer' })
  impactCount!: number;

  /** False when the impact cap left pairs this edit reached unexamined (impact_count is then a lower bound). */
  @Column({ name: REGISTRY_CHANGE.columns.impactComplete, type: 'boolean', default: true })
  impactComplete!: boolean;

  /** The binding changes this edit caused, as JSON (capped; impact_count counts every one found). */
  @Column({ name: REGISTRY_CHANGE.columns.bindingChanges, type: 'text', nullable: true })
  bindingChanges!: string | null;

  /** For an access entry (GRANT, API_TOKEN): the namespace it concerns, or `*`; null for every other entry. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  namespace!: string | null;
}
