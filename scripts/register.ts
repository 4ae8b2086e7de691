/**
 * `npm run register -- <file-or-dir>…`: registers tool files and registry
 * files (the seed's YAML format) on a running server over GraphQL.
 * See the README section "Tool files (YAML) and the register CLI".
 */
import { MultiBar, Presets } from 'cli-progress';
import { parseArgs } from 'node:util';
import {
  describeEntry,
  findYamlFiles,
  formatProblem,
  locateServerProblem,
  readRegistryFile,
  type Entry,
  type EntryKind,
  type FileOutcome,
  type FileProblem,
  type RegistryFile,
} from '../src/registry-files';

const USAGE = `Usage: npm run register -- [options] <file-or-dir>...

Registers tools and registries written in YAML (the seed's format) on a registry server.
Directories are searched recursively for *.yaml and *.yml files. Registry files
(resource_types, resources, projects, tools) are registered before tool files.

Options:
  --url <url>      GraphQL endpoint (default: http://localhost:4000/graphql)
  --token <token>  Bearer token sent as Authorization (default: $ADMIN_TOKEN)
  --dry-run        Check tools with validateTool and store nothing
  --update         Replace tools that already exist (updateTool); new ones are registered
  --no-progress    No progress bar, even on a terminal
  -h, --help       Show this help

Exit codes: 0 all succeeded, 1 something failed, 2 usage error.`;

const DEFAULT_URL = 'http://localhost:4000/graphql';
const REQUEST_TIMEOUT_MS = 30_000;

interface Options {
  readonly url: string;
  readonly token: string | null;
  readonly dryRun: boolean;
  readonly update: boolean;
  readonly progress: boolean;
}

/** A GraphQL error as the server sends it. */
interface GraphQLError {
  message: string;
  extensions?: { code?: string; problems?: { slot?: string | null; field?: string | null; message: string }[] };
}

/** What happened to one entry. */
type Status = 'registered' | 'updated' | 'valid' | 'failed' | 'skipped';

interface EntryResult {
  readonly entry: Entry;
  readonly status: Status;
  /** For valid (dry run): what a real run would do. For skipped: why. */
  readonly note?: string;
  readonly error?: GraphQLError;
}

/** The server could not be reached at all: the run stops. */
class UnreachableError extends Error {}

/** Usage problems: exit code 2. */
class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  // `npm run` starts scripts in the package folder; paths on the command line are relative to where it was typed.
  if (process.env.npm_lifecycle_event === 'register' && process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
  let options: Options;
  let paths: string[];
  try {
    ({ options, paths } = parseCommandLine(argv));
  } catch (error) {
    if (error instanceof UsageError && error.message === 'help') {
      console.log(USAGE);
      return 0;
    }
    console.error(`register: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }

  const found = findYamlFiles(paths);
  if (found.files.length === 0 && found.problems.length === 0) {
    console.error(`register: no .yaml or .yml files in ${paths.join(', ')}`);
    return 2;
  }
  const outcomes = found.files.map((file) => readRegistryFile(file));
  // Registry files first: tool files may use the types and resources they define.
  const ordered = [
    ...outcomes.filter((o) => o.ok && o.value.kind === 'registry'),
    ...outcomes.filter((o) => !(o.ok && o.value.kind === 'registry')),
  ];

  const client = new GraphQLClient(options.url, options.token);
  const output = new Output(
    options.progress && ordered.length > 1 && Boolean(process.stdout.isTTY && process.stderr.isTTY),
    ordered.length + found.problems.length,
  );
  const counts: Record<Status, number> = { registered: 0, updated: 0, valid: 0, failed: 0, skipped: 0 };
  let unreachable: string | null = null;

  for (const problem of found.problems) {
    counts.failed++;
    output.file(`FAIL  ${problem.file}: ${problem.message}`, problem.file);
  }
  for (const outcome of ordered) {
    const name = outcome.ok ? outcome.value.file : outcome.file;
    if (!outcome.ok) {
      counts.failed++;
      output.file(reportInvalid(outcome), name);
      continue;
    }
    const results: EntryResult[] = [];
    for (const entry of outcome.value.entries) {
      const stop =
        unreachable !== null || (outcome.value.kind === 'registry' && results.some((r) => r.status === 'failed'));
      if (stop) {
        results.push({
          entry,
          status: 'skipped',
          note:
            unreachable !== null
              ? 'not sent: the server cannot be reached'
              : 'not sent: an earlier entry of this file failed',
        });
        continue;
      }
      try {
        // A registry file in a dry run is only checked here: its tools may need the types it would register.
        if (options.dryRun && outcome.value.kind === 'registry')
          results.push({ entry, status: 'valid', note: 'would be registered' });
        else results.push(await send(client, entry, options));
      } catch (error) {
        if (!(error instanceof UnreachableError)) throw error;
        unreachable = error.message;
        results.push({
          entry,
          status: 'failed',
          error: { message: error.message, extensions: { code: 'UNREACHABLE' } },
        });
      }
    }
    for (const result of results) counts[result.status]++;
    output.file(reportFile(outcome.value, results), name);
  }
  output.stop();

  if (unreachable !== null) console.error(`register: ${unreachable}`);
  const files = ordered.length + found.problems.length;
  const parts = options.dryRun
    ? [`${counts.valid} valid`, `${counts.failed} failed`, `${counts.skipped} skipped`]
    : [
        `${counts.registered} registered`,
        ...(options.update ? [`${counts.updated} updated`] : []),
        `${counts.failed} failed`,
        `${counts.skipped} skipped`,
      ];
  console.log(
    `${parts.join(', ')} (${files} file${files === 1 ? '' : 's'}${options.dryRun ? '; dry run, nothing stored' : ''})`,
  );
  return counts.failed > 0 ? 1 : 0;
}

function parseCommandLine(argv: string[]): { options: Options; paths: string[] } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        'dry-run': { type: 'boolean' },
        update: { type: 'boolean' },
        'no-progress': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) throw new UsageError('help');
  if (positionals.length === 0) throw new UsageError('name at least one file or directory');
  const url = values.url ?? DEFAULT_URL;
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new UsageError(`--url is not a URL: ${url}`);
  }
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new UsageError(`--url must be an http:// or https:// URL: ${url}`);
  const token = values.token ?? process.env.ADMIN_TOKEN ?? '';
  return {
    options: {
      url,
      token: token === '' ? null : token,
      dryRun: values['dry-run'] ?? false,
      update: values.update ?? false,
      progress: !values['no-progress'],
    },
    paths: positionals,
  };
}

const MUTATIONS: Record<Exclude<EntryKind, 'tool'>, { operation: string; inputType: string }> = {
  resourceType: { operation: 'registerResourceType', inputType: 'RegisterResourceTypeInput' },
  resource: { operation: 'registerResource', inputType: 'RegisterResourceInput' },
  project: { operation: 'createProject', inputType: 'CreateProjectInput' },
  link: { operation: 'linkResource', inputType: 'LinkResourceInput' },
};

const REGISTER_TOOL = 'mutation Register($i: RegisterToolInput!) { registerTool(input: $i) { registryVersion } }';
const UPDATE_TOOL = 'mutation Update($i: UpdateToolInput!) { updateTool(input: $i) { registryVersion } }';
const VALIDATE_TOOL =
  'query Validate($i: RegisterToolInput!, $name: String!) { validateTool(input: $i) { slot field message } tool(ref: $name) { id } }';

/** Sends one entry: the mutation that registers it, or in a dry run what can be checked without storing. */
async function send(client: GraphQLClient, entry: Entry, options: Options): Promise<EntryResult> {
  if (entry.kind !== 'tool') {
    const { operation, inputType } = MUTATIONS[entry.kind];
    const { errors } = await client.request(
      `mutation Register($i: ${inputType}!) { ${operation}(input: $i) { registryVersion } }`,
      {
        i: entry.input,
      },
    );
    return errors ? { entry, status: 'failed', error: errors[0] } : { entry, status: 'registered' };
  }

  if (options.dryRun) {
    const { data, errors } = await client.request<{
      validateTool: { slot: string | null; field: string; message: string }[];
      tool: { id: string } | null;
    }>(VALIDATE_TOOL, {
      i: entry.input,
      name: entry.input.name,
    });
    if (errors || !data)
      return { entry, status: 'failed', error: errors?.[0] ?? { message: 'no data in the response' } };
    if (data.validateTool.length > 0) {
      const n = data.validateTool.length;
      return {
        entry,
        status: 'failed',
        error: {
          message: `${n} problem${n === 1 ? '' : 's'}`,
          extensions: { code: 'TOOL_VALIDATION_FAILED', problems: data.validateTool },
        },
      };
    }
    if (data.tool && !options.update) {
      return {
        entry,
        status: 'failed',
        error: {
          message: `a tool named '${entry.input.name}' already exists (--update replaces it)`,
          extensions: { code: 'CONFLICT' },
        },
      };
    }
    return { entry, status: 'valid', note: data.tool ? 'would be updated' : 'would be registered' };
  }

  if (options.update) {
    const updated = await client.request(UPDATE_TOOL, { i: entry.input });
    if (!updated.errors) return { entry, status: 'updated' };
    // Not there yet: --update registers it.
    if (updated.errors[0].extensions?.code !== 'NOT_FOUND')
      return { entry, status: 'failed', error: updated.errors[0] };
  }
  const { errors } = await client.request(REGISTER_TOOL, { i: entry.input });
  return errors ? { entry, status: 'failed', error: errors[0] } : { entry, status: 'registered' };
}

/** POSTs GraphQL requests, with the bearer token when there is one. */
class GraphQLClient {
  constructor(
    private readonly url: string,
    private readonly token: string | null,
  ) {}

  async request<T = unknown>(
    query: string,
    variables: Record<string, unknown>,
  ): Promise<{ data?: T | null; errors?: GraphQLError[] }> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        },
        body: JSON.stringify({ query, variables }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new UnreachableError(
        `cannot reach ${this.url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      );
    }
    const text = await response.text();
    let body: { data?: T | null; errors?: GraphQLError[] } | null;
    try {
      body = JSON.parse(text) as { data?: T | null; errors?: GraphQLError[] } | null;
    } catch {
      body = null;
    }
    if (!body || typeof body !== 'object' || (!('data' in body) && !Array.isArray(body.errors))) {
      return {
        errors: [
          {
            message: `HTTP ${response.status} ${response.statusText}: not a GraphQL response (${text.slice(0, 120).trim() || 'empty body'})`,
            extensions: { code: `HTTP_${response.status}` },
          },
        ],
      };
    }
    return { data: body.data, errors: body.errors?.length ? body.errors : undefined };
  }
}

/** A file that did not pass the local checks: every problem with its place. */
function reportInvalid(outcome: Extract<FileOutcome, { ok: false }>): string {
  const n = outcome.problems.length;
  return [
    `FAIL  ${outcome.file}: ${n} problem${n === 1 ? '' : 's'}`,
    ...outcome.problems.map((p) => `        ${formatProblem(p)}`),
  ].join('\n');
}

/** One file's result: a line when everything went well, else a line per entry with the server's error and problems. */
function reportFile(file: RegistryFile, results: readonly EntryResult[]): string {
  if (results.length === 0) return `ok    ${file.file}: nothing to register (an empty list)`;
  const notDone = results.filter((r) => r.status === 'failed' || r.status === 'skipped');
  if (results.every((r) => r.status === 'skipped')) return `SKIP  ${file.file}: ${results[0].note}`;
  if (notDone.length === 0) {
    if (results.length === 1) return `ok    ${file.file}: ${describeEntry(results[0].entry)} ${verbOf(results[0])}`;
    const groups = new Map<string, EntryResult[]>();
    for (const r of results) groups.set(verbOf(r), [...(groups.get(verbOf(r)) ?? []), r]);
    return `ok    ${file.file}: ${[...groups].map(([verb, rs]) => `${tally(rs)} ${verb}`).join('; ')}`;
  }
  if (results.length === 1 && results[0].error) {
    const [first, ...more] = describeError(file, results[0].entry, results[0].error);
    return [
      `FAIL  ${file.file}: ${describeEntry(results[0].entry)}: ${first}`,
      ...more.map((line) => `        ${line}`),
    ].join('\n');
  }
  const lines = [`FAIL  ${file.file}: ${notDone.length} of ${results.length} entries not done`];
  for (const result of results) {
    const head = `        ${describeEntry(result.entry)}: `;
    if (result.status === 'skipped') lines.push(`${head}skipped (${result.note})`);
    else if (result.status !== 'failed' || !result.error) lines.push(`${head}${verbOf(result)}`);
    else
      lines.push(
        ...describeError(file, result.entry, result.error).map((line, i) =>
          i === 0 ? `${head}${line}` : `          ${line}`,
        ),
      );
  }
  return lines.join('\n');
}

/** "registered", "updated", or in a dry run what would happen. */
function verbOf(result: EntryResult): string {
  return result.status === 'valid' ? (result.note ?? 'valid') : result.status;
}

/** The error code and message; problems each on a line with their place in the file. */
function describeError(file: RegistryFile, entry: Entry, error: GraphQLError): string[] {
  const code = error.extensions?.code ?? 'ERROR';
  const problems = error.extensions?.problems ?? [];
  if (problems.length === 0) return [`${code}: ${error.message}`];
  const located: FileProblem[] = problems.map((p) => ({
    file: file.file,
    ...locateServerProblem(file, entry, p),
    message: p.message,
  }));
  located.sort(
    (a, b) =>
      (a.position?.line ?? 0) - (b.position?.line ?? 0) || (a.position?.column ?? 0) - (b.position?.column ?? 0),
  );
  return [`${code} (${problems.length} problem${problems.length === 1 ? '' : 's'})`, ...located.map(formatProblem)];
}

/** e.g. "2 resource types, 2 resources, 1 project, 1 link". */
function tally(results: readonly EntryResult[]): string {
  const names: Record<EntryKind, [string, string]> = {
    resourceType: ['resource type', 'resource types'],
    resource: ['resource', 'resources'],
    project: ['project', 'projects'],
    link: ['link', 'links'],
    tool: ['tool', 'tools'],
  };
  const byKind = new Map<EntryKind, number>();
  for (const r of results) byKind.set(r.entry.kind, (byKind.get(r.entry.kind) ?? 0) + 1);
  return [...byKind].map(([kind, n]) => `${n} ${names[kind][n === 1 ? 0 : 1]}`).join(', ');
}

/** Prints per-file results, above a progress bar when there is one. */
class Output {
  private readonly bars: MultiBar | null;
  private readonly bar: ReturnType<MultiBar['create']> | null;

  constructor(progress: boolean, total: number) {
    this.bars = progress
      ? new MultiBar(
          {
            format: 'register {bar} {value}/{total} files  {file}',
            hideCursor: true,
            clearOnComplete: true,
            stream: process.stderr,
          },
          Presets.shades_classic,
        )
      : null;
    this.bar = this.bars ? this.bars.create(total, 0, { file: '' }) : null;
  }

  file(text: string, name: string): void {
    if (this.bars && this.bar) {
      this.bars.log(`${text}\n`);
      this.bar.increment(1, { file: name });
      // Draw now: the log lines would otherwise wait for the next frame, and stop() drops what is still waiting.
      this.bars.update();
    } else {
      console.log(text);
    }
  }

  stop(): void {
    this.bars?.update();
    this.bars?.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`register: unexpected error: ${(error as Error)?.stack ?? String(error)}`);
    process.exitCode = 1;
  },
);
