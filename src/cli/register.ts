/**
 * `tool-registry register <file-or-dir>…` (`npm run register -- …` in a checkout): registers tool files and registry
 * files (the seed's YAML format) on a running server over GraphQL. What
 * exists with the same fields is left unchanged; what differs is a CONFLICT,
 * or with --update is updated; --dry-run sends every change with dryRun and
 * prints its binding impact. See docs/registry-files.md.
 */
import { parseArgs } from 'node:util';
import {
  compareEntry,
  conflictMessage,
  findYamlFiles,
  linkOf,
  orderLinkChanges,
  readRegistryFile,
  type Entry,
  type Comparison,
  type RegistryFile,
  type StateLookup,
} from '../registry-files';
import { serverOptions, UsageError, workInInvocationFolder } from './args';
import { GraphQLClient, UnreachableError, type GraphQLError } from './client';
import { readStates, register, update } from './registry-api';
import { Output, reportFile, reportInvalid, type EntryResult, type Status } from './register-report';

const USAGE = `Usage: tool-registry register [options] <file-or-dir>...
       (in a checkout: npm run register -- [options] <file-or-dir>...)

Registers tools and registries written in YAML (the seed's format) on a registry server.
Directories are searched recursively for *.yaml and *.yml files. Registry files
(resource_types, resources, projects, tools) are registered before tool files.
An entry that already exists with the same fields is left unchanged; one that
exists and differs is a CONFLICT, unless --update.

Options:
  --url <url>      GraphQL endpoint (default: http://localhost:4000/graphql)
  --token <token>  Bearer token sent as Authorization: an API token, a signed-in user's JWT or an admin token
                   (default: $REGISTRY_TOKEN, else $ADMIN_TOKEN)
  --update         Update what exists and differs: types, resources, projects, links and tools
  --dry-run        Send every change with dryRun (the server checks it and stores nothing),
                   and print what it would do to bindings
  --no-progress    No progress bar, even on a terminal
  -h, --help       Show this help

Exit codes: 0 all succeeded, 1 something failed or was skipped, 2 usage error.`;

interface Options {
  readonly url: string;
  readonly token: string | null;
  readonly dryRun: boolean;
  readonly update: boolean;
  readonly progress: boolean;
}

/** Why a dry run reports an entry without the server's check. */
const NEEDS_EARLIER = 'needs entries earlier in this dry run; checked when they exist';
const NEEDS_FREED_ALIAS = 'takes an alias an earlier entry of this dry run frees; checked when it is free';
const NOT_SENT_UNREACHABLE = 'not sent: the server cannot be reached';
const NOT_SENT_EARLIER_FAILED = 'not sent: an earlier entry of this file failed';
const NOT_SENT_UNREAD = 'not sent: what the registry holds could not be read';
const NOT_SENT_DIFFERS = 'not sent: entries of this file differ from the registry';

/** `tool-registry register …`: the exit code. */
export async function registerCommand(argv: string[]): Promise<number> {
  workInInvocationFolder('register');
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

  const run = new Run(new GraphQLClient(options.url, options.token), options);
  const output = new Output(
    options.progress && ordered.length > 1 && Boolean(process.stdout.isTTY && process.stderr.isTTY),
    ordered.length + found.problems.length,
  );
  const counts: Record<Status, number> = { registered: 0, updated: 0, unchanged: 0, failed: 0, skipped: 0 };

  for (const problem of found.problems) {
    counts.failed++;
    output.file(`FAIL  ${problem.file}: ${problem.message}`, problem.file);
  }
  for (const outcome of ordered) {
    if (!outcome.ok) {
      counts.failed++;
      output.file(reportInvalid(outcome), outcome.file);
      continue;
    }
    const results = await run.file(outcome.value);
    for (const result of results) counts[result.status]++;
    output.file(reportFile(outcome.value, results, options.dryRun), outcome.value.file);
  }
  output.stop();

  if (run.unreachable !== null) console.error(`register: ${run.unreachable}`);
  const files = ordered.length + found.problems.length;
  const would = options.dryRun ? 'would be ' : '';
  console.log(
    `${counts.registered} ${would}registered, ${counts.updated} ${would}updated, ${counts.unchanged} unchanged, ` +
      `${counts.failed} failed, ${counts.skipped} skipped ` +
      `(${files} file${files === 1 ? '' : 's'}${options.dryRun ? '; dry run, nothing stored' : ''})`,
  );
  return counts.failed + counts.skipped > 0 ? 1 : 0;
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
  return {
    options: {
      ...serverOptions(values),
      dryRun: values['dry-run'] ?? false,
      update: values.update ?? false,
      progress: !values['no-progress'],
    },
    paths: positionals,
  };
}

/**
 * One run over the files. It remembers what a dry run only pretended to do,
 * since every dry-run mutation is rolled back: an entry that needs a name it
 * would register, or an alias it would free, cannot be checked by the server.
 */
class Run {
  /** Set once the server could not be reached: everything after is skipped. */
  unreachable: string | null = null;
  /** Names this dry run would register (types, resources, projects, tools). */
  private readonly wouldExist = new Set<string>();
  /** `project\0alias`: aliases this dry run would take off a link. */
  private readonly wouldFree = new Set<string>();

  constructor(
    private readonly client: GraphQLClient,
    private readonly options: Options,
  ) {}

  /**
   * Reads what the registry holds under the file's names, then handles each
   * entry in order. A registry file stops at its first failing entry; one
   * with entries that differ (and no --update) sends nothing at all, and
   * reports every entry that differs.
   */
  async file(file: RegistryFile): Promise<EntryResult[]> {
    const rest = (entries: readonly Entry[], note: string) =>
      entries.map((entry): EntryResult => ({ entry, status: 'skipped', note }));
    if (this.unreachable !== null) return rest(file.entries, NOT_SENT_UNREACHABLE);
    const [first, ...others] = file.entries;
    if (!first) return [];
    let read: Awaited<ReturnType<typeof readStates>>;
    try {
      read = await readStates(this.client, file.entries);
    } catch (error) {
      return [this.lost(first, error), ...rest(others, NOT_SENT_UNREACHABLE)];
    }
    if ('error' in read)
      return [{ entry: first, status: 'failed', error: read.error }, ...rest(others, NOT_SENT_UNREAD)];

    const registry = read.lookup;
    const entries = orderLinkChanges(file.entries, registry).map((entry) => ({
      entry,
      comparison: compareEntry(entry, registry),
    }));
    const stopsAtConflicts = file.kind === 'registry' && !this.options.update;
    if (stopsAtConflicts && entries.some(({ comparison }) => comparison.status === 'differs')) {
      return entries.map(({ entry, comparison }) =>
        comparison.status === 'missing'
          ? rest([entry], NOT_SENT_DIFFERS)[0]
          : this.unchangedOrConflict(entry, comparison),
      );
    }
    const results: EntryResult[] = [];
    for (const { entry, comparison } of entries) {
      if (this.unreachable !== null) results.push(...rest([entry], NOT_SENT_UNREACHABLE));
      else if (file.kind === 'registry' && results.some((r) => r.status === 'failed'))
        results.push(...rest([entry], NOT_SENT_EARLIER_FAILED));
      else results.push(await this.entry(entry, comparison, registry));
    }
    return results;
  }

  /** An entry that exists: unchanged when it is the same, else (without --update) a CONFLICT saying what differs. */
  private unchangedOrConflict(entry: Entry, comparison: Exclude<Comparison, { status: 'missing' }>): EntryResult {
    if (comparison.status === 'same') return { entry, status: 'unchanged' };
    return {
      entry,
      status: 'failed',
      error: { message: conflictMessage(entry, comparison.differences), extensions: { code: 'CONFLICT' } },
    };
  }

  /** Registers or updates an entry as its comparison with the registry says, or says why not. */
  private async entry(entry: Entry, comparison: Comparison, registry: StateLookup): Promise<EntryResult> {
    if (comparison.status === 'same' || (comparison.status === 'differs' && !this.options.update))
      return this.unchangedOrConflict(entry, comparison);
    const status = comparison.status === 'missing' ? 'registered' : 'updated';
    const { dryRun } = this.options;
    if (dryRun && this.takesFreedAlias(entry, registry))
      return this.pretend(entry, status, registry, NEEDS_FREED_ALIAS);
    let outcome;
    try {
      outcome =
        comparison.status === 'missing'
          ? await register(this.client, entry, dryRun)
          : await update(this.client, comparison.update, dryRun);
    } catch (error) {
      return this.lost(entry, error);
    }
    if ('error' in outcome) {
      if (dryRun && this.needsEarlier(entry, outcome.error))
        return this.pretend(entry, status, registry, NEEDS_EARLIER);
      return { entry, status: 'failed', error: outcome.error };
    }
    if (dryRun) this.pretend(entry, status, registry);
    return { entry, status, impact: outcome.payload.impact };
  }

  /** Remembers what a dry run would have done, for the entries after it. */
  private pretend(entry: Entry, status: 'registered' | 'updated', registry: StateLookup, note?: string): EntryResult {
    if (entry.kind === 'link') {
      const before = linkOf(registry, entry.input.project, entry.input.resource)?.alias ?? null;
      if (before !== null && before !== (entry.input.alias ?? null))
        this.wouldFree.add(`${entry.input.project}\u0000${before}`);
    } else if (status === 'registered') {
      this.wouldExist.add(entry.input.name);
    }
    return { entry, status, note };
  }

  /** A link that takes an alias another link holds now, which this dry run would have freed. */
  private takesFreedAlias(entry: Entry, registry: StateLookup): boolean {
    if (entry.kind !== 'link' || entry.input.alias === undefined) return false;
    const holder = registry.project(entry.input.project)?.links.find((l) => l.alias === entry.input.alias);
    return (
      holder !== undefined &&
      holder.resource !== entry.input.resource &&
      this.wouldFree.has(`${entry.input.project}\u0000${entry.input.alias}`)
    );
  }

  /**
   * True when the server refused a dry run only for want of something this
   * dry run would register: a NOT_FOUND that names only such things, or
   * problems with a tool's slots that are all of that kind.
   */
  private needsEarlier(entry: Entry, error: GraphQLError): boolean {
    const code = error.extensions?.code;
    if (code === 'NOT_FOUND') {
      // "no resource type 'x' is registered", "parent types 'a', 'b' are not registered"; hints follow a ";".
      const names = [...error.message.split(';')[0].matchAll(/'([^']+)'/g)].map((m) => m[1]);
      return names.length > 0 && names.every((name) => this.wouldExist.has(name));
    }
    if (code === 'TOOL_VALIDATION_FAILED' && entry.kind === 'tool') {
      const problems = error.extensions?.problems ?? [];
      return (
        problems.length > 0 &&
        problems.every((p) => {
          const slot = entry.input.resourceSlots.find((s) => s.name === p.slot);
          const ref = p.field === 'resourceType' ? slot?.resourceType : slot?.staticResource;
          return (
            (p.field === 'resourceType' || p.field === 'staticResource') &&
            ref !== undefined &&
            this.wouldExist.has(ref)
          );
        })
      );
    }
    return false;
  }

  /** The entry that met an unreachable server; everything after it is skipped. */
  private lost(entry: Entry, error: unknown): EntryResult {
    if (!(error instanceof UnreachableError)) throw error;
    this.unreachable = error.message;
    return { entry, status: 'failed', error: { message: error.message, extensions: { code: 'UNREACHABLE' } } };
  }
}
