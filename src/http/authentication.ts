import { createHash, timingSafeEqual } from 'node:crypto';
import type { NamedToken } from '../config';
import type { Access } from '../graphql/context';

/** The actor of a change when no admin token is configured (development). */
export const ANONYMOUS = 'anonymous';

/**
 * Turns the Authorization header into an Access. With admin tokens
 * configured (ADMIN_TOKEN, ADMIN_TOKENS), only they may write, each as its
 * named actor; with READ_TOKEN set, reading needs it or an admin token.
 * Without any admin token (development only; production refuses to start)
 * anyone may write, as `anonymous`. Tokens are compared in constant time,
 * through their SHA-256 digests, against every configured token.
 */
export class TokenAuthenticator {
  private readonly admins: { name: string; digest: Buffer }[];
  private readonly read: Buffer | null;

  constructor(adminTokens: readonly NamedToken[], readToken: string | null) {
    this.admins = adminTokens.map((a) => ({ name: a.name, digest: digest(a.token) }));
    this.read = readToken ? digest(readToken) : null;
  }

  /** True when no admin token is configured: writes are open. */
  get openWrites(): boolean {
    return this.admins.length === 0;
  }

  authenticate(authorization: string | undefined): Access {
    const token = bearerToken(authorization);
    let presented: Access['presented'] = 'none';
    let actor = ANONYMOUS;
    if (token !== null) {
      const candidate = digest(token);
      // Compare against every token, always, so timing does not tell which one matched.
      let admin: string | null = null;
      for (const a of this.admins) if (timingSafeEqual(candidate, a.digest) && admin === null) admin = a.name;
      const isRead = this.read !== null && timingSafeEqual(candidate, this.read);
      presented = admin !== null ? 'admin' : isRead ? 'read' : 'invalid';
      if (admin !== null) actor = admin;
    }
    const canWrite = this.openWrites || presented === 'admin';
    const canRead = this.read === null || presented === 'admin' || presented === 'read';
    return { canRead, canWrite, presented, actor };
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match ? match[1] : '';
}
