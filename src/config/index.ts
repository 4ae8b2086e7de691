/**
 * Configuration, read from the environment once and checked here. A bad value
 * is a ConfigError with a one-line message that names the variable.
 */
import {
  ConfigError,
  DEFAULT_HTTP_CACHE_CONTROL,
  anyText,
  count,
  nonEmpty,
  oneOf,
  optionalText,
  parseBoolean,
  parseCacheControl,
  parseDatabaseUrl,
  parseNamedTokens,
  parseOidc,
  parseOrigins,
  parsePort,
  parseReadAuth,
} from './values';
import { RECORD_CACHE_BYTES } from '../application/versioning/record-cache';
import { EXECUTION_MODES, LOG_FORMATS, LOG_LEVELS, type AppConfig, type NamedToken } from './types';

export * from './types';
export {
  ConfigError,
  DEFAULT_HTTP_CACHE_CONTROL,
  parseDatabaseUrl,
  parseNamedTokens,
  parseOidc,
  parseOrigins,
} from './values';

/** How many live subscriptions a connection, and the whole process, may hold unless configured otherwise. */
export const DEFAULT_SUBSCRIPTION_LIMITS = { perConnection: 100, total: 10_000 } as const;

/** How long a request body may take to arrive unless BODY_TIMEOUT_MS says otherwise. */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

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

/** Every admin token: ADMIN_TOKEN as `admin`, then ADMIN_TOKENS. */
export function adminTokensOf(config: Pick<AppConfig, 'adminToken' | 'adminTokens'>): NamedToken[] {
  return [...(config.adminToken ? [{ name: 'admin', token: config.adminToken }] : []), ...(config.adminTokens ?? [])];
}

const DEFAULT_DATABASE_URL = 'sqlite:./data/registry.sqlite';

/**
 * One environment variable, declared once: its name, its default as the docs
 * write it (null: unset), a one-line description (--help prints it), and its
 * parser, which gets the value, or the default when it is unset or blank, and
 * throws a ConfigError naming the variable.
 */
export interface Variable<T> extends VariableDoc {
  readonly parse: (value: string | undefined, name: string, env: NodeJS.ProcessEnv) => T;
  /** Variables read together with this one by its parser (the other OIDC_* with OIDC_ISSUER), for the docs. */
  readonly related?: readonly VariableDoc[];
}

/** A variable as the docs and --help show it. */
export interface VariableDoc {
  readonly name: string;
  readonly default: string | null;
  readonly description: string;
}

function variable<T>(
  name: string,
  defaultValue: string | null,
  description: string,
  parse: (value: string | undefined, name: string, env: NodeJS.ProcessEnv) => T,
  related?: readonly VariableDoc[],
): Variable<T> {
  return { name, default: defaultValue, description, parse, ...(related ? { related } : {}) };
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
  demoData: variable(
    'DEMO_DATA',
    'true',
    "Load the demo (the seed's example and the docs' shop) into a new database",
    parseBoolean,
  ),
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
  recordCacheBytes: variable(
    'RECORD_CACHE_BYTES',
    String(RECORD_CACHE_BYTES),
    "Bytes the record cache may hold, as it counts them (an estimate of each record's heap); least recently used first out beyond",
    count(65_536, 8 * 1024 * 1024 * 1024),
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
  readAuth: variable(
    'READ_AUTH',
    'open',
    'required: every read needs an authenticated principal (as READ_TOKEN does)',
    parseReadAuth,
  ),
  oidc: variable(
    'OIDC_ISSUER',
    null,
    'Sign-in with OpenID Connect: bearer JWTs from this issuer are users (user:<subject>)',
    (_issuer, _name, env) => parseOidc(env, env.NODE_ENV === 'production'),
    [
      { name: 'OIDC_AUDIENCE', default: null, description: 'Required with OIDC_ISSUER: aud must contain it' },
      {
        name: 'OIDC_JWKS_URL',
        default: null,
        description: "The issuer's signing keys; unset: from its discovery document",
      },
      { name: 'OIDC_SUBJECT_CLAIM', default: 'sub', description: 'The claim naming the user' },
      { name: 'OIDC_GROUPS_CLAIM', default: 'groups', description: "The claim listing the user's groups" },
      {
        name: 'OIDC_DASHBOARD_CLIENT_ID',
        default: null,
        description: 'The public client the dashboard signs in with (authorization code + PKCE)',
      },
    ],
  ),
} satisfies { readonly [K in keyof AppConfig]-?: Variable<Exclude<AppConfig[K], undefined>> };

/** Every variable the server reads, as the docs and --help list them: VARIABLES and those read with them. */
export const ENVIRONMENT: readonly VariableDoc[] = Object.values(VARIABLES).flatMap((v: Variable<unknown>) => [
  { name: v.name, default: v.default, description: v.description },
  ...(v.related ?? []),
]);

/** Parses and checks the environment: each variable of VARIABLES, then the rules across them. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  for (const [name, replacement] of Object.entries(RETIRED_VARIABLES))
    if (nonEmpty(env[name]) !== undefined)
      throw new ConfigError(`${name} is no longer read: use ${replacement}; unset ${name}`);
  const config: Record<string, unknown> = {};
  for (const [key, { name, default: fallback, parse }] of Object.entries(VARIABLES)) {
    config[key] = parse(nonEmpty(env[name]) ?? fallback ?? undefined, name, env);
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
