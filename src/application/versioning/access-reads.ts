import type {
  AccessVisibility,
  ApiTokenRecord,
  GrantFilter,
  GrantRecord,
  Page,
  Window,
} from '../../persistence/records';
import type { RegistryReader } from '../../persistence/registry-reader';
import type { AccessCache } from './access-cache';

/** What access reads need of their session: its pinned version, and its one way to the reader. */
export interface AccessReadHost {
  /** Pins the registry version (as every read does) and gives it. */
  pinned(): Promise<number>;
  /** The pinned version when it is pinned, or can be without a wait; else undefined. */
  pinnedNow(): number | undefined;
  /** A read of the registry through the session, depending on access. */
  read<T>(use: (reader: RegistryReader) => Promise<T>): Promise<T>;
  /** Records that the answer depends on access (grants and tokens). */
  recordAccess(): void;
}

/**
 * One request's reads of grants and API tokens, through its read session:
 * at the session's pinned version, each recorded as depending on access, and
 * the grants and tokens every authenticated request reads kept across
 * requests while no access change follows (./access-cache.ts).
 */
export class AccessReads {
  constructor(
    private readonly cache: AccessCache,
    private readonly host: AccessReadHost,
  ) {}

  /** Every grant these principals hold, at the pinned version (kept across requests while access is unchanged). */
  async grantsOf(principals: readonly string[]): Promise<GrantRecord[]> {
    this.host.recordAccess();
    return this.cache.grantsOf(principals, await this.host.pinned());
  }

  /** The API token whose secret has this SHA-256 digest (hex), or null, at the pinned version (kept as grants are). */
  async apiTokenByDigest(digest: string): Promise<ApiTokenRecord | null> {
    this.host.recordAccess();
    return this.cache.tokenByDigest(digest, await this.host.pinned());
  }

  /**
   * The API token with this digest (or null) when it is known without a read: the version pinned without a wait
   * (in memory, as on SQLite, or already), and the token kept since a version no access change has followed.
   * Undefined otherwise (then apiTokenByDigest reads it).
   */
  apiTokenByDigestNow(digest: string): ApiTokenRecord | null | undefined {
    const version = this.host.pinnedNow();
    if (version === undefined) return undefined;
    const found = this.cache.tokenNow(digest, version);
    if (found !== undefined) this.host.recordAccess();
    return found;
  }

  /** A page of role grants, of those visible to the asker. */
  pageGrants(filter: GrantFilter, window: Window<string>): Promise<Page<GrantRecord>> {
    return this.host.read((reader) => reader.pageGrants(filter, window));
  }

  /** Grants by id. */
  grantsByIds(ids: readonly string[]): Promise<GrantRecord[]> {
    return this.host.read((reader) => reader.grantsByIds(ids));
  }

  /** API tokens by id, revoked or not. */
  apiTokensByIds(ids: readonly string[]): Promise<ApiTokenRecord[]> {
    return this.host.read((reader) => reader.apiTokensByIds(ids));
  }

  /** A page of API tokens, of those visible to the asker. */
  pageApiTokens(visible: AccessVisibility, window: Window<string>): Promise<Page<ApiTokenRecord>> {
    return this.host.read((reader) => reader.pageApiTokens(visible, window));
  }

  /** The API token a ref (id or name) names, revoked or not. */
  apiTokenByRef(ref: string): Promise<ApiTokenRecord | undefined> {
    return this.host.read((reader) => reader.apiTokenByRef(ref));
  }
}
