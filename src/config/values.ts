/** Parsers of single configuration values: each takes the text of a variable and gives its value, or a ConfigError naming it. */
import type { DatabaseConfig, NamedToken, OidcConfig } from './types';

/** Cache-Control of GET query answers unless HTTP_CACHE_CONTROL says otherwise: caches keep them, but ask again (ETag, 304) every time. */
export const DEFAULT_HTTP_CACHE_CONTROL = 'no-cache';

/** A configuration value that cannot be used. */
export class ConfigError extends Error {}

/** READ_AUTH: `open` (the default) or `required`. */
export function parseReadAuth(value: string | undefined): 'open' | 'required' {
  if (value === undefined || value === 'open') return 'open';
  if (value === 'required') return 'required';
  throw new ConfigError(`READ_AUTH must be open or required (got "${value}")`);
}

/** Names of the OIDC variables without a default other than OIDC_ISSUER, which mean nothing without it. */
const OIDC_DEPENDENT = ['OIDC_AUDIENCE', 'OIDC_JWKS_URL', 'OIDC_DASHBOARD_CLIENT_ID'] as const;

/** OIDC_*: sign-in is on when OIDC_ISSUER is set, and then OIDC_AUDIENCE is required. */
export function parseOidc(env: NodeJS.ProcessEnv, production: boolean): OidcConfig | null {
  const issuer = nonEmpty(env.OIDC_ISSUER);
  if (issuer === undefined) {
    const stray = OIDC_DEPENDENT.find((name) => nonEmpty(env[name]) !== undefined);
    if (stray) throw new ConfigError(`${stray} is set but OIDC_ISSUER is not: set the issuer too, or unset ${stray}`);
    return null;
  }
  const audience = nonEmpty(env.OIDC_AUDIENCE);
  if (audience === undefined) {
    throw new ConfigError('OIDC_AUDIENCE is required with OIDC_ISSUER (the audience tokens for this server carry)');
  }
  const jwksUrl = nonEmpty(env.OIDC_JWKS_URL) ?? null;
  return {
    issuer: parseProviderUrl('OIDC_ISSUER', issuer, production),
    audience,
    jwksUrl: jwksUrl === null ? null : parseProviderUrl('OIDC_JWKS_URL', jwksUrl, production),
    subjectClaim: parseClaimName('OIDC_SUBJECT_CLAIM', nonEmpty(env.OIDC_SUBJECT_CLAIM) ?? 'sub'),
    groupsClaim: parseClaimName('OIDC_GROUPS_CLAIM', nonEmpty(env.OIDC_GROUPS_CLAIM) ?? 'groups'),
    dashboardClientId: nonEmpty(env.OIDC_DASHBOARD_CLIENT_ID) ?? null,
  };
}

/** An identity provider's URL: https, or http on a loopback host or outside production. */
export function parseProviderUrl(name: string, value: string, production: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be a URL such as https://login.example.com (got ${JSON.stringify(value)})`);
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (loopback || !production))) {
    throw new ConfigError(`${name} must use https (http is allowed only on a loopback host, or outside production)`);
  }
  return value;
}

/** A claim name: letters, digits and `_ . : / -` (namespaced claims are URLs). */
export function parseClaimName(name: string, value: string): string {
  if (!/^[A-Za-z0-9_.:/-]{1,200}$/.test(value)) {
    throw new ConfigError(`${name} must be a claim name such as groups (got ${JSON.stringify(value)})`);
  }
  return value;
}

/** `name:token,name:token`: named admin tokens; a name is letters, digits, ".", "_" and "-". */
export function parseNamedTokens(value: string | undefined): NamedToken[] {
  if (value === undefined) return [];
  return value.split(',').map((entry, index) => {
    const colon = entry.indexOf(':');
    const name = colon < 0 ? '' : entry.slice(0, colon).trim();
    const token = colon < 0 ? '' : entry.slice(colon + 1).trim();
    if (!/^[A-Za-z0-9._-]{1,64}$/.test(name) || token === '' || /\s/.test(token)) {
      throw new ConfigError(
        `ADMIN_TOKENS entry ${index + 1} must be name:token (a name of letters, digits, ".", "_" and "-", then a token without spaces)`,
      );
    }
    return { name, token };
  });
}

/** `sqlite:<path>`, `sqlite::memory:`, or a `postgres://` / `postgresql://` URL. */
export function parseDatabaseUrl(url: string): DatabaseConfig {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path === '')
      throw new ConfigError(
        'DATABASE_URL "sqlite:" needs a file path, e.g. sqlite:./data/registry.sqlite, or sqlite::memory:',
      );
    return { kind: 'sqlite', path };
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    try {
      new URL(url);
    } catch {
      throw new ConfigError('DATABASE_URL is not a valid postgres:// URL');
    }
    return { kind: 'postgres', url };
  }
  throw new ConfigError('DATABASE_URL must start with sqlite: or postgres:// (got an unsupported scheme)');
}

/** `https://app.example.com,http://localhost:5173`: origins only (scheme, host and port), as browsers send them. */
export function parseOrigins(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry, index) => {
      let origin: string | null = null;
      try {
        const url = new URL(entry);
        if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
      } catch {
        // reported below
      }
      if (origin !== entry) {
        throw new ConfigError(
          `CORS_ORIGINS entry ${index + 1} must be an origin such as https://app.example.com: http or https, host and port, no path or trailing slash (got ${JSON.stringify(entry)})`,
        );
      }
      return origin;
    });
}

/** A Cache-Control value: comma-separated directives, each a name with an optional `=value` (token or quoted). */
export function parseCacheControl(value: string | undefined): string {
  if (value === undefined) return DEFAULT_HTTP_CACHE_CONTROL;
  const directive = /^[A-Za-z][A-Za-z-]*(=([A-Za-z0-9-]+|"[\x20-\x21\x23-\x7e]*"))?$/;
  const directives = value.split(',').map((d) => d.trim());
  if (value.length > 200 || !directives.every((d) => directive.test(d))) {
    throw new ConfigError(
      `HTTP_CACHE_CONTROL must be a Cache-Control value such as no-cache or "private, max-age=60" (got ${JSON.stringify(value)})`,
    );
  }
  return directives.join(', ');
}

export function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 4000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`PORT must be an integer from 0 to 65535 (got "${value}")`);
  return port;
}

/** A whole number from `min` to `max`. */
export function count(min: number, max: number) {
  return (value: string | undefined, name: string): number => {
    const number = Number(value);
    if (value === undefined || !Number.isInteger(number) || number < min || number > max) {
      throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${value}")`);
    }
    return number;
  };
}

export function parseBoolean(value: string | undefined, name: string): boolean {
  const lowered = (value ?? '').toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(lowered)) return true;
  if (['0', 'false', 'no', 'off'].includes(lowered)) return false;
  throw new ConfigError(`${name} must be true or false (got "${value}")`);
}

/** One of a few words. */
export function oneOf<T extends string>(values: readonly T[]) {
  return (value: string | undefined, name: string): T => {
    if (!values.includes(value as T))
      throw new ConfigError(`${name} must be one of ${values.join(', ')} (got "${value}")`);
    return value as T;
  };
}

/** Any text (a variable with a default always has one). */
export function anyText(value: string | undefined): string {
  return value ?? '';
}

/** Any text, or null when unset. */
export function optionalText(value: string | undefined): string | null {
  return value ?? null;
}

export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
