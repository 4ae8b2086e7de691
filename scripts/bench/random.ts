/**
 * A small seeded pseudo-random generator (sfc32, seeded through splitmix32),
 * so that the same seed always builds the same registry and picks the same
 * requests. Not for anything that needs real randomness.
 */

/** A deterministic source of random numbers with the helpers the benchmark uses. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(private readonly seed: number | string) {
    let state = typeof seed === 'number' ? seed >>> 0 : hashString(seed);
    const next = () => {
      // splitmix32: spreads one 32-bit seed over the four words of sfc32's state.
      state = (state + 0x9e3779b9) >>> 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** A uniform 32-bit unsigned integer (sfc32). */
  nextUint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [min, max] (both included). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)];
  }

  /** One key of a weighted choice, e.g. { CONTEXTUAL: 0.5, STATIC: 0.25, PARAMETER: 0.25 }. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let roll = this.next() * total;
    for (const [key, weight] of entries) {
      roll -= weight;
      if (roll < 0) return key;
    }
    return entries[entries.length - 1][0];
  }

  /** `count` distinct indexes from [0, n), in random order (count ≤ n). */
  sampleIndexes(n: number, count: number): number[] {
    if (count > n) throw new Error(`cannot take ${count} distinct of ${n}`);
    const chosen = new Set<number>();
    while (chosen.size < count) chosen.add(Math.floor(this.next() * n));
    return [...chosen];
  }

  /** Shuffles a list in place (Fisher–Yates) and returns it. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }

  /** A generator for another purpose, from this one's seed and a label: independent of how much this one was used. */
  derive(label: string): Random {
    return new Random(`${this.seed}/${label}`);
  }
}

/** FNV-1a over the string's UTF-16 code units: a 32-bit seed from text. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
