import { monotonicFactory } from 'ulid';

const generate = monotonicFactory();

/** A new id: a ULID, increasing within this process. */
export function newId(): string {
  return generate();
}
