// Root hooks and global fixtures (loaded from .mocharc.yml). `npm test` runs the spec files in parallel workers
// (mocha --parallel), where root hooks run once per file, in that file's worker, and the global setup and teardown
// once, in the main process. Run serially (`npx mocha <files>`), the root hooks run once around all the files.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  cleanUpBackends,
  dropRunDatabases,
  POSTGRES_ADMIN_URL,
  postgresAvailable,
  RUN_ID,
  TEST_RUN_ID,
} from './support/backends';
import { describeMismatches, takeExecutionChecks, type ExecutionChecks } from './support/execution-check';
import { stopAllProcesses } from './support/process-server';
import { closeAllServers } from './support/server';

/** Where each file's hooks leave what the end of the run reports (a folder the global setup makes). */
const RUN_DIR = 'REGISTRY_TEST_RUN_DIR';

/** What one file (or, run serially, the whole run) leaves for the end-of-run report. */
interface FileRecord {
  readonly file: string | null;
  readonly ms: number;
  readonly checks: Omit<ExecutionChecks, 'mismatches' | 'divergences'> & { mismatches: number; divergences: number };
}

let started = performance.now();
let recorded = 0;

export const mochaHooks = {
  beforeAll() {
    started = performance.now();
  },

  async afterAll(this: Mocha.Context) {
    // Dropping the PostgreSQL databases of a file takes more than the default 20 s on a loaded machine.
    this.timeout(120_000);
    await stopAllProcesses();
    await closeAllServers();
    await cleanUpBackends();
    const checks = takeExecutionChecks();
    const file = this.test?.parent?.suites.find((suite) => suite.file)?.file ?? null;
    record({
      file: file === null ? null : relative(process.cwd(), file),
      ms: performance.now() - started,
      checks: { ...checks, mismatches: checks.mismatches.length, divergences: checks.divergences.length },
    });
    // Every compiled answer the file's servers gave was compared with graphql-js's (test/support/execution-check.ts).
    if (checks.divergences.length > 0) {
      throw new Error(
        `${checks.divergences.length} compiled runs failed where graphql-js did not:\n${checks.divergences
          .slice(0, 10)
          .map((d) => `  ${d.operationName ?? '(anonymous)'}: ${d.query}\n    ${d.compiledErrors.join('\n    ')}`)
          .join('\n')}`,
      );
    }
    if (checks.mismatches.length > 0) {
      throw new Error(
        `${checks.mismatches.length} compiled answers differed from graphql-js's:\n${describeMismatches(checks.mismatches)}`,
      );
    }
  },
};

/** Makes the folder the files' hooks write to, and names the run (both inherited by the parallel workers, started after this). */
export function mochaGlobalSetup(): void {
  process.env[RUN_DIR] = mkdtempSync(join(tmpdir(), 'registry-test-run-'));
  process.env[TEST_RUN_ID] = RUN_ID;
}

/** The end-of-run report: the compiled-execution check over every file, the slowest files, a skipped PostgreSQL half. */
export async function mochaGlobalTeardown(): Promise<void> {
  // Every database of the run, whichever worker made it (each file's hook left them: see cleanUpBackends).
  await dropRunDatabases();
  const dir = process.env[RUN_DIR];
  const records = dir ? readRecords(dir) : [];
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (!(await postgresAvailable())) {
    console.log(
      `\n  NOTE: the PostgreSQL half of the suite was SKIPPED: no PostgreSQL answered at ${POSTGRES_ADMIN_URL}.\n  Set TEST_POSTGRES_URL, or start PostgreSQL on 127.0.0.1:5432 (REQUIRE_POSTGRES=1 makes this a failure).\n`,
    );
  }
  const total = (key: keyof FileRecord['checks']) => records.reduce((sum, r) => sum + r.checks[key], 0);
  const [compared, skipped, mismatches, divergences] = [
    total('compared'),
    total('skipped'),
    total('mismatches'),
    total('divergences'),
  ];
  if (compared + skipped > 0) {
    console.log(
      `\n  compiled execution check: ${compared} compiled answers compared with graphql-js, ${skipped} skipped (the registry version moved), ${mismatches} different, ${divergences} failed where graphql-js did not\n`,
    );
  }
  const files = records.filter((r) => r.file !== null).sort((a, b) => b.ms - a.ms);
  if (files.length > 1) {
    const lines = files.slice(0, 8).map((r) => `    ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${r.file}`);
    console.log(`  slowest files (each in its worker, hooks included):\n${lines.join('\n')}\n`);
  }
  // Each file with a difference has failed already, in its own after-all hook; the run says so once more.
  if (mismatches + divergences > 0) {
    throw new Error(`the compiled-execution check found ${mismatches + divergences} differences (see above)`);
  }
}

function record(entry: FileRecord): void {
  const dir = process.env[RUN_DIR];
  if (!dir) return;
  writeFileSync(join(dir, `${process.pid}-${++recorded}.json`), JSON.stringify(entry));
}

function readRecords(dir: string): FileRecord[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as FileRecord);
}
