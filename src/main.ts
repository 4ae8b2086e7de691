import 'reflect-metadata';
import type { Logger } from 'pino';
import { createServices, type Services } from './application/services';
import { RegistryVersioning } from './application/versioning';
import { adminTokensOf, checkConfig, ConfigError, loadConfig, type AppConfig } from './config';
import { loadDemoData } from './demo/demo-data';
import { CompiledExecution, type ExecutionCheck } from './graphql/compiled-execution';
import { REQUEST_ASSEMBLY, type RequestContext } from './graphql/context';
import { buildRegistrySchema } from './graphql/schema';
import { Authenticator } from './http/authentication';
import { createHttpServer } from './http/server';
import { createLogger } from './logging';
import { Database } from './persistence/database';
import { SCHEMA_CREATING_MIGRATION } from './persistence/migrations';
import { PostgresChangeListener } from './persistence/change-listener';
import { acquireSqliteOwnerLock } from './persistence/sqlite-owner-lock';

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

/**
 * The composition root: opens the database, runs the migrations, loads the
 * demo data into a new registry, builds the schema and starts HTTP. The tests
 * start the server through this same function.
 */
export async function bootstrap(
  config: AppConfig,
  options: {
    logger?: Logger;
    graphiqlDir?: string;
    dashboardDir?: string;
    /** Tests only: compares each compiled answer with graphql-js's. */
    executionCheck?: ExecutionCheck<RequestContext>;
    /** Tests: the run of a query that compiles it (default COMPILE_AFTER_RUNS; 1 makes the check see every query). */
    compileAfter?: number;
  } = {},
): Promise<RunningApp> {
  checkConfig(config);
  const logger = options.logger ?? createLogger(config.logLevel);
  const ownerLock =
    config.database.kind === 'sqlite' && config.database.path !== ':memory:'
      ? acquireSqliteOwnerLock(config.database.path)
      : null;
  const db = await Database.open(
    config.database,
    {
      debug: (details, message) => logger.debug(details, message),
      warn: (message) => logger.warn(message),
      error: (details, message) => logger.error(details, message),
    },
    { freeReads: config.benchFreeReads === true },
  );
  if (config.benchFreeReads)
    logger.warn('BENCH_FREE_READS is on: repeated reads come from memory and never see writes');
  try {
    const applied = await db.migrate();
    if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
    await db.requireWritable();

    const versioning = await RegistryVersioning.open(db, { recordCache: config.recordCache });
    const services = createServices(versioning, {
      subscriptionQueue: config.subscriptionQueue,
      staticTokenNames: Authenticator.tokenNames({ adminTokens: adminTokensOf(config) }),
    });
    // The live change log: signalled by this process's own commits, and on PostgreSQL by every instance's NOTIFY.
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

    // Only the start that created the schema loads the demo, so several instances starting at once on an empty database load it once.
    if (config.demoData && applied.includes(SCHEMA_CREATING_MIGRATION) && (await versioning.current()).version === 0) {
      await loadDemoData(services, versioning.session());
      logger.info('new registry: loaded the demo data (DEMO_DATA=false skips this)');
    }

    const schema = await buildRegistrySchema();
    const execution = new CompiledExecution<RequestContext>(schema, {
      enabled: config.compiledExecution ?? true,
      check: options.executionCheck,
      compileAfter: options.compileAfter,
      graphqlJsOnly: (context) => context.compiledRunFailed === true,
      // Pages are assembled from kept parts only while records are kept (RECORD_CACHE=false keeps neither).
      assembly: config.recordCache === false ? undefined : REQUEST_ASSEMBLY,
    });
    const { fastify } = await createHttpServer({
      config,
      schema,
      execution,
      services,
      logger,
      newSession: () => versioning.session(),
      unreadiness: () => db.unreadiness(),
      debugRoutes: config.countSql
        ? {
            '/debug/sql-stats': () => ({
              statements: db.counter.count,
              subscribers: services.feed.size,
              execution: execution.stats,
              memory: process.memoryUsage(),
              caches: { ...versioning.cacheUsage(), compiled: execution.cacheUsage },
            }),
          }
        : {},
      graphiqlDir: options.graphiqlDir,
      dashboardDir: options.dashboardDir,
    });
    await fastify.listen({ port: config.port, host: config.host });
    const address = fastify.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/graphql`;
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

/** Entry point: `node dist/src/main.js`. Bad configuration or an unreachable database is one line and exit code 1. */
async function main(): Promise<void> {
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
    app = await bootstrap(config);
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
