import { createHash, timingSafeEqual } from 'node:crypto';
import type { Access } from '../graphql/context';

/**
 * Turns the Authorization header into an Access. With ADMIN_TOKEN set, only
 * it may write; with READ_TOKEN set, reading needs either token. Without
 * ADMIN_TOKEN (development only; production refuses to start) anyone may write.
 * Tokens are compared in constant time, through their SHA-256 digests.
 */
export class TokenAuthenticator {
  private readonly admin: Buffer | null;
  private readonly read: Buffer | null;

  constructor(adminToken: string | null, readToken: string | null) {
    this.admin = adminToken ? digest(adminToken) : null;
    this.read = readToken ? digest(readToken) : null;
  }

  /** True when no admin token is configured: writes are open. */
  get openWrites(): boolean {
    return this.admin === null;
  }

  authenticate(authorization: string | undefined): Access {
    const token = bearerToken(authorization);
    let presented: Access['presented'] = 'none';
    if (token !== null) {
      const candidate = digest(token);
      // Compare against both, always, so timing does not tell which one matched.
      const isAdmin = this.admin !== null && timingSafeEqual(candidate, this.admin);
      const isRead = this.read !== null && timingSafeEqual(candidate, this.read);
      presented = isAdmin ? 'admin' : isRead ? 'read' : 'invalid';
    }
    const canWrite = this.admin === null || presented === 'admin';
    const canRead = this.read === null || presented === 'admin' || presented === 'read';
    return { canRead, canWrite, presented };
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
