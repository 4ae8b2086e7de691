#!/usr/bin/env node
/**
 * `tool-registry`: the registry's one command, as the package installs it
 * (package.json `bin`) and as the npm scripts run it. Each subcommand is a
 * module of ./cli/ (serve is the composition root's process entry); this file
 * only chooses one, and prints the version and the help, whose list of
 * environment variables comes from the one config schema (./config.ts).
 */
import { ENVIRONMENT } from './config';
import { backupCommand, migrateCommand, restoreCommand } from './cli/database-commands';
import { exportCommand } from './cli/export';
import { registerCommand } from './cli/register';
import { serverModules } from './cli/server-modules';
import { buildInfo } from './version';

/** A subcommand: what it does in a few words, and how it runs (its exit code, or 'serving' while the server runs). */
interface Command {
  readonly summary: string;
  run(argv: string[]): Promise<number | 'serving'>;
}

const COMMANDS: Record<string, Command> = {
  serve: { summary: 'Run the GraphQL server (configured by the environment, below)', run: serveCommand },
  register: { summary: 'Register tool and registry files (YAML) on a running server', run: registerCommand },
  export: { summary: "Write a running server's registry as YAML files", run: exportCommand },
  backup: { summary: 'Copy the live SQLite database to a file (online backup)', run: backupCommand },
  restore: { summary: 'Restore a backup into the SQLite database (not while a server holds it)', run: restoreCommand },
  migrate: { summary: 'Apply pending database migrations and exit', run: migrateCommand },
};

/** `tool-registry --version`: the package version and the git commit it was built from. */
export function versionLine(): string {
  const { version, commit } = buildInfo();
  return `tool-registry ${version} (commit ${commit})`;
}

/** `tool-registry --help`: the commands, then every environment variable with its default. */
export function helpText(): string {
  const names = Object.keys(COMMANDS);
  const width = Math.max(...names.map((name) => name.length)) + 2;
  const variables = ENVIRONMENT;
  const nameWidth = Math.max(...variables.map((v) => v.name.length)) + 2;
  const defaultWidth = Math.max(...variables.map((v) => (v.default ?? '-').length)) + 2;
  return [
    'Usage: tool-registry <command> [options]',
    '',
    'Commands:',
    ...names.map((name) => `  ${name.padEnd(width)}${COMMANDS[name].summary}`),
    '',
    '  tool-registry <command> --help   a command and its options',
    '  tool-registry --version          the version and the git commit it was built from',
    '',
    'Environment variables (serve; backup, restore and migrate read DATABASE_URL):',
    `  ${'NAME'.padEnd(nameWidth)}${'DEFAULT'.padEnd(defaultWidth)}MEANING`,
    ...variables.map((v) => `  ${v.name.padEnd(nameWidth)}${(v.default ?? '-').padEnd(defaultWidth)}${v.description}`),
    '',
    'See docs/operations.md for running it in production.',
  ].join('\n');
}

const SERVE_USAGE = `Usage: tool-registry serve

Runs the GraphQL server until SIGTERM or SIGINT. It takes no options: it is
configured by environment variables (tool-registry --help lists them).`;

async function serveCommand(argv: string[]): Promise<number | 'serving'> {
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
    console.log(SERVE_USAGE);
    return 0;
  }
  if (argv.length > 0) {
    console.error(`serve: unexpected argument ${JSON.stringify(argv[0])}\n\n${SERVE_USAGE}`);
    return 2;
  }
  await serverModules().serve();
  return 'serving';
}

/** Runs the command line: its exit code, or 'serving' while the server runs. */
export async function runCli(argv: string[]): Promise<number | 'serving'> {
  const [first, ...rest] = argv;
  if (first === '--version' || first === '-v') {
    console.log(versionLine());
    return 0;
  }
  if (first === undefined) {
    console.error(helpText());
    return 2;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    console.log(helpText());
    return 0;
  }
  const command = COMMANDS[first];
  if (!Object.hasOwn(COMMANDS, first) || !command) {
    console.error(`tool-registry: no command ${JSON.stringify(first)}\n\n${helpText()}`);
    return 2;
  }
  return command.run(rest);
}

if (require.main === module) {
  runCli(process.argv.slice(2)).then(
    (code) => {
      if (code !== 'serving') process.exitCode = code;
    },
    (error) => {
      console.error(`tool-registry: unexpected error: ${(error as Error)?.stack ?? String(error)}`);
      process.exitCode = 1;
    },
  );
}
