/**
 * Reading the change log newest first. The API lists it oldest first
 * (`changes(first, after, filter)`), and its filter can ask for the entries
 * after a registry version (`sinceVersion`), with their count (`totalCount`).
 * So the dashboard finds versions by counting: f(v), the number of entries
 * that match the filter and come after version v, never grows as v grows, and
 * a search over v finds
 *
 * - the newest version in the log (the smallest v with f(v) = 0), where the
 *   page's live subscription starts, and
 * - the bounds of a page of about `size` entries, newest first: versions
 *   (lo, hi], with lo the largest version that leaves at least `size` entries
 *   after it. Pages never split a version, so the entries one mutation wrote
 *   (a forced delete's unlinks and the delete) stay together.
 *
 * Each request counts up to 15 versions at once (the server's alias limit),
 * so a search takes about log₁₆ of the number of versions requests.
 *
 * No DOM here: the tests import this module.
 */
import { MAX_COUNTS_PER_REQUEST, type ChangeEntry, type ChangeFilter } from './operations';

/** f(v) for each v: how many entries matching the filter come after each version. */
export type CountAfter = (versions: readonly number[]) => Promise<number[]>;

/** Counts already known for one filter (f(v) by v), so a search and the next page's search share them. */
export type KnownCounts = Map<number, number>;

/** Counts what `known` lacks, in requests of at most 15. */
async function countAll(countAfter: CountAfter, known: KnownCounts, versions: readonly number[]): Promise<void> {
  const missing = [...new Set(versions)].filter((v) => !known.has(v));
  for (let i = 0; i < missing.length; i += MAX_COUNTS_PER_REQUEST) {
    const chunk = missing.slice(i, i + MAX_COUNTS_PER_REQUEST);
    const counts = await countAfter(chunk);
    chunk.forEach((v, j) => known.set(v, counts[j]));
  }
}

/**
 * The smallest version v ≥ 0 with f(v) < target. `upper`, when given, is a
 * version already known to satisfy it (f(upper) < target).
 */
export async function smallestVersionBelow(
  countAfter: CountAfter,
  target: number,
  known: KnownCounts = new Map(),
  upper?: number,
): Promise<number> {
  const below = (v: number) => known.get(v)! < target;
  let low = 0;
  let high: number;
  if (upper === undefined) {
    // 0, then powers of 4, until one is below the target: brackets the answer in a request or two.
    let probes = [0, ...Array.from({ length: MAX_COUNTS_PER_REQUEST - 1 }, (_, i) => 4 ** i)];
    for (;;) {
      await countAll(countAfter, known, probes);
      const found = probes.find(below);
      if (found !== undefined) {
        high = found;
        low = Math.max(low, ...probes.filter((v) => v < found));
        break;
      }
      const last = probes[probes.length - 1];
      low = last;
      probes = Array.from({ length: MAX_COUNTS_PER_REQUEST }, (_, i) => last * 4 ** (i + 1));
      if (!Number.isSafeInteger(probes[probes.length - 1])) throw new Error('the change log has no end');
    }
  } else {
    high = upper;
    await countAll(countAfter, known, [0, high]);
  }
  if (below(0)) return 0;
  // Invariant: f(low) ≥ target > f(high). Split the gap into 16 parts per request.
  while (high - low > 1) {
    const step = (high - low) / (MAX_COUNTS_PER_REQUEST + 1);
    const from = low;
    const to = high;
    const probes = [
      ...new Set(Array.from({ length: MAX_COUNTS_PER_REQUEST }, (_, i) => Math.round(from + step * (i + 1)))),
    ]
      .filter((v) => v > from && v < to)
      .sort((a, b) => a - b);
    await countAll(countAfter, known, probes);
    for (const v of probes) {
      if (below(v)) {
        high = v;
        break;
      }
      low = v;
    }
  }
  return high;
}

/** Where a page of the log, newest first, starts and ends: the entries of versions lo < version ≤ hi (hi null: the newest). */
export interface PageBounds {
  readonly lo: number;
  readonly hi: number | null;
}

/**
 * The page that ends at `hi` (null: at the newest entry) and holds at least
 * `size` entries, or every older one when fewer are left (then lo is 0).
 */
export async function pageEndingAt(
  countAfter: CountAfter,
  size: number,
  hi: number | null,
  known: KnownCounts,
): Promise<PageBounds> {
  let afterHi = 0;
  if (hi !== null) {
    await countAll(countAfter, known, [hi]);
    afterHi = known.get(hi)!;
  }
  const v = await smallestVersionBelow(countAfter, afterHi + size, known, hi ?? undefined);
  return { lo: Math.max(0, v - 1), hi };
}

/** One entry of a page, with what it takes to fetch its details later. */
export interface PagedEntry {
  readonly entry: ChangeEntry;
  /** The cursor of the entry before it under `filter` (null: it is the first entry after filter.sinceVersion). */
  readonly after: string | null;
  /** The filter it was listed under (the page's, with sinceVersion: lo). */
  readonly filter: ChangeFilter;
}

/** A page of the log, newest first. */
export interface LogPage {
  readonly bounds: PageBounds;
  readonly entries: readonly PagedEntry[];
  /** True when the page's versions hold more entries than were read (over `cap`). */
  readonly truncated: boolean;
}

/** One request for entries, oldest first (the `changes` query). */
export type ListChanges = (
  filter: ChangeFilter,
  first: number,
  after: string | null,
) => Promise<{
  readonly edges: readonly { readonly cursor: string; readonly node: ChangeEntry }[];
  readonly hasNextPage: boolean;
}>;

/** Reads the entries of versions (lo, hi], 100 a request and at most `cap`, and returns them newest first. */
export async function readPage(
  listChanges: ListChanges,
  filter: ChangeFilter,
  bounds: PageBounds,
  cap = 500,
): Promise<LogPage> {
  const pageFilter: ChangeFilter = { ...filter, sinceVersion: bounds.lo };
  const read: PagedEntry[] = [];
  let after: string | null = null;
  let truncated = false;
  for (;;) {
    const page = await listChanges(pageFilter, 100, after);
    let past = false;
    for (const edge of page.edges) {
      if (bounds.hi !== null && edge.node.version > bounds.hi) {
        past = true;
        break;
      }
      if (read.length >= cap) {
        truncated = true;
        past = true;
        break;
      }
      read.push({ entry: edge.node, after, filter: pageFilter });
      after = edge.cursor;
    }
    if (past || !page.hasNextPage || page.edges.length === 0) break;
  }
  return { bounds, entries: read.reverse(), truncated };
}
