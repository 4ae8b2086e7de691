import type { ExecutionResult, GraphQLError } from 'graphql';
import type { CheckedRun, ExecutionCheck, ExecutionRequest } from '../../src/engine/compiled-execution';
import type { RequestContext } from '../../src/graphql/context';
import type { RunningApp } from '../../src/main';

/** A compiled answer that differed from graphql-js's for the same operation at the same registry version. */
export interface ExecutionMismatch {
  readonly query: string;
  readonly operationName: string | null;
  readonly variables: unknown;
  readonly compiled: ExecutionResult;
  readonly graphqlJs: ExecutionResult;
}

/** What the checks found: answers compared, skipped, and every difference. */
export interface ExecutionChecks {
  compared: number;
  /** Not compared: the registry version moved between the compiled run and graphql-js's. */
  skipped: number;
  mismatches: ExecutionMismatch[];
  /** Compiled runs with errors that graphql-js, run again, answered without any. */
  divergences: { query: string; operationName: string | null; compiledErrors: string[] }[];
}

/** What the checks of this process found since the last take (test/hooks.ts fails a file with any difference). */
const executionChecks: ExecutionChecks = { compared: 0, skipped: 0, mismatches: [], divergences: [] };

/** What the checks found since the last take (for each file, in its after-all hook), and starts counting again. */
export function takeExecutionChecks(): ExecutionChecks {
  const taken = { ...executionChecks };
  Object.assign(executionChecks, { compared: 0, skipped: 0, mismatches: [], divergences: [] });
  return taken;
}

/**
 * The equivalence check every test server gets: after each compiled answer
 * without errors, the same operation runs with graphql-js on a fresh read
 * session; when both read the same registry version, the two answers must be
 * identical (as JSON, so field order counts too). Its SQL is not counted, so
 * the statement counts the tests assert are the requests' own.
 */
export function equivalenceCheck(appOf: () => RunningApp | undefined): ExecutionCheck<RequestContext> {
  return { compare: (run) => compare(appOf(), run), diverged };
}

function diverged(request: ExecutionRequest<RequestContext>, compiledErrors: readonly GraphQLError[]): void {
  executionChecks.divergences.push({
    query: request.source ?? '(no source)',
    operationName: request.operationName ?? null,
    compiledErrors: compiledErrors.map((error) => `${error.message} at ${JSON.stringify(error.path)}`),
  });
}

async function compare(app: RunningApp | undefined, run: CheckedRun<RequestContext>): Promise<void> {
  if (!app) return;
  const context = run.request.contextValue;
  const fresh: RequestContext = {
    ...context,
    session: app.versioning.session(),
    report: { ...context.report, errorCodes: [] },
  };
  const graphqlJs = await app.db.counter.uncounted(() => run.executeWithGraphqlJs(fresh));
  if (fresh.session.pinnedVersion() !== context.session.pinnedVersion()) {
    executionChecks.skipped += 1;
    return;
  }
  if (JSON.stringify(graphqlJs) !== JSON.stringify(run.result) && (await writeWasCommitting(app, fresh))) {
    executionChecks.skipped += 1;
    return;
  }
  executionChecks.compared += 1;
  if (JSON.stringify(graphqlJs) !== JSON.stringify(run.result)) {
    executionChecks.mismatches.push({
      query: run.request.source ?? '(no source)',
      operationName: run.request.operationName ?? null,
      variables: run.request.variables ?? null,
      compiled: run.result,
      graphqlJs,
    });
  }
}

/**
 * Whether a write was committing while the two runs read: a request may read
 * data newer than the version it pinned (the version moves just after the
 * commit), so two runs at one pinned version can differ while a write commits.
 * The version then moves within moments; a real difference stays at one version.
 */
async function writeWasCommitting(app: RunningApp, context: RequestContext): Promise<boolean> {
  await new Promise((resolve) => setTimeout(resolve, 50));
  return (await app.versioning.current()).version !== context.session.pinnedVersion();
}

/** A readable account of the mismatches, for the failure message. */
export function describeMismatches(mismatches: readonly ExecutionMismatch[]): string {
  return mismatches
    .slice(0, 10)
    .map(
      (m, i) =>
        `#${i + 1} ${m.operationName ?? '(anonymous)'}\n  query: ${m.query}\n  variables: ${JSON.stringify(m.variables)}\n` +
        `  compiled:   ${JSON.stringify(m.compiled)}\n  graphql-js: ${JSON.stringify(m.graphqlJs)}`,
    )
    .join('\n');
}
