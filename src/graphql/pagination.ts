import { LRUCache } from 'lru-cache';
import { BadInputError } from '../core/errors';
import { LIMITS, RESOURCE_NAME_PATTERN, TYPE_NAME_PATTERN, ULID_PATTERN } from '../core/grammar';
import type { ChangePosition, Page, PageRequest, Window } from '../persistence/records';
import type { NameFilter } from './inputs/connection.args';

/**
 * The connections ordered by name, each with cursors of its own: a cursor
 * holds the connection's letter and the name it stands for, so one from
 * another connection (`tools(after: <a projects cursor>)`) is refused rather
 * than read as a name. `resources` and a type's `compatibleResources` list
 * the same items in the same order, so they share theirs.
 */
const NAMED_CONNECTIONS = {
  tools: { letter: 't', name: RESOURCE_NAME_PATTERN, maxLength: LIMITS.resourceName },
  projects: { letter: 'p', name: RESOURCE_NAME_PATTERN, maxLength: LIMITS.resourceName },
  resources: { letter: 'r', name: RESOURCE_NAME_PATTERN, maxLength: LIMITS.resourceName },
  resourceTypes: { letter: 'y', name: TYPE_NAME_PATTERN, maxLength: LIMITS.typeName },
  // Ordered by id, oldest first: the cursor stands for the id.
  roleGrants: { letter: 'g', name: ULID_PATTERN, maxLength: 26 },
  apiTokens: { letter: 'k', name: ULID_PATTERN, maxLength: 26 },
} as const;

/** A connection ordered by name (see NAMED_CONNECTIONS). */
export type NamedConnection = keyof typeof NAMED_CONNECTIONS;

/**
 * The cursors made most recently, by connection letter and name: a page shows one per row, and the
 * same rows' cursors again on every later request of the page, where making
 * one (a buffer, then its base64url) costs several times a lookup. Read with
 * `peek`, which leaves the order alone: the first made go first when it is
 * full, and a lookup costs a map's (`get` also moves the entry to the front,
 * which took a unique dashboard page, 50 lookups, about 5 % of its time).
 */
const cursors = new LRUCache<string, string>({ max: 8192 });

/** An opaque cursor for a row of a name-ordered connection. */
export function encodeCursor(connection: NamedConnection, name: string): string {
  const text = `${NAMED_CONNECTIONS[connection].letter}:${name}`;
  let cursor = cursors.peek(text);
  if (cursor === undefined) {
    cursor = cursorOf(text);
    cursors.set(text, cursor);
  }
  return cursor;
}

/** A cursor made afresh (a client's cursor is checked with it, so what clients send never fills `cursors`). */
function cursorOf(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

/**
 * The name a cursor of this connection stands for. Anything else is
 * BAD_USER_INPUT, naming the argument: a cursor of another connection, and a
 * forged one, whose text this server would not have written (another
 * encoding of it) or whose name no item of the connection can have.
 */
export function decodeCursor(connection: NamedConnection, cursor: string, field = 'after'): string {
  const { letter, name, maxLength } = NAMED_CONNECTIONS[connection];
  const decoded = /^[A-Za-z0-9_-]{1,400}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const named = decoded.slice(2);
  if (
    decoded[0] !== letter ||
    decoded[1] !== ':' ||
    named.length > maxLength ||
    !name.test(named) ||
    cursorOf(decoded) !== cursor
  ) {
    throw new BadInputError([{ field, message: `${field} is not a cursor from this connection` }]);
  }
  return named;
}

/** decodeCursor for one connection, as windowOf takes it. */
export function cursorsOf(connection: NamedConnection): (cursor: string, field: string) => string {
  return (cursor, field) => decodeCursor(connection, cursor, field);
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
export function pageRequest(
  connection: NamedConnection,
  args: PageArgs,
  filter: NameFilter | null | undefined,
): PageRequest {
  return { ...windowOf(args, cursorsOf(connection)), nameContains: filter?.nameContains || null };
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

/** A page of named items that is not a connection: its items, their total, and its place (with the connection's cursors). */
export function toItemPage<T extends { name: string }>(connection: NamedConnection, page: Page<T>) {
  const { totalCount, edges, pageInfo } = toConnection(connection, page);
  return { totalCount, nodes: edges.map((edge) => edge.node), pageInfo };
}

/** A Relay connection for a page of named items. */
export function toConnection<T extends { name: string }>(connection: NamedConnection, page: Page<T>) {
  return connectionOf(page, (node) => encodeCursor(connection, node.name));
}

/** A Relay connection for a page in id order (grants, API tokens): the cursor stands for the id. */
export function toIdConnection<T extends { id: string }>(connection: 'roleGrants' | 'apiTokens', page: Page<T>) {
  return connectionOf(page, (node) => encodeCursor(connection, node.id));
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

const OFFSET_PREFIX = 'i:';

/** An opaque cursor for a place in a list ordered by something other than name (a summary, failing first). */
export function encodeOffsetCursor(offset: number): string {
  return Buffer.from(`${OFFSET_PREFIX}${offset}`, 'utf8').toString('base64url');
}

/** The place an offset cursor stands for; a cursor this server did not make is BAD_USER_INPUT. */
export function decodeOffsetCursor(cursor: string, field = 'after'): number {
  const decoded = /^[A-Za-z0-9_-]{1,32}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^i:(\d{1,9})$/.exec(decoded);
  if (!match || encodeOffsetCursor(Number(match[1])) !== cursor) {
    throw new BadInputError([{ field, message: `${field} is not a cursor from this list` }]);
  }
  return Number(match[1]);
}

/**
 * A forward page of a list held in memory (first/after): its items, their
 * total, and its place, with offset cursors. The offsets are places in the
 * list as it is now: after a write, a later page may repeat or skip an item.
 */
export function offsetPage<T>(items: readonly T[], first: number, after: string | null | undefined) {
  const start = after == null ? 0 : decodeOffsetCursor(after) + 1;
  const nodes = items.slice(start, start + first);
  return {
    totalCount: items.length,
    nodes,
    pageInfo: {
      hasNextPage: start + nodes.length < items.length,
      hasPreviousPage: start > 0,
      startCursor: nodes.length > 0 ? encodeOffsetCursor(start) : null,
      endCursor: nodes.length > 0 ? encodeOffsetCursor(start + nodes.length - 1) : null,
    },
  };
}

/** The binding matrix's default page sizes (the GraphQL defaults of its page arguments, and what admission costs them at). */
export const MATRIX_DEFAULTS = { projects: 20, tools: 50 } as const;
