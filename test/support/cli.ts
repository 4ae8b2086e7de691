import { spawn } from 'node:child_process';
import { repositoryRoot } from '../../src/demo/demo-data';

/** What a command-line run left: its exit code and output. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a subcommand of the tool-registry command as `npm run` does (node -r
 * @swc-node/register src/cli.ts <command>), in a child process, from the
 * repository root, without the caller's ADMIN_TOKEN, REGISTRY_TOKEN or npm variables unless
 * `env` sets them.
 */
export function runScript(
  /** The subcommand (or an option such as --version; empty: none). */
  script: string,
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<CliRun> {
  const {
    ADMIN_TOKEN: _token,
    REGISTRY_TOKEN: _registryToken,
    INIT_CWD: _initCwd,
    npm_lifecycle_event: _event,
    ...base
  } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['-r', '@swc-node/register', 'src/cli.ts', ...(script ? [script] : []), ...args],
      {
        cwd: repositoryRoot(),
        env: { ...base, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 60_000,
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
