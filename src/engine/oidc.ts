import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import type { OidcConfig } from '../config';
import { checkPrincipal } from '../core/access';

/** Only asymmetric signatures: `none` and every HS* (an HMAC keyed with a public key) are refused. */
export const JWT_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'];

/** Seconds of clock skew allowed on `exp` and `nbf`. */
export const CLOCK_TOLERANCE_SECONDS = 30;

/** How long a fetch of the discovery document or the keys may take. */
const FETCH_TIMEOUT_MS = 5_000;

/** How many verified tokens are remembered (each until it expires). */
const VERIFIED_KEPT = 10_000;

/** Most groups taken from one token. */
const MAX_GROUPS = 200;

/** A verified token's user: its subject and its groups. */
export interface VerifiedUser {
  readonly subject: string;
  readonly groups: readonly string[];
}

/** A JWT that does not check out, and which check failed, in a few words. */
export interface JwtFailure {
  readonly failure: string;
}

/**
 * Verifies bearer JWTs from one OpenID Connect issuer (jose): the signature
 * against the issuer's JWKS (fetched on first use, from OIDC_JWKS_URL or the
 * discovery document, kept, and fetched again for an unknown key id: key
 * rotation needs no restart), `iss`, `aud`, `exp` (required) and `nbf` with
 * 30 s of leeway, and only RS256, ES256 or EdDSA. A verified token is
 * remembered, by its SHA-256, until it expires, so a client that sends the
 * same token on every request is verified once. The token itself is never
 * logged or echoed; a failure says which check failed.
 */
export class OidcVerifier {
  private keys: Promise<JWTVerifyGetKey> | null = null;
  private readonly verified = new LRUCache<string, { user: VerifiedUser; until: number }>({ max: VERIFIED_KEPT });

  constructor(
    private readonly config: OidcConfig,
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  /** True when a bearer has the shape of a JWT (three base64url parts), so it is worth verifying. */
  static looksLikeJwt(token: string): boolean {
    return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
  }

  /** The user of a valid token (at once, for a token verified before), or which check failed. */
  verify(token: string): VerifiedUser | Promise<VerifiedUser | JwtFailure> {
    const key = createHash('sha256').update(token).digest('base64url');
    const kept = this.verified.get(key);
    if (kept && Date.now() < kept.until) return kept.user;
    return this.verifyAnew(token, key);
  }

  private async verifyAnew(token: string, key: string): Promise<VerifiedUser | JwtFailure> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await this.signingKeys(), {
        issuer: this.config.issuer,
        audience: this.config.audience,
        algorithms: JWT_ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      return { failure: this.describe(error) };
    }
    const user = this.userOf(payload);
    if ('failure' in user) return user;
    this.verified.set(key, { user, until: (payload.exp! + CLOCK_TOLERANCE_SECONDS) * 1000 });
    return user;
  }

  /** The subject and groups from the configured claims, or why they do not make a principal. */
  private userOf(payload: JWTPayload): VerifiedUser | JwtFailure {
    const subject = payload[this.config.subjectClaim];
    if (typeof subject !== 'string' || subject === '') {
      return { failure: `the token has no ${this.config.subjectClaim} claim naming the user` };
    }
    if (checkPrincipal(`user:${subject}`) !== null) {
      return {
        failure: `the token's ${this.config.subjectClaim} claim is not a usable user name (too long, or control characters)`,
      };
    }
    const claimed = payload[this.config.groupsClaim];
    const names = Array.isArray(claimed) ? claimed : typeof claimed === 'string' ? [claimed] : [];
    const groups = names
      .filter((name): name is string => typeof name === 'string' && checkPrincipal(`group:${name}`) === null)
      .slice(0, MAX_GROUPS)
      .map((name) => `group:${name}`);
    return { subject, groups };
  }

  /** Which check failed, in a few words (never the token). */
  private describe(error: unknown): string {
    if (error instanceof errors.JWTExpired) return 'the token expired';
    if (error instanceof errors.JWTClaimValidationFailed) {
      if (error.claim === 'aud') return `wrong audience: the token is not for ${this.config.audience}`;
      if (error.claim === 'iss') return 'wrong issuer';
      if (error.claim === 'nbf') return 'the token is not valid yet (nbf)';
      if (error.claim === 'exp') return 'the token has no expiry (exp)';
      return `the token's ${error.claim} claim failed its check`;
    }
    if (error instanceof errors.JOSEAlgNotAllowed) {
      return `signing algorithm not allowed (only ${JWT_ALGORITHMS.join(', ')})`;
    }
    if (error instanceof errors.JWKSNoMatchingKey) return 'unknown signing key';
    if (error instanceof errors.JWKSMultipleMatchingKeys) return 'ambiguous signing key';
    if (error instanceof errors.JWSSignatureVerificationFailed) return 'bad signature';
    if (
      error instanceof errors.JWSInvalid ||
      error instanceof errors.JWTInvalid ||
      error instanceof errors.JOSENotSupported
    ) {
      return 'malformed token';
    }
    // The keys could not be had (the provider is down or answers nonsense): not the client's fault, and retried.
    this.warn(`could not verify a token: ${error instanceof Error ? error.message : String(error)}`);
    return "the issuer's signing keys could not be fetched; try again shortly";
  }

  /** The issuer's keys: from OIDC_JWKS_URL, or the discovery document's jwks_uri; fetched again after a failure. */
  private signingKeys(): Promise<JWTVerifyGetKey> {
    this.keys ??= this.jwksUrl().then(
      (url) =>
        createRemoteJWKSet(url, {
          timeoutDuration: FETCH_TIMEOUT_MS,
          ...(this.config.jwksCooldownMs === undefined ? {} : { cooldownDuration: this.config.jwksCooldownMs }),
        }),
      (error: unknown) => {
        this.keys = null;
        throw error;
      },
    );
    return this.keys;
  }

  private async jwksUrl(): Promise<URL> {
    if (this.config.jwksUrl) return new URL(this.config.jwksUrl);
    const discovery = `${this.config.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const response = await fetch(discovery, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`the discovery document answered HTTP ${response.status}`);
    const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (document.issuer !== this.config.issuer) {
      throw new Error(`the discovery document names issuer ${String(document.issuer)}, not OIDC_ISSUER`);
    }
    if (typeof document.jwks_uri !== 'string') throw new Error('the discovery document has no jwks_uri');
    return new URL(document.jwks_uri);
  }
}
