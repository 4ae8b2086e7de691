import 'reflect-metadata';
import type { Server } from 'node:net';
import type { Logger } from 'pino';
import { createServices, type Services } from './application/services';
import { RegistryVersioning } from './application/versioning';
import { checkConfig, ConfigError, loadConfig, type AppConfig } from './config';
import { loadDemoData } from './demo/demo-data';
import { CompiledExecution, type ExecutionCheck } from './graphql/compiled-execution';
import { REQUEST_ASSEMBLY, type RequestContext } from './graphql/context';
import { engineParts } from './graphql/execution-mode';
import { buildRegistrySchema } from './graphql/schema';
import { createHttpServer } from './http/server';
import { createLogger } from './logging';
import { Database } from './persistence/database';
import { SCHEMA_CREATING_MIGRATION } from './persistence/migrations';
import { PostgresChangeListener } from './persistence/change-listener';
import type { ReadConnection } from './persistence/read-connection';
import { acquireSqliteOwnerLock, type OwnerLock } from './persistence/sqlite-owner-lock';

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
  /** Stops accepting requests, lets in-flight ones finish, and closes the database. */
  close(): Promise<void>;
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

/**
 * The composition root: opens the database, runs the migrations, loads the
 * demo data into a new registry, builds the schema and starts HTTP. The tests
 * start the server through this same function.
 */
export async function bootstrap(config: AppConfig, options: BootstrapOptions = {}): Promise<RunningApp> {
  checkConfig(config);
  const logger = options.logger ?? createLogger(config.logLevel);
  const { db, ownerLock } = await openDatabase(config, logger, options);
  try {
    const applied = await db.migrate();
    if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
    await db.requireWritable();

    // The engine is chosen here, once (EXECUTION): see src/graphql/execution-mode.ts.
    const engine = engineParts(config.execution);
    const versioning = await RegistryVersioning.open(db, {
      recordCache: config.recordCache,
      answerParts: engine.pageAssembly,
    });
    const { services, changeListener } = await startServices(config, versioning, logger);

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
      graphqlJsOnly: (context) => context.compiledRunFailed === true,
      assembly: engine.pageAssembly ? REQUEST_ASSEMBLY : undefined,
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
    });
    await fastify.listen({ port: config.port, host: config.host });
    const { url, port } = listening(fastify.server.address(), config);
    logger.info({ url, database: config.database.kind }, 'registry server listening');

    let closing: Promise<void> | null = null;
    return {
      url,
      port,
      db,
      versioning,
      services,
      execution,
      changeListener,
      migrationsApplied: applied,
      close: () =>
        (closing ??= (async () => {
          await fastify.close();
          await changeListener?.stop();
          await db.close();
          ownerLock?.release();
        })()),
    };
  } catch (error) {
    await db.close().catch(() => undefined);
    ownerLock?.release();
    throw error;
  }
}

/** The database, and on a SQLite file the lock that makes this process its one owner. */
async function openDatabase(
  config: AppConfig,
  logger: Logger,
  options: BootstrapOptions,
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
      { wrapReads: options.wrapReads },
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
): Promise<{ services: Services; changeListener: PostgresChangeListener | null }> {
  const services = createServices(versioning);
  await services.feed.start();
  services.writes.listen((committed) => services.feed.signal(committed.version));
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

/** The port the server listens on, and the GraphQL endpoint's URL there. */
function listening(address: ReturnType<Server['address']>, config: AppConfig): { url: string; port: number } {
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return { url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/graphql`, port };
}

/**
 * Entry point: `node dist/src/main.js` (and, with options, the benchmark's server entry). Bad configuration or an
 * unreachable database is one line and exit code 1.
 */
export async function main(options: BootstrapOptions = {}): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`registry: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  let app: RunningApp;
  try {
    app = await bootstrap(config, options);
  } catch (error) {
    console.error(`registry: cannot start: ${describeStartupError(error)}`);
    process.exit(1);
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      // In-flight requests finish; new ones are refused; then the database closes.
      console.error(`registry: ${signal} received, shutting down`);
      setTimeout(() => {
        console.error('registry: shutdown took longer than 9 s; exiting');
        process.exit(1);
      }, SHUTDOWN_GRACE_MS).unref();
      app.close().then(
        () => process.exit(0),
        (error) => {
          console.error(`registry: error while shutting down: ${describeStartupError(error)}`);
          process.exit(1);
        },
      );
    });
  }
}

/** How long a graceful shutdown may take before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 9000;

/** A one-line reason for a failed start, without a stack. */
function describeStartupError(error: unknown): string {
  const err = error as { code?: string; message?: string };
  if (err?.code === 'EADDRINUSE') return `port already in use (${err.message})`;
  if (err?.code === 'ECONNREFUSED')
    return 'the database refused the connection (is it running, and is DATABASE_URL right?)';
  return (err?.message ?? String(error)).split('\n')[0];
}

if (require.main === module) {
  void main();
}
