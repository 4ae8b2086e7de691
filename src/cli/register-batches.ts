/**
 * How \`tool-registry register\` batches its work: which files it reads and
 * registers together, and how many entries go in one registerBatch.
 */
import type { Entry, FileOutcome, RegistryFile } from '../registry-files';
import { BATCH_ENTRIES, stateOf } from './registry-api';

/** The most JSON one registerBatch carries (the server takes a body of at most 1 MiB). */
const BATCH_BYTES = 768 * 1024;

/** The first entries of the queue that fit in one registerBatch (always at least one). */
export function takeBatch(queue: readonly Entry[]): Entry[] {
  let bytes = 0;
  let count = 0;
  while (count < queue.length && count < BATCH_ENTRIES) {
    bytes += JSON.stringify(queue[count].input).length + 32;
    if (count > 0 && bytes > BATCH_BYTES) break;
    count++;
  }
  return queue.slice(0, count);
}

/** A file that did not pass the local checks. */
export type InvalidFile = Extract<FileOutcome, { ok: false }>;

/** Tool files read and registered together: up to this many entries. */
const GROUP_ENTRIES = 5 * BATCH_ENTRIES;

/**
 * The files in order, as the run takes them: each registry file alone, and
 * consecutive tool files together (their entries are independent), so that
 * a thousand tool files cost a few requests, not two thousand. A group never
 * holds the same tool twice: a second one starts a new group, which reads
 * what the first registered, as one file after another would.
 */
export function groups(outcomes: readonly FileOutcome[]): (InvalidFile | { ok: true; files: RegistryFile[] })[] {
  const result: (InvalidFile | { ok: true; files: RegistryFile[] })[] = [];
  let group: { files: RegistryFile[]; names: Set<string>; entries: number } | null = null;
  for (const outcome of outcomes) {
    if (!outcome.ok) {
      result.push(outcome);
      group = null;
      continue;
    }
    const file = outcome.value;
    const names = file.entries.map((entry) => stateOf(entry).join('\u0000'));
    if (
      group !== null &&
      file.kind === 'tool' &&
      group.entries + file.entries.length <= GROUP_ENTRIES &&
      names.every((name) => !group!.names.has(name))
    ) {
      group.files.push(file);
      group.entries += file.entries.length;
      for (const name of names) group.names.add(name);
      continue;
    }
    const files = [file];
    result.push({ ok: true, files });
    group = file.kind === 'tool' ? { files, names: new Set(names), entries: file.entries.length } : null;
  }
  return result;
}
