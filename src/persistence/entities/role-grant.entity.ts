import { Check, Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';
import { ROLE_GRANT, ROLE_GRANT_CHECKS } from '../tables';

/**
 * A role grant: a principal (`user:…`, `group:…`, `token:…`) holds a role on
 * a namespace, or on `*` (every namespace and the global scope). At most one
 * grant per principal and namespace.
 */
@Entity({ name: ROLE_GRANT.name })
@Unique('uq_role_grant_principal_namespace', ['principal', 'namespace'])
@Index('idx_role_grant_namespace', ['namespace'])
@Check('ck_role_grant_role', ROLE_GRANT_CHECKS.ck_role_grant_role)
export class RoleGrantEntity {
  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'pk_role_grant' })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  principal!: string;

  @Column({ type: 'varchar', length: 16 })
  role!: string;

  /** A namespace, lowercased, or `*`. */
  @Column({ type: 'varchar', length: 100 })
  namespace!: string;

  /** The principal who granted it. */
  @Column({ name: ROLE_GRANT.columns.grantedBy, type: 'varchar', length: 200 })
  grantedBy!: string;

  @Column({ name: ROLE_GRANT.columns.createdAt, type: 'varchar', length: 24 })
  createdAt!: string;
}
