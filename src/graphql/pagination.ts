import { BadInputError } from '../core/errors';
import { LIMITS } from '../core/grammar';
import type { Page, PageRequest } from '../persistence/records';
import type { ConnectionArgs, NameFilter } from './inputs/connection.args';

const PREFIX = 'n:';

/** An opaque cursor for a row in a name-ordered connection. */
export function encodeCursor(name: string): string {
  return Buffer.from(PREFIX + name, 'utf8').toString('base64url');
}

/** The name a cursor points after; a cursor this server did not make is BAD_USER_INPUT. */
export function decodeCursor(cursor: string): string {
  const decoded = /^[A-Za-z0-9_-]{1,400}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (
    !decoded.startsWith(PREFIX) ||
    decoded.length === PREFIX.length ||
    encodeCursor(decoded.slice(PREFIX.length)) !== cursor
  ) {
    throw new BadInputError([{ field: 'after', message: 'after is not a cursor from this connection' }]);
  }
  return decoded.slice(PREFIX.length);
}

/** The page request for connection arguments (already validated: 1 ≤ first ≤ 100). */
export function pageRequest(args: ConnectionArgs, filter: NameFilter | null | undefined): PageRequest {
  return {
    first: args.first ?? LIMITS.defaultPageSize,
    afterName: args.after == null ? null : decodeCursor(args.after),
    nameContains: filter?.nameContains || null,
  };
}

/** A Relay connection for a page of named items. */
export function toConnection<T extends { name: string }>(page: Page<T>) {
  const edges = page.items.map((node) => ({ cursor: encodeCursor(node.name), node }));
  return {
    totalCount: page.totalCount,
    edges,
    pageInfo: { hasNextPage: page.hasNextPage, endCursor: edges.length > 0 ? edges[edges.length - 1].cursor : null },
  };
}

const CHANGE_PREFIX = 'c:';

/** An opaque cursor for a change-log entry: its (version, seq) position. */
export function encodeChangeCursor(position: { version: number; seq: number }): string {
  return Buffer.from(`${CHANGE_PREFIX}${position.version}:${position.seq}`, 'utf8').toString('base64url');
}

/** The position a change cursor points after; a cursor this server did not make is BAD_USER_INPUT. */
export function decodeChangeCursor(cursor: string): { version: number; seq: number } {
  const decoded = /^[A-Za-z0-9_-]{1,64}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^c:(\d{1,15}):(\d{1,9})$/.exec(decoded);
  if (!match || encodeChangeCursor({ version: Number(match[1]), seq: Number(match[2]) }) !== cursor) {
    throw new BadInputError([{ field: 'after', message: 'after is not a cursor from this connection' }]);
  }
  return { version: Number(match[1]), seq: Number(match[2]) };
}

/** A Relay connection of change-log entries. */
export function toChangeConnection<T extends { version: number; seq: number }>(page: Page<T>) {
  const edges = page.items.map((node) => ({ cursor: encodeChangeCursor(node), node }));
  return {
    totalCount: page.totalCount,
    edges,
    pageInfo: { hasNextPage: page.hasNextPage, endCursor: edges.length > 0 ? edges[edges.length - 1].cursor : null },
  };
}
