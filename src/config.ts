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
  /** How operations run (EXECUTION, default `fast`): see EXECUTION_MODES. */
  readonly execution: ExecutionMode;
  /** Keep whole responses to read-only operations, per registry version (RESPONSE_CACHE, default on). */
  readonly responseCache: boolean;
  /**
   * Keep the registry's records in memory across requests, each checked against the writes since it was read: the
   * record cache, and the lists of every tool's, project's and resource's name (RECORD_CACHE, default on). Off:
   * every request reads its records and names from the database. Page assembly does not depend on it (EXECUTION).
   */
  readonly recordCache: boolean;
  /** Live subscriptions one WebSocket may hold at once (WS_MAX_SUBSCRIPTIONS_PER_CONNECTION, default 100). */
  readonly maxSubscriptionsPerConnection?: number;
  /** Live subscriptions this process serves at once, over every transport (WS_MAX_SUBSCRIPTIONS, default 10000). */
  readonly maxSubscriptions?: number;
  /** Browser origins allowed to call the API from another origin (CORS_ORIGINS; default none: no CORS headers). */
  readonly corsOrigins?: readonly string[];
  /** The Cache-Control header of a successful GET query answer (HTTP_CACHE_CONTROL, default `no-cache`). */
  readonly httpCacheControl?: string;
  /** Milliseconds a request's body may take to arrive before it is answered 408 (BODY_TIMEOUT_MS, default 30,000). */
  readonly bodyTimeoutMs?: number;
}

/** How many live subscriptions a connection, and the whole process, may hold unless configured otherwise. */
export const DEFAULT_SUBSCRIPTION_LIMITS = { perConnection: 100, total: 10_000 } as const;

/** How long a request body may take to arrive unless BODY_TIMEOUT_MS says otherwise. */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

/**
 * The two engines (EXECUTION). `fast`: the project's engine, every query's
 * answer the same as `reference`'s, only sooner: queries compiled with
 * graphql-jit, pages assembled from kept parts, field resolvers called
 * without type-graphql's per-call wrapper, and a compiled query that succeeds
 * answered past Apollo's request pipeline. `reference`: graphql-js through
 * Apollo, with none of those (the caches keep their own switches).
 */
export const EXECUTION_MODES = ['fast', 'reference'] as const;
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

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
    execution: parseExecution(env),
    responseCache: parseBoolean('RESPONSE_CACHE', env.RESPONSE_CACHE, true),
    recordCache: parseBoolean('RECORD_CACHE', env.RECORD_CACHE, true),
    maxSubscriptionsPerConnection: parseCount(
      'WS_MAX_SUBSCRIPTIONS_PER_CONNECTION',
      env.WS_MAX_SUBSCRIPTIONS_PER_CONNECTION,
      DEFAULT_SUBSCRIPTION_LIMITS.perConnection,
    ),
    maxSubscriptions: parseCount('WS_MAX_SUBSCRIPTIONS', env.WS_MAX_SUBSCRIPTIONS, DEFAULT_SUBSCRIPTION_LIMITS.total),
    corsOrigins: parseOrigins(nonEmpty(env.CORS_ORIGINS)),
    httpCacheControl: parseCacheControl(nonEmpty(env.HTTP_CACHE_CONTROL)),
    bodyTimeoutMs: parseCount('BODY_TIMEOUT_MS', env.BODY_TIMEOUT_MS, DEFAULT_BODY_TIMEOUT_MS),
  });
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

/** EXECUTION; the switches it replaced are refused with what to set instead, rather than silently ignored. */
function parseExecution(env: NodeJS.ProcessEnv): ExecutionMode {
  for (const replaced of ['COMPILED_EXECUTION', 'DIRECT_EXECUTION']) {
    if (nonEmpty(env[replaced]) !== undefined) {
      throw new ConfigError(
        `${replaced} is replaced by EXECUTION: fast (the default) or reference (graphql-js through Apollo); unset ${replaced}`,
      );
    }
  }
  const value = nonEmpty(env.EXECUTION);
  if (value === undefined) return 'fast';
  const mode = EXECUTION_MODES.find((m) => m === value.toLowerCase());
  if (!mode) throw new ConfigError(`EXECUTION must be one of ${EXECUTION_MODES.join(', ')} (got "${value}")`);
  return mode;
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
