/**
 * What the viewer may change, and, when not, why: every edit button asks
 * here, and is shown disabled with the reason rather than hidden.
 *
 * The server answers `viewer { can(operation, ref) }` with the same check
 * its mutation runs (viewer.ts asks it, in batches); this module turns an
 * answer into a Permission with a sentence a person can act on: who is
 * asking, the role the change needs and on which namespace.
 *
 * No DOM here: the tests import this module.
 */

/** The changes the dashboard makes, by their mutation's name (what `viewer.can` is asked). */
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
  /** Whether the viewer may run `operation` on the thing named `ref` (a tool, project or resource, or a type). */
  can(operation: Operation, ref: string): Permission;
}

export const ALLOWED: Permission = { allowed: true, reason: null };

/** What each operation changes, for the reason's sentence. */
const CHANGES: Readonly<Record<Operation, string>> = {
  linkResource: 'link resources to this project',
  unlinkResource: 'unlink resources from this project',
  updateLink: "change this project's links",
  deleteResource: 'delete this resource',
  updateProject: 'change this project',
  updateResource: 'change this resource',
  updateResourceType: 'change resource types',
  updateTool: 'change this tool',
};

/** The namespace the server checks an operation on: a name's first segment when it has a `/`, else `*`. */
export function namespaceOf(operation: Operation, ref: string): string {
  if (operation === 'updateResourceType') return '*';
  const slash = ref.indexOf('/');
  return slash > 0 ? ref.slice(0, slash) : '*';
}

function where(namespace: string): string {
  return namespace === '*'
    ? 'on * (names without a namespace are in the global scope)'
    : `on the namespace ${namespace}`;
}

/** What the viewer is known as, from `viewer { principal }`, and whether the page can sign in. */
export interface Who {
  /** user:<subject>, token:<name>, anonymous, or null (no credential). */
  readonly principal: string | null;
  /** Whether this server lets the dashboard sign in (OpenID Connect). */
  readonly signInAvailable: boolean;
}

/** Why `who` may not run `operation` on `ref`, when the server answered no. */
export function refusalReason(operation: Operation, ref: string, who: Who): string {
  const needs = `it needs the EDITOR role ${where(namespaceOf(operation, ref))}`;
  if (who.principal === null) {
    const how = who.signInAvailable
      ? 'sign in, or enter a token with the Token button at the top right'
      : 'enter a token with the Token button at the top right';
    return `Changing the registry needs you to ${how}: to ${CHANGES[operation]}, ${needs}.`;
  }
  return `${who.principal} may not ${CHANGES[operation]}: ${needs}.`;
}

/** While the answer is on its way. */
export const CHECKING: Permission = { allowed: false, reason: 'Checking what you may change…' };

/** When the server could not be asked. */
export const UNKNOWN: Permission = {
  allowed: false,
  reason: 'Could not find out whether you may change this; reload to try again.',
};

/** The Permission for the server's answer (undefined: not known yet; null: asking failed). */
export function permissionOf(
  answer: boolean | null | undefined,
  operation: Operation,
  ref: string,
  who: Who,
): Permission {
  if (answer === undefined) return CHECKING;
  if (answer === null) return UNKNOWN;
  return answer ? ALLOWED : { allowed: false, reason: refusalReason(operation, ref, who) };
}

/** A viewer who may change nothing, for the same reason everywhere (before the server is asked, or without it). */
export function viewerRefusing(permission: Permission): Viewer {
  return { can: () => permission };
}
