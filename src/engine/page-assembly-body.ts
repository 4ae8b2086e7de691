/**
 * The body of an assembled page (./page-assembly.ts): the skeleton's JSON
 * with a marker where each item goes, then each marker replaced by the
 * item's kept part.
 */
import { randomBytes } from 'node:crypto';

/** The placeholder of an item in the skeleton's JSON (then its number; see markerOf): random per process, so no data can spell it. Then the same with its opening quote, and the newline Apollo ends a body with. */
const MARKER = `@part-${randomBytes(12).toString('hex')}:`;
const MARKER_TEXT = `"${MARKER}`;
const MARKER_START = Buffer.from(MARKER_TEXT);
const NEWLINE = Buffer.from('\n');

/**
 * The answer's body, as Apollo sends it (`{"data":…}` and a newline): the
 * JSON of `data`, in which item `i` is `markerOf(i)`, with each marker
 * replaced by `parts[i]`; null when the markers are not found as placed,
 * one of each, in item order.
 */
export function bodyWithParts(data: Record<string, unknown>, parts: readonly Buffer[]): Buffer | null {
  const text = JSON.stringify({ data });
  const skeletonBytes = Buffer.from(text);
  // An ASCII skeleton (cursors, counts, ids: the usual) has a byte per character, so its markers are found in
  // the string, by a builtin, rather than by a call into C++ for each; any other is searched as bytes.
  const ascii = skeletonBytes.length === text.length;
  const source = ascii ? text : skeletonBytes;
  const find = ascii
    ? (from: number) => text.indexOf(MARKER_TEXT, from)
    : (from: number) => skeletonBytes.indexOf(MARKER_START, from);
  const pieces: Buffer[] = [];
  let from = 0;
  for (let index = 0; index < parts.length; index++) {
    // The markers come in item order: the next one found must be this item's, `"<MARKER><index>"`.
    const at = find(from);
    const end = at < 0 ? -1 : endOfMarker(source, at + MARKER_START.length, index);
    if (end < 0) return null;
    pieces.push(skeletonBytes.subarray(from, at), parts[index]);
    from = end;
  }
  if (find(from) >= 0) return null;
  pieces.push(skeletonBytes.subarray(from), NEWLINE);
  return Buffer.concat(pieces);
}

/**
 * Where the marker of item `index` ends (past its closing quote), its digits
 * starting at `at` in the skeleton's text or bytes; -1 if they are not there.
 */
function endOfMarker(source: string | Buffer, at: number, index: number): number {
  const rest = `${index}"`;
  const found =
    typeof source === 'string' ? source.startsWith(rest, at) : source.toString('latin1', at, at + rest.length) === rest;
  return found ? at + rest.length : -1;
}

/** The markers of the first items, made once (as flat strings, which JSON.stringify copies without joining them first). */
const MARKERS: string[] = [];
const MARKERS_KEPT = 1000;

export function markerOf(index: number): string {
  if (index >= MARKERS_KEPT) return `${MARKER}${index}`;
  while (MARKERS.length <= index) MARKERS.push(Buffer.from(`${MARKER}${MARKERS.length}`).toString('latin1'));
  return MARKERS[index];
}
