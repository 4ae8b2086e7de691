import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';
import { API_TOKEN } from '../tables';

/**
 * An API token, principal `token:<name>`. Only the SHA-256 digest of its
 * secret is stored. A name is never used again, even once the token is
 * revoked, so a principal in the change log always means one token.
 */
@Entity({ name: API_TOKEN.name })
@Unique('uq_api_token_name_key', ['nameKey'])
@Unique('uq_api_token_secret_digest', ['secretDigest'])
export class ApiTokenEntity {
  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'pk_api_token' })
  id!: string;

  @Column({ type: 'varchar', length: 64 })
  name!: string;

  /** The name lowercased: names are unique ignoring case. */
  @Column({ name: API_TOKEN.columns.nameKey, type: 'varchar', length: 64 })
  nameKey!: string;

  /** SHA-256 of the secret, in hex. */
  @Column({ name: API_TOKEN.columns.secretDigest, type: 'varchar', length: 64 })
  secretDigest!: string;

  @Column({ name: API_TOKEN.columns.createdBy, type: 'varchar', length: 200 })
  createdBy!: string;

  @Column({ name: API_TOKEN.columns.createdAt, type: 'varchar', length: 24 })
  createdAt!: string;

  @Column({ name: API_TOKEN.columns.expiresAt, type: 'varchar', length: 24, nullable: true })
  expiresAt!: string | null;

  /** When it last authenticated a request, to within a few minutes (written at most that often). */
  @Column({ name: API_TOKEN.columns.lastUsedAt, type: 'varchar', length: 24, nullable: true })
  lastUsedAt!: string | null;

  @Column({ name: API_TOKEN.columns.revokedAt, type: 'varchar', length: 24, nullable: true })
  revokedAt!: string | null;
}
