import { createHash, randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import type { BindingChange } from '../core/binding-impact';

/**
 * ulid's random source, fed from a pool of cryptographic random bytes filled 4 KiB at a time. ulid's own asks
 * the system for one byte per character (16 calls a new id: about 3 % of the server's time registering tools);
 * this draws the same bytes, as the same fractions (a byte / 256), from the pool.
 */
function pooledRandom(): () => number {
  const pool = new Uint8Array(4096);
  let next = pool.length;
  return () => {
    if (next === pool.length) {
      randomFillSync(pool);
      next = 0;
    }
    return pool[next++] / 256;
  };
}

const generate = monotonicFactory(pooledRandom());

/** A new id: a ULID, increasing within this process. */
export function newId(): string {
  return generate();
}

/**
 * The id of a binding change a dry run previews, which no change-log entry
 * records: the version it previews at and a digest of the whole change, so
 * the same preview gives the same ids and two different ones never share one.
 */
export function previewChangeId(version: number, change: BindingChange): string {
  const digest = createHash('sha256').update(JSON.stringify(change)).digest('base64url').slice(0, 22);
  return `preview:${version}#${digest}`;
}
