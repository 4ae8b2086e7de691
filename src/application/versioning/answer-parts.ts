/**
 * The answer-part store: parts of answers kept across requests (GraphQL's
 * page assembly keeps the JSON of one item under one selection), each with
 * the dependency keys of what computing it read, so that a later request
 * uses one only while no write since touched any of them. The parts live in a
 * record cache of their own (SessionCaches.parts), within ANSWER_PARTS_BYTES.
 */
import type { ChangeIndex } from './change-index';
import type { DependencyKey } from './dependencies';
import type { DependencyRecorder } from './dependency-recorder';
import type { RecordCache } from './record-cache';

/**
 * The budget of the answer parts kept across requests, as the record cache
 * counts bytes (strings at two a character): at the benchmark's default size,
 * every tool's part of a dashboard page (5,000 of about 940 characters, with
 * their dependencies) is about 11 MB of it.
 */
export const ANSWER_PARTS_BYTES = 16 * 1024 * 1024;

/** A part of an answer that a later request may use again: its serialized text, with what its computation read. */
export interface AnswerPart {
  /** Its text, as UTF-8. */
  readonly bytes: Buffer;
  readonly dependencies: readonly DependencyKey[];
}

/**
 * The kept parts of `kind` for `keys` that are right at `version` (no write
 * since each was computed touched what it read), undefined where none is;
 * what each part found read is recorded in `recorder`, as the asker's answer
 * now depends on it. The change index must have caught up to `version`
 * (ChangeIndex.caughtUpTo).
 */
export function findParts(
  parts: RecordCache,
  changes: ChangeIndex,
  recorder: DependencyRecorder,
  at: { readonly version: number; readonly kind: string; readonly keys: readonly string[] },
): (AnswerPart | undefined)[] {
  const { version, kind, keys } = at;
  const found = parts.lookup<AnswerPart>(version, kind, keys, (_key, part, since) =>
    part === null ? false : changes.unchangedSinceKnown(since, part.dependencies, version),
  );
  return found.map((part) => {
    if (!part) return undefined;
    recorder.recordDependencies(part.dependencies);
    return part;
  });
}

/** Keeps parts computed at `version`, for later requests. */
export function keepParts(
  parts: RecordCache,
  version: number,
  kind: string,
  entries: readonly (readonly [string, AnswerPart])[],
): void {
  parts.store(version, kind, entries);
}
