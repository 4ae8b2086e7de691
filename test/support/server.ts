import pino from 'pino';
import type { AppConfig } from '../../src/config';
import { bootstrap, type BootstrapOptions, type RunningApp } from '../../src/main';
import type { Backend } from './backends';
import { equivalenceCheck } from './execution-check';

/** The JSON body of a GraphQL response. */
export interface GraphQLBody<T = any> {
  data?: T | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, any> }[];
}

/** A real server on an ephemeral port, talked to over HTTP. */
export interface TestServer {
  readonly app: RunningApp;
  readonly config: AppConfig;
  readonly url: string;
  readonly origin: string;
  /** POSTs a GraphQL request and returns the status and parsed body. */
  gql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: GraphQLBody<T> }>;
  /** Like gql, but fails the test on any error and returns `data`. */
  data<T = any>(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<T>;
  /** SQL statements the server has sent so far. */
  statements(): number;
  close(): Promise<void>;
}

const open = new Set<TestServer>();

/**
 * Starts the server through the same bootstrap as `npm start`, on a fresh
 * database of the backend. `options.graphiqlDir` and `options.dashboardDir`
 * point GraphiQL and the dashboard at another bundle folder (e.g. a missing one).
 */
export async function startServer(
  backend: Backend,
  overrides: Partial<AppConfig> = {},
  options: {
    graphiqlDir?: string;
    dashboardDir?: string;
    logger?: pino.Logger;
    /** false: no comparison of compiled answers with graphql-js, queries compiled as in production (a GC probe). */
    checkExecution?: boolean;
    /** Wraps the read connection (the benchmark's --free-reads: scripts/bench/free-reads.ts). */
    wrapReads?: BootstrapOptions['wrapReads'];
  } = {},
): Promise<TestServer> {
  const config: AppConfig = {
    port: 0,
    host: '127.0.0.1',
    database: overrides.database ?? (await backend.freshDatabase()),
    adminToken: null,
    readToken: null,
    demoData: false,
    production: false,
    logLevel: 'silent',
    introspection: true,
    execution: 'fast',
    responseCache: true,
    recordCache: true,
    ...overrides,
  };
  const started: { app?: RunningApp } = {};
  const app = await bootstrap(config, {
    logger: options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    ...(options.checkExecution === false
      ? {}
      : {
          // Every compiled answer is compared with graphql-js's (test/hooks.ts fails the run on any difference).
          executionCheck: equivalenceCheck(() => started.app),
          // Every query compiled at its first run, so the check compares each operation the tests send.
          compileAfter: 1,
        }),
    graphiqlDir: options.graphiqlDir,
    dashboardDir: options.dashboardDir,
    wrapReads: options.wrapReads,
  });
  started.app = app;
  const origin = new URL(app.url).origin;
  const server: TestServer = {
    app,
    config,
    url: app.url,
    origin,
    async gql(query, variables, headers = {}) {
      const response = await fetch(app.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, body: (await response.json()) as GraphQLBody };
    },
    async data(query, variables, headers) {
      const { status, body } = await server.gql(query, variables, headers);
      if (body.errors?.length || status !== 200)
        throw new Error(`GraphQL request failed (${status}): ${JSON.stringify(body.errors)}`);
      return body.data;
    },
    statements: () => app.db.counter.count,
    async close() {
      open.delete(server);
      await app.close();
    },
  };
  open.add(server);
  return server;
}

/** Closes servers a failed test left open. */
export async function closeAllServers(): Promise<void> {
  await Promise.all([...open].map((s) => s.close()));
}
