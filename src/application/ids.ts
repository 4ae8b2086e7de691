import { createHash } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import type { BindingChange } from '../core/binding-impact';

const generate = monotonicFactory();

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
