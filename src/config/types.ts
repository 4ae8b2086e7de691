/** The server's configuration, as read from the environment (./index.ts) and as tests build it. */

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
  /** Bytes the record cache may hold, as it counts them (RECORD_CACHE_BYTES; default 48 MiB). */
  readonly recordCacheBytes?: number;
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
  /** READ_AUTH: `required` makes every read need an authenticated principal, as READ_TOKEN does (default `open`). */
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

/** An admin token and the actor name it stands for. */
export interface NamedToken {
  readonly name: string;
  readonly token: string;
}

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

/** The log levels LOG_LEVEL takes. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The log formats LOG_FORMAT takes. */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;

/** How log lines are written: JSON, one readable line per request, or pretty when stdout is a terminal. */
export type LogFormat = (typeof LOG_FORMATS)[number];
