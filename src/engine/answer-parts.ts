/**
 * The answer-part store: parts of answers kept across requests (page assembly,
 * ./page-assembly.ts, keeps the JSON of one item under one selection), each
 * with the dependency keys of what computing it read, so that a later request
 * uses one only while no write since touched any of them. The parts live in a
 * version-keyed cache of their own (RegistryVersioning.keptCache), within
 * ANSWER_PARTS_BYTES; the read session says which version a request reads and
 * whether a part is still right at it, and records what a part used had read.
 */
import type { DependencyKey, ReadSession, RecordCache } from '../application/versioning';

/**
 * The budget of the answer parts kept across requests, as the record cache
 * counts bytes (strings at two a character): at the benchmark's default size,
 * every tool's part of a dashboard page (5,000 of about 940 characters, with
 * their dependencies) is about 11 MB of it.
 */
export const ANSWER_PARTS_BYTES = 16 * 1024 * 1024;

/** The name the parts' cache is kept under (the metrics and the debug route show it). */
export const ANSWER_PARTS_CACHE = 'parts';

/** A part of an answer that a later request may use again: its serialized text, with what its computation read. */
export interface AnswerPart {
  /** Its text, as UTF-8. */
  readonly bytes: Buffer;
  readonly dependencies: readonly DependencyKey[];
}

/** The parts kept across requests, shared by every request. */
export class AnswerPartStore {
  constructor(private readonly parts: RecordCache) {}

  /**
   * The kept parts of `kind` for `keys` that are right at the session's
   * registry version (pinned first; no write since each was computed touched
   * what it read), undefined where none is; what each part found read is
   * recorded in the session, as its answer now depends on it.
   */
  async find(session: ReadSession, kind: string, keys: readonly string[]): Promise<(AnswerPart | undefined)[]> {
    const { version, unchangedSince } = await session.freshness();
    const found = this.parts.lookup<AnswerPart>(version, kind, keys, (_key, part, since) =>
      part === null ? false : unchangedSince(since, part.dependencies),
    );
    return found.map((part) => {
      if (!part) return undefined;
      session.recordDependencies(part.dependencies);
      return part;
    });
  }

  /** Keeps parts computed at the session's pinned version, for later requests (none when it pinned none). */
  keep(session: ReadSession, kind: string, entries: readonly (readonly [string, AnswerPart])[]): void {
    const version = session.pinnedVersion();
    if (version === undefined) return;
    this.parts.store(version, kind, entries);
  }
}
