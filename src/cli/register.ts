/**
 * `tool-registry register <file-or-dir>…` (`npm run register -- …` in a checkout): registers tool files and registry
 * files (the seed's YAML format) on a running server over GraphQL. What
 * exists with the same fields is left unchanged; what differs is a CONFLICT,
 * or with --update is updated; --dry-run sends every change with dryRun and
 * prints its binding impact. See docs/registry-files.md.
 */
import { randomUUID } from 'node:crypto';
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
import { groups, takeBatch } from './register-batches';
import { emptyKinds, readStates, register, registerBatch, update } from './registry-api';
import { Output, reportFile, reportInvalid, type EntryResult, type Status } from './register-report';

const USAGE = `Usage: tool-registry register [options] <file-or-dir>...
       (in a checkout: npm run register -- [options] <file-or-dir>...)

Registers tools and registries written in YAML (the seed's format) on a registry server.
Directories are searched recursively for *.yaml and *.yml files. Registry files
(resource_types, resources, projects, tools) are registered before tool files.
An entry that already exists with the same fields is left unchanged; one that
exists and differs is a CONFLICT, unless --update. What is missing is registered
in batches (registerBatch: up to 1,000 entries in one transaction each, every
entry checked and logged as on its own); a dry run sends one entry at a time.

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
  for (const group of groups(ordered)) {
    if (!group.ok) {
      counts.failed++;
      output.file(reportInvalid(group), group.file);
      continue;
    }
    const resultsOf = await run.files(group.files);
    group.files.forEach((file, i) => {
      for (const result of resultsOf[i]) counts[result.status]++;
      output.file(reportFile(file, resultsOf[i], options.dryRun), file.file);
    });
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
   * Reads what the registry holds under the files' names, then handles each
   * entry in order: what is missing is registered in batches (registerBatch,
   * one transaction each), what differs is updated one by one (with
   * --update). A registry file comes alone: it stops at its first failing
   * entry, and one with entries that differ (and no --update) sends nothing
   * at all, and reports every entry that differs. Tool files come in groups
   * (see `groups`), each entry on its own.
   */
  async files(files: readonly RegistryFile[]): Promise<EntryResult[][]> {
    const all = files.flatMap((file) => file.entries);
    const rest = (entries: readonly Entry[], note: string) =>
      entries.map((entry): EntryResult => ({ entry, status: 'skipped', note }));
    const perFile = (results: readonly EntryResult[]) => {
      let at = 0;
      return files.map((file) => results.slice(at, (at += file.entries.length)));
    };
    if (this.unreachable !== null) return perFile(rest(all, NOT_SENT_UNREACHABLE));
    const [first, ...others] = all;
    if (!first) return files.map(() => []);
    let read: Awaited<ReturnType<typeof readStates>>;
    try {
      // A kind the registry holds none of needs no lookup (an export registered into an empty registry reads nothing).
      const none = await emptyKinds(this.client);
      read = 'error' in none ? none : await readStates(this.client, all, none);
    } catch (error) {
      return perFile([this.lost(first, error), ...rest(others, NOT_SENT_UNREACHABLE)]);
    }
    if ('error' in read)
      return perFile([{ entry: first, status: 'failed', error: read.error }, ...rest(others, NOT_SENT_UNREAD)]);

    const registry = read.lookup;
    const entries = files.flatMap((file) =>
      orderLinkChanges(file.entries, registry).map((entry) => ({ entry, comparison: compareEntry(entry, registry) })),
    );
    const stopsAtFailure = files[0].kind === 'registry';
    if (stopsAtFailure && !this.options.update && entries.some(({ comparison }) => comparison.status === 'differs')) {
      return perFile(
        entries.map(({ entry, comparison }) =>
          comparison.status === 'missing'
            ? rest([entry], NOT_SENT_DIFFERS)[0]
            : this.unchangedOrConflict(entry, comparison),
        ),
      );
    }
    const results: EntryResult[] = [];
    const batch: Entry[] = [];
    const failed = () => stopsAtFailure && results.some((r) => r.status === 'failed');
    const flush = async () => {
      results.push(...(await this.registerAll(batch.splice(0), stopsAtFailure)));
    };
    for (const { entry, comparison } of entries) {
      if (comparison.status === 'missing' && !this.options.dryRun && this.unreachable === null && !failed()) {
        batch.push(entry);
        continue;
      }
      await flush();
      if (this.unreachable !== null) results.push(...rest([entry], NOT_SENT_UNREACHABLE));
      else if (failed()) results.push(...rest([entry], NOT_SENT_EARLIER_FAILED));
      else results.push(await this.entry(entry, comparison, registry));
    }
    await flush();
    return perFile(results);
  }

  /**
   * Registers entries in batches of at most BATCH_ENTRIES and BATCH_BYTES.
   * A batch is all or none: when one entry fails, the entries before it are
   * sent again as a batch of their own, and those after it are sent on (or,
   * with `stopsAtFailure`, skipped).
   *
   * The next batches (BATCHES_AHEAD) are sent while one is on its way (so
   * that the server checks them while it stores the one before), each keyed
   * to follow the one before it (registerBatch's `after`): the server
   * registers one only if the one before it committed, and nothing came
   * between. When a batch failed, those sent ahead were refused
   * (PRECONDITION_FAILED) and are dropped: what follows is decided as above.
   * One refused because another write came between is sent again on its own.
   */
  private async registerAll(entries: readonly Entry[], stopsAtFailure: boolean): Promise<EntryResult[]> {
    const results = new Map<Entry, EntryResult>();
    const skip = (rest: readonly Entry[], note: string) => {
      for (const entry of rest) results.set(entry, { entry, status: 'skipped', note });
    };
    let queue = [...entries];
    // The batches sent ahead, in order: each follows the one before it, the first the one being answered.
    const ahead: SentBatch[] = [];
    const dropAhead = async () => {
      for (const batch of ahead.splice(0)) await batch.outcome.catch(() => undefined);
    };
    while (queue.length > 0) {
      if (this.unreachable !== null) {
        skip(queue, NOT_SENT_UNREACHABLE);
        break;
      }
      let sent: SentBatch = ahead.shift() ?? this.send(takeBatch(queue));
      const rest = queue.slice(sent.chunk.length);
      let covered = ahead.reduce((n, batch) => n + batch.chunk.length, sent.chunk.length);
      while (ahead.length < BATCHES_AHEAD && covered < queue.length) {
        const next = this.send(takeBatch(queue.slice(covered)), (ahead.at(-1) ?? sent).key);
        ahead.push(next);
        covered += next.chunk.length;
      }
      const { chunk } = sent;
      let outcome;
      try {
        outcome = await sent.outcome;
        // Sent to follow a batch that committed, and refused: another write came between. Again, on its own.
        if ('error' in outcome && outcome.error.extensions?.code === PRECONDITION_FAILED && sent.after) {
          sent = this.send(chunk, undefined, sent.key);
          outcome = await sent.outcome;
        }
      } catch (error) {
        await dropAhead();
        results.set(chunk[0], this.lost(chunk[0], error));
        skip(queue.slice(1), NOT_SENT_UNREACHABLE);
        break;
      }
      if (!('error' in outcome)) {
        chunk.forEach((entry, i) =>
          results.set(entry, {
            entry,
            status: 'registered',
            ...(i === chunk.length - 1 ? { impact: outcome.payload.impact, registeredWith: chunk.length } : {}),
          }),
        );
        queue = rest;
        continue;
      }
      // This batch failed: those sent ahead to follow it were refused, and registered nothing.
      await dropAhead();
      // The entry is named where it is reported: the message need not say "entry N: " too.
      const error = { ...outcome.error, message: outcome.error.message.replace(/^entry \d+: /, '') };
      const index = outcome.error.extensions?.entry;
      if (typeof index !== 'number' || index < 0 || index >= chunk.length) {
        // Not one entry's failure (e.g. the credential): none of the batch was registered.
        for (const entry of chunk) results.set(entry, { entry, status: 'failed', error });
        queue = rest;
        if (stopsAtFailure) skip(queue.splice(0), NOT_SENT_EARLIER_FAILED);
        continue;
      }
      results.set(chunk[index], { entry: chunk[index], status: 'failed', error });
      // The entries before the failing one were rolled back with it: they go again, and those after it go on
      // (or, with `stopsAtFailure`, are skipped).
      const after = queue.slice(index + 1);
      if (stopsAtFailure) skip(after, NOT_SENT_EARLIER_FAILED);
      queue = [...chunk.slice(0, index), ...(stopsAtFailure ? [] : after)];
    }
    return entries.map((entry) => results.get(entry)!);
  }

  /** Sends a batch under a new key (or `key`), to follow the batch of `after` when given; does not wait. */
  private send(chunk: Entry[], after?: string, key: string = randomUUID()): SentBatch {
    const outcome = registerBatch(this.client, chunk, { key, after });
    // Awaited later (or dropped once its predecessor failed): never an unhandled rejection meanwhile.
    outcome.catch(() => undefined);
    return { chunk, key, after, outcome };
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

/** A registerBatch on its way: its entries, its key, the key of the batch it follows, and its answer to come. */
interface SentBatch {
  readonly chunk: Entry[];
  readonly key: string;
  readonly after: string | undefined;
  readonly outcome: ReturnType<typeof registerBatch>;
}

/** The code a batch sent to follow another gets when that one is not the last write (see registerAll). */
const PRECONDITION_FAILED = 'PRECONDITION_FAILED';

/** How many batches are on their way behind the one being answered (see registerAll). */
const BATCHES_AHEAD = 2;
