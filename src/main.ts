import 'reflect-metadata';
import type { FastifyInstance } from 'fastify';
import type { Server } from 'node:net';
import type { Logger } from 'pino';
import { createServices, type Services } from './application/services';
import { RegistryVersioning } from './application/versioning';
import {
  adminTokensOf,
  checkConfig,
  ConfigError,
  DEFAULT_SHUTDOWN_GRACE_MS,
  loadConfig,
  type AppConfig,
  type DatabaseConfig,
} from './config';
import { loadDemoData } from './demo/demo-data';
import { CompiledExecution, type ExecutionCheck } from './engine/compiled-execution';
import type { RequestContext } from './graphql/context';
import { ANSWER_PARTS_BYTES, ANSWER_PARTS_CACHE, AnswerPartStore } from './engine/answer-parts';
import { engineParts, requestAssembly } from './engine/execution-mode';
import { buildRegistrySchema } from './engine/executable-schema';
import { Authenticator } from './engine/authentication';
import { createHttpServer } from './http/server';
import { createLogger } from './logging';
import { Metrics } from './observability/metrics';
import { Tracing } from './observability/tracing';
import { startTracingSdk, type TracingSdk } from './observability/tracing-sdk';
import { Database } from './persistence/database';
import { SCHEMA_CREATING_MIGRATION } from './persistence/migrations';
import { PostgresChangeListener } from './persistence/change-listener';
import type { ReadConnection } from './persistence/read-connection';
import { acquireSqliteOwnerLock, type OwnerLock } from './persistence/sqlite-owner-lock';
import { buildInfo, type BuildInfo } from './version';

/** A started server. */
export interface RunningApp {
  /** The GraphQL endpoint, e.g. http://127.0.0.1:4000/graphql. */
  readonly url: string;
  readonly port: number;
  readonly db: Database;
  readonly versioning: RegistryVersioning;
  readonly services: Services;
  /** How operations run (compiled queries, else graphql-js), with its counts. */
  readonly execution: CompiledExecution<RequestContext>;
  /** On PostgreSQL, the LISTEN connection that tells this instance of other instances' changes. */
  readonly changeListener: PostgresChangeListener | null;
  /** The migrations this start applied (empty when the database was already current). */
  readonly migrationsApplied: readonly string[];
  /** The Prometheus metrics (METRICS=true), or null. */
  readonly metrics: Metrics | null;
  /** The logger everything logs through. */
  readonly logger: Logger;
  /**
   * Stops accepting requests, lets in-flight ones finish, closes every WebSocket (1001, going away) and the
   * database; says how many connections and subscriptions were open when it began.
   */
  close(): Promise<DrainedCounts>;
}

/** What a shutdown drained: HTTP connections open (WebSockets included) and subscriptions, when it began. */
export interface DrainedCounts {
  readonly connections: number;
  readonly subscriptions: number;
}

/** What a start can be given besides the configuration (tests, and the benchmark's own entry). */
export interface BootstrapOptions {
  logger?: Logger;
  graphiqlDir?: string;
  dashboardDir?: string;
  /** Tests only: compares each compiled answer with graphql-js's. */
  executionCheck?: ExecutionCheck<RequestContext>;
  /** Tests: the run of a query that compiles it (default COMPILE_AFTER_RUNS; 1 makes the check see every query). */
  compileAfter?: number;
  /** Wraps the read connection (the benchmark's "free data" server: scripts/bench/server-main.ts). */
  wrapReads?: (reads: ReadConnection) => ReadConnection;
  /** GET routes for diagnostics, made from the running parts (the benchmark's statement counter). */
  debugRoutes?: (parts: RunningParts) => Record<string, () => unknown>;
}

/** The parts of a running server that diagnostics may read. */
export type RunningParts = Pick<RunningApp, 'db' | 'versioning' | 'services' | 'execution'>;

/** What watches the server when configured to: metrics (METRICS) and traces (OTEL_EXPORTER_OTLP_ENDPOINT). */
interface Observers {
  readonly build: BuildInfo;
  readonly metrics: Metrics | null;
  readonly tracing: Tracing | null;
}

/**
 * The composition root: opens the database, runs the migrations, loads the
 * demo data into a new registry, builds the schema and starts HTTP. The tests
 * start the server through this same function.
 */
export async function bootstrap(config: AppConfig, options: BootstrapOptions = {}): Promise<RunningApp> {
  checkConfig(config);
  const logger = options.logger ?? createLogger(config.logLevel, config.logFormat);
  const observers = observersOf(config);
  const { db, ownerLock } = await openDatabase(config, logger, options, observers.tracing);
  try {
    const applied = await db.migrate();
    if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
    await db.requireWritable();

    // The engine is chosen here, once (EXECUTION): see src/engine/execution-mode.ts.
    const engine = engineParts(config.execution);
    const versioning = await RegistryVersioning.open(db, config);
    const { services, changeListener } = await startServices(config, versioning, logger, observers.metrics);
    observers.metrics?.watch({
      recordCaches: () => versioning.cacheFigures(),
      pools: () => db.poolFigures(),
      subscriptions: () => services.feed.size,
      subscriptionEvents: () => services.feed.delivered,
      registryVersion: async () => (await versioning.current()).version,
    });

    // Only the start that created the schema loads the demo, so several instances starting at once on an empty database load it once.
    if (config.demoData && applied.includes(SCHEMA_CREATING_MIGRATION) && (await versioning.current()).version === 0) {
      await loadDemoData(services, versioning.session());
      logger.info('new registry: loaded the demo data (DEMO_DATA=false skips this)');
    }

    const schema = await buildRegistrySchema({ directResolvers: engine.directResolvers });
    const execution = new CompiledExecution<RequestContext>(schema, {
      enabled: engine.compiledQueries,
      check: options.executionCheck,
      compileAfter: options.compileAfter,
      // EXECUTION=reference assembles no page: no answer part is kept.
      assembly: engine.pageAssembly
        ? requestAssembly(new AnswerPartStore(versioning.keptCache(ANSWER_PARTS_CACHE, ANSWER_PARTS_BYTES)))
        : undefined,
      // A request's report is its own, and Apollo's copy of its context keeps it.
      requestOf: (context) => context.report,
      tracer: observers.tracing,
    });
    const { fastify } = await createHttpServer({
      config,
      schema,
      execution,
      services,
      logger,
      newSession: () => versioning.session(),
      unreadiness: () => db.unreadiness(),
      debugRoutes: options.debugRoutes?.({ db, versioning, services, execution }) ?? {},
      graphiqlDir: options.graphiqlDir,
      dashboardDir: options.dashboardDir,
      ...observers,
    });
    await fastify.listen({ port: config.port, host: config.host });
    const { url, port } = announce(fastify.server.address(), config, logger, observers);
    const close = closer(fastify, services, async () => {
      await changeListener?.stop();
      await db.close();
      ownerLock?.release();
    });
    return {
      url,
      port,
      db,
      versioning,
      services,
      execution,
      changeListener,
      migrationsApplied: applied,
      metrics: observers.metrics,
      logger,
      close,
    };
  } catch (error) {
    await db.close().catch(() => undefined);
    ownerLock?.release();
    throw error;
  }
}

function observersOf(config: AppConfig): Observers {
  const build = buildInfo();
  return {
    build,
    metrics: config.metrics ? new Metrics(build) : null,
    tracing: config.tracingEndpoint
      ? new Tracing(build.version, config.database.kind === 'postgres' ? 'postgresql' : 'sqlite')
      : null,
  };
}

/** The database, and on a SQLite file the lock that makes this process its one owner. */
async function openDatabase(
  config: AppConfig,
  logger: Logger,
  options: BootstrapOptions,
  tracer: Tracing | null,
): Promise<{ db: Database; ownerLock: OwnerLock | null }> {
  const ownerLock =
    config.database.kind === 'sqlite' && config.database.path !== ':memory:'
      ? acquireSqliteOwnerLock(config.database.path)
      : null;
  try {
    const db = await Database.open(
      config.database,
      {
        debug: (details, message) => logger.debug(details, message),
        warn: (message) => logger.warn(message),
        error: (details, message) => logger.error(details, message),
      },
      { wrapReads: options.wrapReads, tracer },
    );
    return { db, ownerLock };
  } catch (error) {
    ownerLock?.release();
    throw error;
  }
}

/**
 * The use cases, and the live change log: signalled by this process's own
 * commits, and on PostgreSQL by every instance's NOTIFY (through the listener returned).
 */
async function startServices(
  config: AppConfig,
  versioning: RegistryVersioning,
  logger: Logger,
  metrics: Metrics | null,
): Promise<{ services: Services; changeListener: PostgresChangeListener | null }> {
  const services = createServices(versioning, {
    feedObserver: metrics ?? undefined,
    staticTokenNames: Authenticator.tokenNames({ adminTokens: adminTokensOf(config) }),
  });
  await services.feed.start();
  services.writes.listen((committed) => services.feed.signal(committed.version));
  // While anyone subscribes, a write answers once the subscribers who keep up have its events (bounded: see
  // ChangeFeed.settled), and the next write commits after that.
  services.writes.paceBy({
    active: () => services.feed.size > 0,
    settled: (version) => services.feed.settled(version),
  });
  const changeListener =
    config.database.kind === 'postgres'
      ? new PostgresChangeListener(config.database.url, {
          changed: (version) => services.feed.signal(version),
          connected: () => services.feed.signal(),
          lost: (error) => logger.warn({ err: error }, 'lost the change notification connection; reconnecting'),
        })
      : null;
  await changeListener?.start();
  return { services, changeListener };
}

/** Logs where the server listens (the API, the dashboard, the metrics) and its version; returns the URL and port. */
function announce(
  address: ReturnType<Server['address']>,
  config: AppConfig,
  logger: Logger,
  { build, metrics }: Observers,
): { url: string; port: number } {
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const origin = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  const url = `${origin}/graphql`;
  logger.info(
    {
      url,
      dashboard: `${origin}/dashboard`,
      metrics: metrics ? `${origin}/metrics` : undefined,
      version: build.version,
      commit: build.commit,
      database: config.database.kind,
    },
    'registry server listening',
  );
  return { url, port };
}

/** The server's close, run once however often it is called: HTTP (and every WebSocket) first, then the rest. */
function closer(
  fastify: FastifyInstance,
  services: Services,
  closeRest: () => Promise<void>,
): () => Promise<DrainedCounts> {
  let closing: Promise<DrainedCounts> | null = null;
  return () =>
    (closing ??= (async () => {
      const drained = {
        connections: await new Promise<number>((resolve) =>
          fastify.server.getConnections((error, count) => resolve(error ? 0 : count)),
        ),
        subscriptions: services.feed.size,
      };
      await fastify.close();
      await closeRest();
      return drained;
    })());
}

/**
 * Runs the server as a process (`tool-registry serve`; with options, the benchmark's server entry): reads the
 * configuration, starts tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set, starts, and shuts down on SIGTERM or
 * SIGINT. Bad configuration or an unreachable database is one line on stderr and exit code 1.
 */
export async function serve(options: BootstrapOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`registry: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  // Before anything else, so the first request is traced; without an endpoint the SDK is never loaded.
  const sdk = config.tracingEndpoint ? await startTracingSdk(buildInfo()) : null;
  let app: RunningApp;
  try {
    app = await bootstrap(config, options);
  } catch (error) {
    console.error(`registry: cannot start: ${describeStartupError(error)}`);
    await sdk?.shutdown().catch(() => undefined);
    process.exit(1);
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => void shutDown(app, sdk, signal, config.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS));
  }
}

/**
 * The shutdown sequence: new connections are refused, requests in flight finish, every WebSocket is closed
 * with 1001 (going away), the database closes, and the traces are flushed; then the process exits 0. After
 * `graceMs` it exits 1 whatever is left. Both ends are logged through the server's logger.
 */
async function shutDown(app: RunningApp, sdk: TracingSdk | null, signal: string, graceMs: number): Promise<void> {
  const started = Date.now();
  const { logger } = app;
  logger.info({ signal, graceMs }, 'shutting down');
  setTimeout(() => {
    logger.error({ graceMs }, 'shutdown took longer than SHUTDOWN_GRACE_MS; exiting with requests still open');
    process.exit(1);
  }, graceMs).unref();
  try {
    const drained = await app.close();
    await sdk?.shutdown().catch((error: unknown) => logger.warn({ err: error }, 'could not flush the last traces'));
    logger.info({ ...drained, durationMs: Date.now() - started }, 'stopped');
    process.exit(0);
  } catch (error) {
    logger.error({ err: error }, 'error while shutting down');
    process.exit(1);
  }
}

/**
 * Applies the pending migrations to a database and closes it, without serving (`tool-registry migrate`). A
 * server does the same at start; on SQLite this is refused while a server holds the file, and on PostgreSQL
 * it takes the same advisory lock as a starting server. Returns the migrations applied.
 */
export async function migrateDatabase(database: DatabaseConfig): Promise<string[]> {
  const ownerLock =
    database.kind === 'sqlite' && database.path !== ':memory:' ? acquireSqliteOwnerLock(database.path) : null;
  try {
    const db = await Database.open(database);
    try {
      return await db.migrate();
    } finally {
      await db.close();
    }
  } finally {
    ownerLock?.release();
  }
}

/** A one-line reason for a failed start, without a stack. */
export function describeStartupError(error: unknown): string {
  const err = error as { code?: string; message?: string };
  if (err?.code === 'EADDRINUSE') return `port already in use (${err.message})`;
  if (err?.code === 'ECONNREFUSED')
    return 'the database refused the connection (is it running, and is DATABASE_URL right?)';
  return (err?.message ?? String(error)).split('\n')[0];
}

if (require.main === module) {
  void serve();
}
