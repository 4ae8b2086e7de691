/**
 * Which answers are worth keeping once the response cache is nearly full:
 * a request's answer is kept the second time the request is seen, not the
 * first (the "doorkeeper" of TinyLFU caches). A request seen once, such as
 * each page of a crawl with its own cursor or a query typed once in
 * GraphiQL, then neither pays for storing an answer no one asks for again
 * nor evicts the answers that are asked for again and again. (While the
 * cache has room, it keeps every answer at once: nothing is evicted then,
 * and a repeated request is a hit from its second time.)
 *
 * The requests seen are remembered in a Bloom filter of their keys: a fixed
 * array of bits (128 KB), a few bits set per key, so a key seen before is
 * always recognised and one not seen is mistaken for seen about once in a
 * hundred at its fullest (then its answer is kept a request early, which is
 * harmless). After `capacity` keys it starts over empty, so "seen" means
 * seen within about the last `capacity` distinct requests: at 3,000 new
 * requests a second, the last half minute or so.
 */
export class Doorkeeper {
  private readonly bits: Uint32Array;
  private added = 0;

  constructor(
    private readonly capacity = 100_000,
    bitCount = 1 << 20,
  ) {
    this.bits = new Uint32Array(bitCount >>> 5);
  }

  /** True when `key` was seen since the filter last started over; either way it counts as seen from now on. */
  seen(key: string): boolean {
    const [h1, h2] = hashes(key);
    const mask = this.bits.length * 32 - 1;
    let known = true;
    for (let i = 0; i < HASH_COUNT; i++) {
      const bit = (h1 + i * h2) & mask;
      const word = bit >>> 5;
      const flag = 1 << (bit & 31);
      if ((this.bits[word] & flag) === 0) {
        known = false;
        this.bits[word] |= flag;
      }
    }
    if (!known && ++this.added >= this.capacity) {
      this.bits.fill(0);
      this.added = 0;
    }
    return known;
  }
}

/** Bits set per key: with 2^20 bits and 100,000 keys, a false "seen" about 1.7 % of the time at the fullest. */
const HASH_COUNT = 3;

/**
 * Two 32-bit hashes of a string (FNV-1a over its UTF-16 code units, and the
 * same with another basis, made odd), combined as h1 + i·h2 for each bit.
 */
function hashes(key: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ key.length;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return [a >>> 0, (b | 1) >>> 0];
}
