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
   * Keep the registry's records in memory across requests, each checked against the writes since it was read: the
   * record cache, and the lists of every tool's, project's and resource's name (RECORD_CACHE, default on). Off:
   * every request reads its records and names from the database. Page assembly does not depend on it (EXECUTION).
   */
  readonly recordCache: boolean;
  /** Which engine runs queries (EXECUTION, default fast): see EXECUTION_MODES. */
  readonly execution: ExecutionMode;
  /** Live subscriptions one WebSocket may hold at once (WS_MAX_SUBSCRIPTIONS_PER_CONNECTION, default 100). */
  readonly maxSubscriptionsPerConnection?: number;
  /** Live subscriptions this process serves at once, over every transport (WS_MAX_SUBSCRIPTIONS, default 10000). */
  readonly maxSubscriptions?: number;
  /** Browser origins allowed to call the API from another origin (CORS_ORIGINS; default none: no CORS headers). */
  readonly corsOrigins?: readonly string[];
  /** The Cache-Control header of a successful GET query answer (HTTP_CACHE_CONTROL, default `no-cache`). */
  readonly httpCacheControl?: string;
  /** How log lines look (LOG_FORMAT, default auto: pretty on a terminal, else JSON). */
  readonly logFormat?: LogFormat;
  /** Prometheus metrics at GET /metrics (METRICS, default off). */
  readonly metrics?: boolean;
  /** The bearer token GET /metrics needs, when set (METRICS_TOKEN). */
  readonly metricsToken?: string | null;
  /** Where traces go over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT); none: tracing is off and its SDK is never loaded. */
  readonly tracingEndpoint?: string | null;
  /** How long a shutdown waits for requests in flight (SHUTDOWN_GRACE_MS, default 10 s). */
  readonly shutdownGraceMs?: number;
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

/** Variables an earlier version read, and what replaced each: a start that still sets one is refused, saying so. */
const RETIRED_VARIABLES: Readonly<Record<string, string>> = {
  COMPILED_EXECUTION: 'EXECUTION: fast (the default) or reference (graphql-js through Apollo)',
  DIRECT_EXECUTION: 'EXECUTION: fast (the default) or reference (graphql-js through Apollo)',
  BENCH_COUNT_SQL: 'nothing: the benchmark starts its own server entry (scripts/bench/server-main.ts)',
  BENCH_FREE_READS: 'nothing: the benchmark starts its own server entry (scripts/bench/server-main.ts)',
  SUBSCRIPTION_QUEUE: 'nothing: a subscriber that does not read is sent nothing more until it does',
};

/** How long a shutdown waits for requests in flight unless SHUTDOWN_GRACE_MS says otherwise. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

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
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;

/** How log lines are written: JSON, one readable line per request, or pretty when stdout is a terminal. */
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * One environment variable, declared once: its name, its default as the docs
 * write it (null: unset), a one-line description (--help prints it), and its
 * parser, which gets the value, or the default when it is unset or blank, and
 * throws a ConfigError naming the variable.
 */
export interface Variable<T> {
  readonly name: string;
  readonly default: string | null;
  readonly description: string;
  readonly parse: (value: string | undefined, name: string) => T;
}

function variable<T>(
  name: string,
  defaultValue: string | null,
  description: string,
  parse: (value: string | undefined, name: string) => T,
): Variable<T> {
  return { name, default: defaultValue, description, parse };
}

/**
 * Every variable the server reads, in the order --help lists them, keyed by
 * the AppConfig field it fills. The README's configuration table is checked
 * against this list (test/unit/config.test.ts).
 */
export const VARIABLES = {
  port: variable('PORT', '4000', 'HTTP port (0: any free port)', parsePort),
  host: variable('HOST', '127.0.0.1', 'Address to listen on (0.0.0.0 for all interfaces)', anyText),
  database: variable(
    'DATABASE_URL',
    DEFAULT_DATABASE_URL,
    'sqlite:<path>, sqlite::memory:, or postgres://...',
    (value) => parseDatabaseUrl(value ?? DEFAULT_DATABASE_URL),
  ),
  demoData: variable('DEMO_DATA', 'true', "Load the seed's example into a new database", parseBoolean),
  adminToken: variable('ADMIN_TOKEN', null, 'The token that may change the registry, as actor admin', optionalText),
  adminTokens: variable('ADMIN_TOKENS', null, 'More admin tokens, named for the change log: name:token,...', (v) =>
    parseNamedTokens(v),
  ),
  readToken: variable('READ_TOKEN', null, 'When set, queries need it or an admin token', optionalText),
  production: variable(
    'NODE_ENV',
    null,
    'production: requires ADMIN_TOKEN, hides field suggestions',
    (v) => v === 'production',
  ),
  logLevel: variable('LOG_LEVEL', 'info', LOG_LEVELS.join(', '), oneOf(LOG_LEVELS)),
  logFormat: variable(
    'LOG_FORMAT',
    'auto',
    'json, pretty (one readable line per request), or auto: pretty on a terminal',
    oneOf(LOG_FORMATS),
  ),
  introspection: variable('INTROSPECTION', 'true', 'false turns introspection off', parseBoolean),
  responseCache: variable('RESPONSE_CACHE', 'true', 'false turns the response cache off', parseBoolean),
  recordCache: variable(
    'RECORD_CACHE',
    'true',
    'false: every request reads its records from the database',
    parseBoolean,
  ),
  execution: variable(
    'EXECUTION',
    'fast',
    'fast: compiled queries, assembled pages, direct resolvers; reference: graphql-js through Apollo',
    (v, name) => oneOf(EXECUTION_MODES)((v ?? 'fast').toLowerCase(), name),
  ),
  maxSubscriptionsPerConnection: variable(
    'WS_MAX_SUBSCRIPTIONS_PER_CONNECTION',
    String(DEFAULT_SUBSCRIPTION_LIMITS.perConnection),
    'Live subscriptions one WebSocket may hold at once',
    count(1, 1_000_000),
  ),
  maxSubscriptions: variable(
    'WS_MAX_SUBSCRIPTIONS',
    String(DEFAULT_SUBSCRIPTION_LIMITS.total),
    'Live subscriptions the process serves at once, over every transport',
    count(1, 1_000_000),
  ),
  httpCacheControl: variable(
    'HTTP_CACHE_CONTROL',
    DEFAULT_HTTP_CACHE_CONTROL,
    'Cache-Control of a successful query answered over GET',
    parseCacheControl,
  ),
  corsOrigins: variable('CORS_ORIGINS', null, 'Browser origins allowed to call the API, comma-separated', (v) =>
    parseOrigins(v),
  ),
  metrics: variable('METRICS', 'false', 'true: Prometheus metrics at GET /metrics', parseBoolean),
  metricsToken: variable('METRICS_TOKEN', null, 'When set, GET /metrics needs it as a bearer token', optionalText),
  tracingEndpoint: variable(
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    null,
    'When set, traces go there over OTLP/HTTP (the other OTEL_* variables apply)',
    optionalText,
  ),
  shutdownGraceMs: variable(
    'SHUTDOWN_GRACE_MS',
    String(DEFAULT_SHUTDOWN_GRACE_MS),
    'How long a shutdown waits for requests in flight before it exits anyway',
    count(1, 3_600_000),
  ),
  bodyTimeoutMs: variable(
    'BODY_TIMEOUT_MS',
    String(DEFAULT_BODY_TIMEOUT_MS),
    'Milliseconds a request body may take to arrive before it is answered 408',
    count(1, 1_000_000),
  ),
} satisfies { readonly [K in keyof AppConfig]-?: Variable<Exclude<AppConfig[K], undefined>> };

/** Parses and checks the environment: each variable of VARIABLES, then the rules across them. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  for (const [name, replacement] of Object.entries(RETIRED_VARIABLES))
    if (nonEmpty(env[name]) !== undefined)
      throw new ConfigError(`${name} is no longer read: use ${replacement}; unset ${name}`);
  const config: Record<string, unknown> = {};
  for (const [key, { name, default: fallback, parse }] of Object.entries(VARIABLES)) {
    config[key] = parse(nonEmpty(env[name]) ?? fallback ?? undefined, name);
  }
  return checkConfig(config as unknown as AppConfig);
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

/** A whole number from `min` to `max`. */
function count(min: number, max: number) {
  return (value: string | undefined, name: string): number => {
    const number = Number(value);
    if (value === undefined || !Number.isInteger(number) || number < min || number > max) {
      throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${value}")`);
    }
    return number;
  };
}

function parseBoolean(value: string | undefined, name: string): boolean {
  const lowered = (value ?? '').toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(lowered)) return true;
  if (['0', 'false', 'no', 'off'].includes(lowered)) return false;
  throw new ConfigError(`${name} must be true or false (got "${value}")`);
}

/** One of a few words. */
function oneOf<T extends string>(values: readonly T[]) {
  return (value: string | undefined, name: string): T => {
    if (!values.includes(value as T))
      throw new ConfigError(`${name} must be one of ${values.join(', ')} (got "${value}")`);
    return value as T;
  };
}

/** Any text (a variable with a default always has one). */
function anyText(value: string | undefined): string {
  return value ?? '';
}

/** Any text, or null when unset. */
function optionalText(value: string | undefined): string | null {
  return value ?? null;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
