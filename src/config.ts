/**
 * Configuration, read from the environment once and checked here. A bad value
 * is a ConfigError with a one-line message that names the variable.
 */

/** Where the registry is stored. */
export type DatabaseConfig =
  { readonly kind: 'sqlite'; readonly path: string } | { readonly kind: 'postgres'; readonly url: string };

/** Everything the server reads from its environment. */
export interface AppConfig {
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseConfig;
  /** Token that may run every operation, as actor `admin`. Without any admin token (development only) writes are open. */
  readonly adminToken: string | null;
  /** More admin tokens, each with the name the change log records as its actor (ADMIN_TOKENS="ci:<token>,alice:<token>"). */
  readonly adminTokens?: readonly NamedToken[];
  /** Token that may run queries; when set, queries need it or the admin token. */
  readonly readToken: string | null;
  /** Load the seed's example registry into a new, empty database. */
  readonly demoData: boolean;
  readonly production: boolean;
  readonly logLevel: string;
  readonly introspection: boolean;
  /** Keep whole responses to read-only operations, per registry version (RESPONSE_CACHE, default on). */
  readonly responseCache: boolean;
  /**
   * Keep registry records in memory across versions, each checked against the writes since it was read
   * (RECORD_CACHE, default on; absent means on). Off: every request reads its records from the database.
   */
  readonly recordCache?: boolean;
  /** Run queries as compiled code (graphql-jit) instead of graphql-js (COMPILED_EXECUTION, default on; absent means on). */
  readonly compiledExecution?: boolean;
  /**
   * Answer a POSTed query that is already compiled without Apollo's request pipeline, when it succeeds
   * (DIRECT_EXECUTION, default on; absent means on; see src/http/direct-execution.ts).
   */
  readonly directExecution?: boolean;
  /** How many changes a subscriber may have waiting before it is dropped as too slow (SUBSCRIPTION_QUEUE, default 1000). */
  readonly subscriptionQueue?: number;
  /** Count SQL statements and expose the count at /debug/sql-stats (benchmarks only). */
  readonly countSql: boolean;
  /**
   * Benchmarks only (BENCH_FREE_READS): answer a repeated read statement from memory, so that data access costs
   * nothing and the benchmark can show the headroom left above it. Never sees writes; read-only loads only.
   */
  readonly benchFreeReads?: boolean;
  /** Browser origins allowed to call the API from another origin (CORS_ORIGINS; default none: no CORS headers). */
  readonly corsOrigins?: readonly string[];
  /** The Cache-Control header of a successful GET query answer (HTTP_CACHE_CONTROL, default `no-cache`). */
  readonly httpCacheControl?: string;
  /** READ_AUTH: `required` makes every read need an authenticated principal, as READ_TOKEN does (default `open`; absent means open). */
  readonly readAuth?: 'open' | 'required';
  /** Sign-in with OpenID Connect: bearer JWTs of this issuer are users (OIDC_*; absent or null: none). */
  readonly oidc?: OidcConfig | null;
}

/** How bearer JWTs are verified (docs/security.md). */
export interface OidcConfig {
  /** OIDC_ISSUER: `iss` must equal it; its discovery document gives the JWKS unless jwksUrl is set. */
  readonly issuer: string;
  /** OIDC_AUDIENCE: `aud` must contain it. */
  readonly audience: string;
  /** OIDC_JWKS_URL: where the signing keys are; null: from `${issuer}/.well-known/openid-configuration`. */
  readonly jwksUrl: string | null;
  /** OIDC_SUBJECT_CLAIM (default `sub`): the claim that names the user, `user:<it>`. */
  readonly subjectClaim: string;
  /** OIDC_GROUPS_CLAIM (default `groups`): the claim listing the user's groups, each `group:<name>`. */
  readonly groupsClaim: string;
  /** OIDC_DASHBOARD_CLIENT_ID: the public client the dashboard signs in with (authorization code + PKCE); null: none. */
  readonly dashboardClientId: string | null;
  /** Tests only: how long an unknown signing key waits before the keys are fetched again (jose's default, 30 s). */
  readonly jwksCooldownMs?: number;
}

/** Cache-Control of GET query answers unless HTTP_CACHE_CONTROL says otherwise: caches keep them, but ask again (ETag, 304) every time. */
export const DEFAULT_HTTP_CACHE_CONTROL = 'no-cache';

/** An admin token and the actor name it stands for. */
export interface NamedToken {
  readonly name: string;
  readonly token: string;
}

/** Every admin token: ADMIN_TOKEN as `admin`, then ADMIN_TOKENS. */
export function adminTokensOf(config: Pick<AppConfig, 'adminToken' | 'adminTokens'>): NamedToken[] {
  return [...(config.adminToken ? [{ name: 'admin', token: config.adminToken }] : []), ...(config.adminTokens ?? [])];
}

/** A configuration value that cannot be used. */
export class ConfigError extends Error {}

const DEFAULT_DATABASE_URL = 'sqlite:./data/registry.sqlite';
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Parses and checks the environment. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return checkConfig({
    port: parsePort(env.PORT),
    host: nonEmpty(env.HOST) ?? '127.0.0.1',
    database: parseDatabaseUrl(nonEmpty(env.DATABASE_URL) ?? DEFAULT_DATABASE_URL),
    adminToken: nonEmpty(env.ADMIN_TOKEN) ?? null,
    adminTokens: parseNamedTokens(nonEmpty(env.ADMIN_TOKENS)),
    readToken: nonEmpty(env.READ_TOKEN) ?? null,
    demoData: parseBoolean('DEMO_DATA', env.DEMO_DATA, true),
    production: env.NODE_ENV === 'production',
    logLevel: parseLogLevel(env.LOG_LEVEL),
    introspection: parseBoolean('INTROSPECTION', env.INTROSPECTION, true),
    countSql: parseBoolean('BENCH_COUNT_SQL', env.BENCH_COUNT_SQL, false),
    benchFreeReads: parseBoolean('BENCH_FREE_READS', env.BENCH_FREE_READS, false),
    responseCache: parseBoolean('RESPONSE_CACHE', env.RESPONSE_CACHE, true),
    recordCache: parseBoolean('RECORD_CACHE', env.RECORD_CACHE, true),
    compiledExecution: parseBoolean('COMPILED_EXECUTION', env.COMPILED_EXECUTION, true),
    directExecution: parseBoolean('DIRECT_EXECUTION', env.DIRECT_EXECUTION, true),
    subscriptionQueue: parseCount('SUBSCRIPTION_QUEUE', env.SUBSCRIPTION_QUEUE, 1000),
    corsOrigins: parseOrigins(nonEmpty(env.CORS_ORIGINS)),
    httpCacheControl: parseCacheControl(nonEmpty(env.HTTP_CACHE_CONTROL)),
    readAuth: parseReadAuth(nonEmpty(env.READ_AUTH)),
    oidc: parseOidc(env, env.NODE_ENV === 'production'),
  });
}

/** READ_AUTH: `open` (the default) or `required`. */
function parseReadAuth(value: string | undefined): 'open' | 'required' {
  if (value === undefined || value === 'open') return 'open';
  if (value === 'required') return 'required';
  throw new ConfigError(`READ_AUTH must be open or required (got "${value}")`);
}

/** Names of the OIDC variables other than OIDC_ISSUER, which mean nothing without it. */
const OIDC_DEPENDENT = [
  'OIDC_AUDIENCE',
  'OIDC_JWKS_URL',
  'OIDC_SUBJECT_CLAIM',
  'OIDC_GROUPS_CLAIM',
  'OIDC_DASHBOARD_CLIENT_ID',
] as const;

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
function parseProviderUrl(name: string, value: string, production: boolean): string {
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
function parseClaimName(name: string, value: string): string {
  if (!/^[A-Za-z0-9_.:/-]{1,200}$/.test(value)) {
    throw new ConfigError(`${name} must be a claim name such as groups (got ${JSON.stringify(value)})`);
  }
  return value;
}

/** Minimum length of a token in production, so a guessable one is refused. */
export const MIN_PRODUCTION_TOKEN_LENGTH = 16;

/** Rules across values: production needs a strong admin token; every token is distinct, every name too. */
export function checkConfig(config: AppConfig): AppConfig {
  const admins = adminTokensOf(config);
  if (config.production) {
    if (admins.length === 0) {
      throw new ConfigError(
        'ADMIN_TOKEN is required when NODE_ENV=production (without it anyone could change the registry)',
      );
    }
    const tokens: [string, string | null][] = [
      ...admins.map((a, i): [string, string] => [
        i === 0 && config.adminToken !== null ? 'ADMIN_TOKEN' : `ADMIN_TOKENS (${a.name})`,
        a.token,
      ]),
      ['READ_TOKEN', config.readToken],
    ];
    for (const [name, token] of tokens) {
      if (token !== null && token.length < MIN_PRODUCTION_TOKEN_LENGTH) {
        throw new ConfigError(
          `${name} must be at least ${MIN_PRODUCTION_TOKEN_LENGTH} characters when NODE_ENV=production`,
        );
      }
    }
  }
  const names = new Set<string>();
  const tokens = new Set<string>();
  for (const admin of admins) {
    if (names.has(admin.name)) {
      throw new ConfigError(
        admin.name === 'admin'
          ? "ADMIN_TOKENS names a token 'admin', the name ADMIN_TOKEN already has"
          : `ADMIN_TOKENS names '${admin.name}' twice`,
      );
    }
    if (tokens.has(admin.token)) {
      throw new ConfigError(`ADMIN_TOKENS gives '${admin.name}' a token another admin already has`);
    }
    names.add(admin.name);
    tokens.add(admin.token);
  }
  if (config.readToken !== null && tokens.has(config.readToken)) {
    throw new ConfigError(
      config.adminTokens?.length
        ? 'READ_TOKEN must differ from every admin token'
        : 'READ_TOKEN must differ from ADMIN_TOKEN',
    );
  }
  return config;
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
function parseCacheControl(value: string | undefined): string {
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

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 4000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`PORT must be an integer from 0 to 65535 (got "${value}")`);
  return port;
}

function parseCount(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > 1_000_000) {
    throw new ConfigError(`${name} must be a whole number from 1 to 1000000 (got "${value}")`);
  }
  return count;
}

function parseBoolean(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  const lowered = value.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(lowered)) return true;
  if (['0', 'false', 'no', 'off'].includes(lowered)) return false;
  throw new ConfigError(`${name} must be true or false (got "${value}")`);
}

function parseLogLevel(value: string | undefined): string {
  if (value === undefined || value === '') return 'info';
  if (!LOG_LEVELS.includes(value))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${value}")`);
  return value;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
