/**
 * A result without errors as the bytes of its HTTP body: exactly
 * `${JSON.stringify({ data })}\n` in UTF-8 (Apollo's serialization), but
 * written piece by piece into one Buffer, so that no string as long as the
 * whole answer is ever made.
 *
 * Why: a string longer than V8's largest regular object (about 128 KB; a
 * 20 × 50 binding matrix is 140 KB) is allocated in the large-object space,
 * which only a full mark-compact collects. At a few hundred such answers a
 * second that was a mark-compact every 150 ms, a tenth of the thread. The
 * pieces here are short strings, collected young; the answer itself lives in
 * the Buffer, outside the JavaScript heap, and is sent as it is (no second
 * pass to count its bytes, no conversion when it is written).
 *
 * Every value is still turned into text by JSON.stringify, so the text is its
 * text: this module only walks the containers above the leaves (to a bounded
 * depth), and turns a long list into text a batch of items at a time.
 *
 * That walk costs more than one JSON.stringify of a small answer (10 against
 * 3.5 µs for a 1 KB resolveBindings answer), so an answer whose estimated
 * size is below LARGE_CHARS is written by one JSON.stringify, as before.
 */

/** How many items of a long list are turned into text by one JSON.stringify. */
const BATCH = 64;
/** How deep the walk goes before it leaves a whole value to JSON.stringify. */
const MAX_DEPTH = 6;
/** Pieces are joined until this many characters before they are set aside. */
const PIECE_CHARS = 8 * 1024;

/** Answers estimated at fewer characters than this are written by one JSON.stringify: far below V8's 128 KB. */
export const LARGE_CHARS = 32 * 1024;

/** The body of an answer with `data` and nothing else: its text when it is small, else its bytes, written in pieces. */
export function answerBody(data: unknown): string | Buffer {
  return estimatedChars(data) < LARGE_CHARS ? `${JSON.stringify({ data })}\n` : piecewiseBody(data);
}

/**
 * About how many characters a value's JSON has, cheaply: a list counts as its length times its first item. Only
 * chooses how an answer is written (both ways give the same text), so a list of uneven items may be misjudged.
 */
export function estimatedChars(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (value === null || typeof value !== 'object') return 8;
  if (Array.isArray(value)) {
    const items: readonly unknown[] = value;
    return items.length === 0 ? 2 : items.length * (estimatedChars(items[0]) + 1);
  }
  let chars = 2;
  const object = value as Record<string, unknown>;
  for (const key in object) chars += key.length + 4 + estimatedChars(object[key]);
  return chars;
}

/** The body of an answer with `data` and nothing else, always written in pieces. */
export function piecewiseBody(data: unknown): Buffer {
  if (data === undefined) return Buffer.from(`${JSON.stringify({ data })}\n`);
  const pieces = new Pieces();
  pieces.add('{"data":');
  write(data, 0, pieces);
  pieces.add('}\n');
  return pieces.toBuffer();
}

/** What JSON.stringify leaves out of an object (and writes as null in a list). */
function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function write(value: unknown, depth: number, pieces: Pieces): void {
  if (
    value === null ||
    typeof value !== 'object' ||
    depth >= MAX_DEPTH ||
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  ) {
    pieces.add(JSON.stringify(value) ?? 'null');
    return;
  }
  if (Array.isArray(value)) {
    const items: readonly unknown[] = value;
    if (items.length > BATCH) {
      // "[a,b" + ",c,d" + … + "]": each batch's text without its brackets.
      for (let from = 0; from < items.length; from += BATCH) {
        const text = JSON.stringify(items.slice(from, from + BATCH));
        if (from > 0) pieces.add(',');
        pieces.add(from === 0 ? text.slice(0, -1) : text.slice(1, -1));
      }
      pieces.add(']');
      return;
    }
    pieces.add('[');
    items.forEach((item, i) => {
      if (i > 0) pieces.add(',');
      if (isSkipped(item)) pieces.add('null');
      else write(item, depth + 1, pieces);
    });
    pieces.add(']');
    return;
  }
  const object = value as Record<string, unknown>;
  let first = true;
  pieces.add('{');
  for (const key of Object.keys(object)) {
    const item = object[key];
    if (isSkipped(item)) continue;
    pieces.add(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
    first = false;
    write(item, depth + 1, pieces);
  }
  pieces.add('}');
}

/**
 * Short strings, joined a few kilobytes at a time, then written into one
 * Buffer. A piece that is long already (a batch of a list's items) is set
 * aside as it is: joined, it would be copied once more when the joined string
 * is flattened to be written (in an allocation profile of the 20 × 50 matrix
 * load, that copy was 5 % of everything the server allocated).
 */
class Pieces {
  private readonly done: string[] = [];
  private current = '';

  add(text: string): void {
    if (text.length >= PIECE_CHARS / 4) {
      if (this.current !== '') this.done.push(this.current);
      this.current = '';
      this.done.push(text);
      return;
    }
    this.current += text;
    if (this.current.length >= PIECE_CHARS) {
      this.done.push(this.current);
      this.current = '';
    }
  }

  toBuffer(): Buffer {
    if (this.current !== '') this.done.push(this.current);
    let bytes = 0;
    for (const piece of this.done) bytes += Buffer.byteLength(piece, 'utf8');
    const body = Buffer.allocUnsafe(bytes);
    let offset = 0;
    for (const piece of this.done) offset += body.write(piece, offset, 'utf8');
    return body;
  }
}
