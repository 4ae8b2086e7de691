import { LRUCache } from 'lru-cache';
import { BadInputError } from '../core/errors';
import { LIMITS } from '../core/grammar';
import type { ChangePosition, Page, PageRequest, Window } from '../persistence/records';
import type { NameFilter } from './inputs/connection.args';

const PREFIX = 'n:';

/**
 * The cursors made most recently, by name: a page shows one per row, and the
 * same rows' cursors again on every later request of the page, where making
 * one (a buffer, then its base64url) costs several times a lookup. Read with
 * `peek`, which leaves the order alone: the first made go first when it is
 * full, and a lookup costs a map's (`get` also moves the entry to the front,
 * which took a unique dashboard page, 50 lookups, about 5 % of its time).
 */
const cursors = new LRUCache<string, string>({ max: 8192 });

/** An opaque cursor for a row in a name-ordered connection. */
export function encodeCursor(name: string): string {
  let cursor = cursors.peek(name);
  if (cursor === undefined) {
    cursor = cursorOf(name);
    cursors.set(name, cursor);
  }
  return cursor;
}

/** A cursor made afresh (a client's cursor is checked with it, so what clients send never fills `cursors`). */
function cursorOf(name: string): string {
  return Buffer.from(PREFIX + name, 'utf8').toString('base64url');
}

/** The name a cursor stands for; a cursor this server did not make is BAD_USER_INPUT (naming the argument). */
export function decodeCursor(cursor: string, field = 'after'): string {
  const decoded = /^[A-Za-z0-9_-]{1,400}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (
    !decoded.startsWith(PREFIX) ||
    decoded.length === PREFIX.length ||
    cursorOf(decoded.slice(PREFIX.length)) !== cursor
  ) {
    throw new BadInputError([{ field, message: `${field} is not a cursor from this connection` }]);
  }
  return decoded.slice(PREFIX.length);
}

/** Relay connection arguments: first/after to page forward, last/before to page backward. */
export interface PageArgs {
  readonly first?: number | null;
  readonly after?: string | null;
  readonly last?: number | null;
  readonly before?: string | null;
}

/**
 * The window connection arguments ask for (sizes already validated: 1 to
 * 100). first and last together are BAD_USER_INPUT: a page is taken from one
 * end of the window. Neither: the first `defaultSize`.
 */
export function windowOf<K>(
  args: PageArgs,
  decode: (cursor: string, field: string) => K,
  defaultSize: number = LIMITS.defaultPageSize,
  names: { first: string; last: string; after: string; before: string } = DEFAULT_NAMES,
): Window<K> {
  if (args.first != null && args.last != null) {
    throw new BadInputError([
      { field: names.last, message: `pass ${names.first} or ${names.last}, not both: a page is taken from one end` },
    ]);
  }
  return {
    size: args.first ?? args.last ?? defaultSize,
    fromEnd: args.last != null,
    after: args.after == null ? null : decode(args.after, names.after),
    before: args.before == null ? null : decode(args.before, names.before),
  };
}

const DEFAULT_NAMES = { first: 'first', last: 'last', after: 'after', before: 'before' } as const;

/** The page request for connection arguments over named items. */
export function pageRequest(args: PageArgs, filter: NameFilter | null | undefined): PageRequest {
  return { ...windowOf(args, decodeCursor), nameContains: filter?.nameContains || null };
}

/** A Relay connection for a page: an edge per item, with the cursor `cursorOf` makes. */
function connectionOf<T>(page: Page<T>, cursorOf: (item: T) => string) {
  const edges = page.items.map((node) => ({ cursor: cursorOf(node), node }));
  return {
    totalCount: page.totalCount,
    edges,
    pageInfo: {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.hasPreviousPage,
      startCursor: edges.length > 0 ? edges[0].cursor : null,
      endCursor: edges.length > 0 ? edges[edges.length - 1].cursor : null,
    },
  };
}

/** A page of named items that is not a connection: its items, their total, and its place. */
export function toItemPage<T extends { name: string }>(page: Page<T>) {
  const { totalCount, edges, pageInfo } = toConnection(page);
  return { totalCount, nodes: edges.map((edge) => edge.node), pageInfo };
}

/** A Relay connection for a page of named items. */
export function toConnection<T extends { name: string }>(page: Page<T>) {
  return connectionOf(page, (node) => encodeCursor(node.name));
}

/** A Relay connection for a page in id order (grants, API tokens): the cursor stands for the id. */
export function toIdConnection<T extends { id: string }>(page: Page<T>) {
  return connectionOf(page, (node) => encodeCursor(node.id));
}

const CHANGE_PREFIX = 'c:';

/** An opaque cursor for a change-log entry: its (version, seq) position. */
export function encodeChangeCursor(position: ChangePosition): string {
  return Buffer.from(`${CHANGE_PREFIX}${position.version}:${position.seq}`, 'utf8').toString('base64url');
}

/** The position a change cursor stands for; a cursor this server did not make is BAD_USER_INPUT. */
export function decodeChangeCursor(cursor: string, field = 'after'): ChangePosition {
  const decoded = /^[A-Za-z0-9_-]{1,64}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^c:(\d{1,15}):(\d{1,9})$/.exec(decoded);
  if (!match || encodeChangeCursor({ version: Number(match[1]), seq: Number(match[2]) }) !== cursor) {
    throw new BadInputError([{ field, message: `${field} is not a cursor from this connection` }]);
  }
  return { version: Number(match[1]), seq: Number(match[2]) };
}

/** A Relay connection of change-log entries. */
export function toChangeConnection<T extends ChangePosition>(page: Page<T>) {
  return connectionOf(page, encodeChangeCursor);
}
