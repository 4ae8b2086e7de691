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
  /** Token that may run every operation. Without it (development only) writes are open. */
  readonly adminToken: string | null;
  /** Token that may run queries; when set, queries need it or the admin token. */
  readonly readToken: string | null;
  /** Load the seed's example registry into a new, empty database. */
  readonly demoData: boolean;
  readonly production: boolean;
  readonly logLevel: string;
  readonly introspection: boolean;
  /** Keep whole responses to read-only operations, per registry version (RESPONSE_CACHE, default on). */
  readonly responseCache: boolean;
  /** Count SQL statements and expose the count at /debug/sql-stats (benchmarks only). */
  readonly countSql: boolean;
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
    readToken: nonEmpty(env.READ_TOKEN) ?? null,
    demoData: parseBoolean('DEMO_DATA', env.DEMO_DATA, true),
    production: env.NODE_ENV === 'production',
    logLevel: parseLogLevel(env.LOG_LEVEL),
    introspection: parseBoolean('INTROSPECTION', env.INTROSPECTION, true),
    countSql: parseBoolean('BENCH_COUNT_SQL', env.BENCH_COUNT_SQL, false),
    responseCache: parseBoolean('RESPONSE_CACHE', env.RESPONSE_CACHE, true),
  });
}

/** Minimum length of a token in production, so a guessable one is refused. */
export const MIN_PRODUCTION_TOKEN_LENGTH = 16;

/** Rules across values: production needs a strong ADMIN_TOKEN; the two tokens must differ. */
export function checkConfig(config: AppConfig): AppConfig {
  if (config.production) {
    if (!config.adminToken)
      throw new ConfigError(
        'ADMIN_TOKEN is required when NODE_ENV=production (without it anyone could change the registry)',
      );
    for (const [name, token] of [
      ['ADMIN_TOKEN', config.adminToken],
      ['READ_TOKEN', config.readToken],
    ] as const) {
      if (token !== null && token.length < MIN_PRODUCTION_TOKEN_LENGTH)
        throw new ConfigError(
          `${name} must be at least ${MIN_PRODUCTION_TOKEN_LENGTH} characters when NODE_ENV=production`,
        );
    }
  }
  if (config.adminToken !== null && config.adminToken === config.readToken)
    throw new ConfigError('READ_TOKEN must differ from ADMIN_TOKEN');
  return config;
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

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 4000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`PORT must be an integer from 0 to 65535 (got "${value}")`);
  return port;
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
