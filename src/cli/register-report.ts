/** What `tool-registry register` prints: each file's entries with their outcome and binding impact, and a progress bar. */
import { MultiBar, Presets } from 'cli-progress';
import {
  describeEntry,
  formatProblem,
  locateServerProblem,
  type Entry,
  type EntryKind,
  type FileOutcome,
  type FileProblem,
  type RegistryFile,
} from '../registry-files';
import type { GraphQLError } from './client';
import type { BindingImpact, SlotOutcome } from './registry-api';

/** What happened to one entry (in a dry run: what would happen). */
export type Status = 'registered' | 'updated' | 'unchanged' | 'failed' | 'skipped';

export interface EntryResult {
  readonly entry: Entry;
  readonly status: Status;
  /** For skipped: why. For a dry run's registered or updated: why the server could not check it. */
  readonly note?: string;
  readonly error?: GraphQLError;
  /** What the change did (or would do) to bindings. */
  readonly impact?: BindingImpact;
  /** Registered in one batch with the entries before it: `impact` is the batch's, of this many entries. */
  readonly registeredWith?: number;
}

/** Binding changes listed under an entry; the rest are counted. */
const CHANGES_SHOWN = 10;

/** A file that did not pass the local checks: every problem with its place. */
export function reportInvalid(outcome: Extract<FileOutcome, { ok: false }>): string {
  const n = outcome.problems.length;
  return [
    `FAIL  ${outcome.file}: ${n} problem${n === 1 ? '' : 's'}`,
    ...outcome.problems.map((p) => `        ${formatProblem(p)}`),
  ].join('\n');
}

/**
 * One file's result: a line when everything went well, else a line per entry
 * with the server's error and problems; under an entry, its binding impact.
 */
export function reportFile(file: RegistryFile, results: readonly EntryResult[], dryRun: boolean): string {
  if (results.length === 0) return `ok    ${file.file}: nothing to register (an empty list)`;
  const notDone = results.filter((r) => r.status === 'failed' || r.status === 'skipped');
  if (results.every((r) => r.status === 'skipped')) return `SKIP  ${file.file}: ${results[0].note}`;
  if (notDone.length === 0) {
    if (results.length === 1) {
      const [only] = results;
      return [`ok    ${file.file}: ${describeEntry(only.entry)} ${verbOf(only, dryRun)}`, ...impactLines(only, 4)].join(
        '\n',
      );
    }
    const groups = new Map<string, EntryResult[]>();
    for (const r of results) {
      const verb = verbOf(r, dryRun);
      const group = groups.get(verb);
      if (group) group.push(r);
      else groups.set(verb, [r]);
    }
    const lines = [`ok    ${file.file}: ${[...groups].map(([verb, rs]) => `${tally(rs)} ${verb}`).join('; ')}`];
    for (const r of results.filter((r) => r.impact?.totalCount))
      lines.push(`        ${describeEntry(r.entry)}: ${verbOf(r, dryRun)}`, ...impactLines(r, 12));
    return lines.join('\n');
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
    else if (result.status !== 'failed' || !result.error) lines.push(`${head}${verbOf(result, dryRun)}`);
    else
      lines.push(
        ...describeError(file, result.entry, result.error).map((line, i) =>
          i === 0 ? `${head}${line}` : `          ${line}`,
        ),
      );
    lines.push(...impactLines(result, 12));
  }
  return lines.join('\n');
}

/** "registered", "unchanged", in a dry run "would be updated", and why the server could not check it when it could not. */
function verbOf(result: EntryResult, dryRun: boolean): string {
  if (result.status !== 'registered' && result.status !== 'updated') return result.status;
  const verb = `${dryRun ? 'would be ' : ''}${result.status}`;
  return result.note ? `${verb} (${result.note})` : verb;
}

/**
 * What a change did to bindings, indented under its line: how many slots
 * change, then the first few, e.g. `acme/migrate in shop, slot db: BOUND
 * prod/orders-db → BOUND prod/users-db`. Nothing when nothing changes.
 */
function impactLines({ impact, registeredWith }: EntryResult, indent: number): string[] {
  if (!impact?.totalCount) return [];
  const pad = ' '.repeat(indent);
  const n = impact.totalCount;
  const shown = impact.changes.slice(0, CHANGES_SHOWN);
  const of = registeredWith && registeredWith > 1 ? ` (of the ${registeredWith} entries registered together)` : '';
  return [
    `${pad}impact${of}: ${n}${impact.complete ? '' : ' or more'} binding change${n === 1 ? '' : 's'}`,
    ...shown.map(
      (c) =>
        `${pad}  ${c.toolName} ${c.projectName === null ? '(no project)' : `in ${c.projectName}`}, slot ${c.slotName}: ` +
        `${describeOutcome(c.before)} → ${describeOutcome(c.after)}`,
    ),
    ...(n > shown.length ? [`${pad}  … and ${n - shown.length} more`] : []),
  ];
}

/** `BOUND prod/db`, `FAILED AMBIGUOUS`, `DEFERRED`, `ABSENT`… */
function describeOutcome(outcome: SlotOutcome): string {
  if (outcome.status === 'BOUND') return `BOUND ${outcome.resourceName ?? outcome.resourceId ?? '?'}`;
  if (outcome.status === 'FAILED') return `FAILED ${outcome.reason ?? '?'}`;
  return outcome.status;
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
export function tally(results: readonly EntryResult[]): string {
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
export class Output {
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
