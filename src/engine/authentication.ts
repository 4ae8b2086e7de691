import { createHash, timingSafeEqual } from 'node:crypto';
import type { AccessService, TokenAuthentication } from '../application/access.service';
import { SECRET_PREFIX } from '../application/access.service';
import type { ReadSession } from '../application/versioning';
import type { NamedToken, OidcConfig } from '../config';
import { ownerOfEverything, tokenPrincipal, type Principal } from '../core/access';
import type { Access } from '../graphql/context';
import { OidcVerifier, type JwtFailure, type VerifiedUser } from './oidc';

/** The actor of a change when no admin token is configured (open development mode). */
export const ANONYMOUS = 'anonymous';

/** The name READ_TOKEN stands for: principal `token:read`, which reads and nothing else. */
export const READ_TOKEN_NAME = 'read';

/** What authentication is configured with. */
export interface AuthenticationConfig {
  /** ADMIN_TOKEN (as `admin`) and ADMIN_TOKENS: each principal `token:<name>`, OWNER on `*`. */
  readonly adminTokens: readonly NamedToken[];
  readonly readToken: string | null;
  /** READ_AUTH=required: reads need a principal, as with READ_TOKEN. */
  readonly readAuth: 'open' | 'required';
  readonly oidc: OidcConfig | null;
}

/**
 * The one entry point from an Authorization header to who makes a request
 * (an Access with its principal):
 * - no header: nobody, or `anonymous` holding OWNER on `*` in open
 *   development mode (no admin token configured; production refuses to start
 *   that way);
 * - `Bearer <token>`: an admin token (ADMIN_TOKEN, ADMIN_TOKENS: `token:<name>`,
 *   OWNER on `*`) or READ_TOKEN (`token:read`, reads only), compared in
 *   constant time through their SHA-256 digests against every configured
 *   token; else an API token made in the registry (`trg_…`: `token:<name>`
 *   with its grants); else, with OIDC_ISSUER set, a signed-in user's JWT
 *   (`user:<subject>`, with `group:<name>` for each of its groups);
 * - anything else is refused (UNAUTHENTICATED, HTTP 401, saying which check
 *   failed and never echoing the token).
 * The static tokens and no token are answered at once, with no promise; an
 * API token or a JWT is looked up (both are kept across requests: see
 * AccessCache and OidcVerifier), so then the answer is a promise.
 */
export class Authenticator {
  private readonly admins: { name: string; digest: Buffer }[];
  private readonly read: Buffer | null;
  private readonly readsNeedAuth: boolean;
  private readonly oidc: OidcVerifier | null;
  private readonly anonymous: Access;
  private readonly nobody: Access;
  private readonly reader: Access;
  private readonly adminAccess = new Map<string, Access>();

  constructor(
    config: AuthenticationConfig,
    private readonly access: AccessService,
    warn: (message: string) => void = () => undefined,
  ) {
    this.admins = config.adminTokens.map((a) => ({ name: a.name, digest: digest(a.token) }));
    this.read = config.readToken ? digest(config.readToken) : null;
    this.readsNeedAuth = this.read !== null || config.readAuth === 'required';
    this.oidc = config.oidc ? new OidcVerifier(config.oidc, warn) : null;
    const canRead = !this.readsNeedAuth;
    this.anonymous = { canRead, presented: 'none', principal: ownerOfEverything(ANONYMOUS), failure: null };
    this.nobody = { canRead, presented: 'none', principal: null, failure: null };
    this.reader = {
      canRead: true,
      presented: 'read',
      principal: { id: tokenPrincipal(READ_TOKEN_NAME), groups: [], builtIn: [], apiToken: null },
      failure: null,
    };
    for (const { name } of this.admins) {
      this.adminAccess.set(name, {
        canRead: true,
        presented: 'admin',
        principal: ownerOfEverything(tokenPrincipal(name)),
        failure: null,
      });
    }
  }

  /** True when no admin token is configured: writes are open to anyone, as `anonymous`. */
  get openWrites(): boolean {
    return this.admins.length === 0;
  }

  /** The names of the tokens configured here (admin, ADMIN_TOKENS', read): no API token may take them. */
  static tokenNames(config: Pick<AuthenticationConfig, 'adminTokens'>): string[] {
    return [...config.adminTokens.map((a) => a.name), READ_TOKEN_NAME];
  }

  /** Who makes a request with this Authorization header; `session` reads API tokens at the request's version. */
  authenticate(authorization: string | undefined, session: ReadSession): Access | Promise<Access> {
    if (!authorization) return this.openWrites ? this.anonymous : this.nobody;
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    if (!match) return refused('the Authorization header must be "Bearer <token>"');
    const token = match[1];
    const candidate = digest(token);
    // Compare against every configured token, always, so timing does not tell which one matched.
    let admin: string | null = null;
    for (const a of this.admins) if (timingSafeEqual(candidate, a.digest) && admin === null) admin = a.name;
    const isRead = this.read !== null && timingSafeEqual(candidate, this.read);
    if (admin !== null) return this.adminAccess.get(admin)!;
    if (isRead) return this.reader;
    if (token.startsWith(SECRET_PREFIX)) return this.apiToken(token, session);
    if (this.oidc && OidcVerifier.looksLikeJwt(token)) return this.user(this.oidc, token);
    return refused(
      this.oidc
        ? "the token is none of this server's: not a configured token, an API token (trg_…) or a JWT"
        : "the token is none of this server's: not a configured token or an API token (trg_…)",
    );
  }

  /** An API token: at once when it is known at the request's version, else after its lookup. */
  private apiToken(secret: string, session: ReadSession): Access | Promise<Access> {
    const found = this.access.authenticateToken(secret, session);
    return found instanceof Promise ? found.then(tokenAccess) : tokenAccess(found);
  }

  /** A signed-in user: at once for a token verified before, else after its verification. */
  private user(oidc: OidcVerifier, token: string): Access | Promise<Access> {
    const verified = oidc.verify(token);
    return verified instanceof Promise ? verified.then(userAccess) : userAccess(verified);
  }
}

/** The Access of an API token, or of a refused one. */
function tokenAccess(found: TokenAuthentication): Access {
  if ('failure' in found) return refused(found.failure);
  return { canRead: true, presented: 'token', principal: found.principal, failure: null };
}

/** The Access of a verified user's token, or of a refused one. */
function userAccess(verified: VerifiedUser | JwtFailure): Access {
  if ('failure' in verified) return refused(verified.failure);
  const principal: Principal = { id: `user:${verified.subject}`, groups: verified.groups, builtIn: [], apiToken: null };
  return { canRead: true, presented: 'user', principal, failure: null };
}

/** A refused credential: it may do nothing, not even read (401). */
function refused(failure: string): Access {
  return { canRead: false, presented: 'invalid', principal: null, failure };
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
