/**
 * What the viewer may change, and, when not, why: every edit button asks
 * here, and is shown disabled with the reason rather than hidden.
 *
 * Today the server tells only whether a token may write at all: the
 * dashboard runs a dry run that stores nothing (WRITE_ACCESS_CHECK), and
 * reads its answer (accessFromCheck), and a write refused later
 * (FORBIDDEN, UNAUTHENTICATED) updates what it knows (accessAfterRefusal).
 * When the server answers `viewer { can(operation, ref) }`, a Viewer built
 * from that answer replaces viewerFromWriteAccess, and nothing else changes:
 * the buttons already ask per operation and per thing.
 *
 * No DOM here: the tests import this module.
 */

/** What the dashboard knows of the token's right to write. */
export type WriteAccess = 'no-token' | 'checking' | 'admin' | 'read-only' | 'refused' | 'unknown';

/** The changes the dashboard makes, by their mutation's name (what `viewer.can` will be asked). */
export type Operation =
  | 'linkResource'
  | 'unlinkResource'
  | 'updateLink'
  | 'deleteResource'
  | 'updateProject'
  | 'updateResource'
  | 'updateResourceType'
  | 'updateTool';

/** Whether an action is allowed; when not, a sentence saying why and what would allow it. */
export interface Permission {
  readonly allowed: boolean;
  readonly reason: string | null;
}

/** Who is looking, as far as edits go. */
export interface Viewer {
  /** Whether the viewer may run `operation` on the thing `ref` names (null: no one thing, e.g. a new link). */
  can(operation: Operation, ref: string | null): Permission;
}

const ALLOWED: Permission = { allowed: true, reason: null };

/** Why nothing may be changed, for each state short of "admin". */
export const REFUSAL: Readonly<Record<Exclude<WriteAccess, 'admin'>, string>> = {
  'no-token': 'Changing the registry needs an admin token: enter one with the Token button at the top right.',
  checking: 'Checking what your token may do…',
  'read-only': 'Your token may read the registry but not change it.',
  refused: 'The server does not accept your token for changes.',
  unknown: 'Could not find out whether your token may change the registry; reload to try again.',
};

/** Today's viewer: the same answer for every operation and thing, from what the token may do. */
export function viewerFromWriteAccess(access: WriteAccess): Viewer {
  const permission: Permission = access === 'admin' ? ALLOWED : { allowed: false, reason: REFUSAL[access] };
  return { can: () => permission };
}

/** What the write-access dry run's answer says: its error code, or null when it succeeded. */
export function accessFromCheck(code: string | null): WriteAccess {
  // The dry run stores nothing: CONFLICT (the name is taken) or bad input still means the token may write.
  if (code === null || code === 'CONFLICT' || code === 'BAD_USER_INPUT') return 'admin';
  if (code === 'FORBIDDEN') return 'read-only';
  if (code === 'UNAUTHENTICATED') return 'refused';
  return 'unknown';
}

/** What a write refused with `code` says of the token (anything else leaves what is known as it was). */
export function accessAfterRefusal(code: string | null, current: WriteAccess): WriteAccess {
  if (code === 'FORBIDDEN') return 'read-only';
  if (code === 'UNAUTHENTICATED') return 'refused';
  return current;
}
