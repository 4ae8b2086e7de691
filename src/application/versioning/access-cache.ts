import { LRUCache } from 'lru-cache';
import type { ApiTokenRecord, GrantRecord } from '../../persistence/records';
import type { RegistryReader } from '../../persistence/registry-reader';
import type { ChangeIndex } from './change-index';
import { DEPENDS } from './dependencies';

/** How many principals' grants, and how many token digests, are kept. */
const KEPT = 10_000;

/** A value read at a registry version. */
interface Kept<T> {
  readonly version: number;
  readonly value: T;
}

/**
 * Grants and API tokens as authentication and authorization read them on
 * every request, kept across requests. Each answer is kept with the registry
 * version it was read at, and served at a later version only while no write
 * since touched access (the change index's `access` key, which every grant
 * and token change touches: this instance's writes as they commit, another
 * instance's from the change log as soon as a request sees its version).
 * Every request reads the version anyway, so a token revoked on one instance
 * is refused on every other at its next request, with no timer and no
 * extra statement while nothing changes.
 */
export class AccessCache {
  private readonly grants = new LRUCache<string, Kept<GrantRecord[]>>({ max: KEPT });
  /** By the SHA-256 of the secret; null: no token has it (so a wrong token repeated costs one read per access change). */
  private readonly tokens = new LRUCache<string, Kept<ApiTokenRecord | null>>({ max: KEPT });

  constructor(
    private readonly reader: RegistryReader,
    private readonly changes: ChangeIndex,
  ) {}

  /** Every grant held by these principals, right at `version`. */
  grantsOf(principals: readonly string[], version: number): Promise<GrantRecord[]> {
    const key = principals.join('\n');
    return this.through(this.grants, key, version, () => this.reader.grantsOf(principals));
  }

  /** The API token with this secret digest (hex), or null, right at `version`. */
  async tokenByDigest(digest: string, version: number): Promise<ApiTokenRecord | null> {
    return this.through(this.tokens, digest, version, async () => (await this.reader.apiTokenByDigest(digest)) ?? null);
  }

  /** The API token with this digest, or null, when it is kept right at `version` and the index vouches for it without a read; else undefined. */
  tokenNow(digest: string, version: number): ApiTokenRecord | null | undefined {
    const kept = this.tokens.get(digest);
    if (!kept || kept.version > version || !this.changes.unchangedSinceKnown(kept.version, ACCESS, version)) {
      return undefined;
    }
    return kept.value;
  }

  private async through<T>(cache: LRUCache<string, Kept<T>>, key: string, version: number, read: () => Promise<T>) {
    const kept = cache.get(key);
    if (kept && kept.version <= version && (await this.changes.unchangedSince(kept.version, ACCESS, version))) {
      return kept.value;
    }
    const value = await read();
    cache.set(key, { version, value });
    return value;
  }
}

const ACCESS = [DEPENDS.access];
