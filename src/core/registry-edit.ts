import { EVERY_NAMESPACE, namespaceOf, tokenPrincipal, type Role, type Touched } from './access';
import type { ResourceInfo, SlotDefinition, TypeNode } from './model';

/** The kinds of thing a change to the registry touches: its contents, then who may change them. */
export const CHANGE_KINDS = ['RESOURCE_TYPE', 'RESOURCE', 'PROJECT', 'LINK', 'TOOL', 'GRANT', 'API_TOKEN'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** A project or a tool as an edit records it. */
export interface EntityState {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
}

/** A project–resource link as an edit records it. */
export interface LinkState {
  readonly project: EntityState;
  readonly resource: ResourceInfo;
  readonly alias: string | null;
}

/** A tool and its slots as an edit records it. */
export interface ToolState extends EntityState {
  readonly slots: readonly SlotDefinition[];
}

/** A role grant as an edit records it (grants are created and deleted, never changed). */
export interface GrantState {
  readonly id: string;
  readonly principal: string;
  readonly role: Role;
  /** A namespace (lowercase), or `*`. */
  readonly namespace: string;
  readonly grantedBy: string;
  readonly createdAt: string;
}

/** An API token as an edit records it: never its secret. */
export interface ApiTokenState {
  readonly id: string;
  readonly name: string;
  /** The namespaces of its grants when it was created (its grants are edits of their own). */
  readonly namespaces: readonly string[];
  readonly createdBy: string;
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
}

/**
 * One change to one thing: `before` is null when it was created, `after` is
 * null when it was deleted, and both are set when it was updated.
 */
export interface Edit<K extends ChangeKind, T> {
  readonly kind: K;
  readonly before: T | null;
  readonly after: T | null;
}

/** Every change a write can make, with the thing as it was and as it is. */
export type RegistryEdit =
  | Edit<'RESOURCE_TYPE', TypeNode>
  | Edit<'RESOURCE', ResourceInfo>
  | Edit<'PROJECT', EntityState>
  | Edit<'LINK', LinkState>
  | Edit<'TOOL', ToolState>
  | Edit<'GRANT', GrantState>
  | Edit<'API_TOKEN', ApiTokenState>;

/**
 * Rule: an update that leaves its thing as it was (the same name,
 * description, type, parents, alias or slots) changes nothing, and is no
 * edit: it commits no version, writes no change-log entry and tells nobody.
 */
export function changesNothing(edit: RegistryEdit): boolean {
  switch (edit.kind) {
    case 'RESOURCE_TYPE': {
      const { before, after } = edit;
      if (!before || !after) return false;
      return sameEntity(before, after) && before.parentIds.join() === after.parentIds.join();
    }
    case 'RESOURCE': {
      const { before, after } = edit;
      if (!before || !after) return false;
      return sameEntity(before, after) && before.typeId === after.typeId;
    }
    case 'PROJECT': {
      const { before, after } = edit;
      return before !== null && after !== null && sameEntity(before, after);
    }
    case 'LINK': {
      const { before, after } = edit;
      return before !== null && after !== null && before.alias === after.alias;
    }
    case 'TOOL': {
      const { before, after } = edit;
      if (!before || !after) return false;
      return sameEntity(before, after) && sameSlots(before.slots, after.slots);
    }
    case 'GRANT':
    case 'API_TOKEN':
      // A grant is made or taken back, a token made or revoked: each is a change.
      return false;
  }
}

function sameEntity(a: { name: string; description: string | null }, b: { name: string; description: string | null }) {
  return a.name === b.name && a.description === b.description;
}

/** True when two slot lists define the same slots, in the same order (a rename or a new description binds nothing new). */
export function sameSlots(a: readonly SlotDefinition[], b: readonly SlotDefinition[]): boolean {
  const key = (s: SlotDefinition) =>
    [s.name, s.typeId, s.access, s.binding, s.staticResourceId ?? '', s.required ? '1' : '0'].join('\u0000');
  return a.length === b.length && a.every((slot, i) => key(slot) === key(b[i]));
}

/** True when any edit changes resource types, so the type hierarchy must be rebuilt. */
export function changesTypes(edits: readonly RegistryEdit[]): boolean {
  return edits.some((edit) => edit.kind === 'RESOURCE_TYPE');
}

/** True for an edit of who may change the registry (a grant, an API token), not of what it holds. */
export function isAccessEdit(edit: RegistryEdit): edit is Extract<RegistryEdit, { kind: 'GRANT' | 'API_TOKEN' }> {
  return edit.kind === 'GRANT' || edit.kind === 'API_TOKEN';
}

/** What an edit did, as one sentence, e.g. `renamed resource prod/db to prod/orders-db`. `typeName` names a type id. */
export function describeEdit(edit: RegistryEdit, typeName: (id: string) => string): string {
  const names = (ids: readonly string[]) => (ids.length === 0 ? 'none' : ids.map(typeName).join(', '));
  switch (edit.kind) {
    case 'RESOURCE_TYPE': {
      const { before, after } = edit;
      if (!before)
        return `registered resource type ${after!.name}${after!.parentIds.length > 0 ? ` (parents: ${names(after!.parentIds)})` : ''}`;
      if (!after) return `deleted resource type ${before.name}`;
      return describeUpdate('resource type', before.name, after.name, [
        before.description !== after.description ? 'changed its description' : null,
        before.parentIds.join() !== after.parentIds.join()
          ? `changed its parents from ${names(before.parentIds)} to ${names(after.parentIds)}`
          : null,
      ]);
    }
    case 'RESOURCE': {
      const { before, after } = edit;
      if (!before) return `registered resource ${after!.name} of type ${typeName(after!.typeId)}`;
      if (!after) return `deleted resource ${before.name}`;
      return describeUpdate('resource', before.name, after.name, [
        before.typeId !== after.typeId
          ? `changed its type from ${typeName(before.typeId)} to ${typeName(after.typeId)}`
          : null,
        before.description !== after.description ? 'changed its description' : null,
      ]);
    }
    case 'PROJECT': {
      const { before, after } = edit;
      if (!before) return `created project ${after!.name}`;
      if (!after) return `deleted project ${before.name}`;
      return describeUpdate('project', before.name, after.name, [
        before.description !== after.description ? 'changed its description' : null,
      ]);
    }
    case 'LINK': {
      const { before, after } = edit;
      if (!before) {
        return `linked ${after!.resource.name} to project ${after!.project.name}${after!.alias ? ` under alias ${after!.alias}` : ''}`;
      }
      if (!after) return `unlinked ${before.resource.name} from project ${before.project.name}`;
      return after.alias === null
        ? `cleared the alias of ${after.resource.name} in project ${after.project.name} (was ${before.alias})`
        : `set the alias of ${after.resource.name} in project ${after.project.name} to ${after.alias}${before.alias ? ` (was ${before.alias})` : ''}`;
    }
    case 'TOOL': {
      const { before, after } = edit;
      const slots = (tool: ToolState) => `${tool.slots.length} slot${tool.slots.length === 1 ? '' : 's'}`;
      if (!before) return `registered tool ${after!.name} with ${slots(after!)}`;
      if (!after) return `unregistered tool ${before.name}`;
      return describeUpdate('tool', before.name, after.name, [
        before.description !== after.description ? 'changed its description' : null,
        `set its slots (${slots(after)}: ${after.slots.map((s) => s.name).join(', ') || 'none'})`,
      ]);
    }
    case 'GRANT': {
      const grant = (edit.after ?? edit.before)!;
      return edit.after
        ? `granted ${grant.role} on ${grant.namespace} to ${grant.principal}`
        : `revoked ${grant.role} on ${grant.namespace} from ${grant.principal}`;
    }
    case 'API_TOKEN': {
      const { before, after } = edit;
      if (!before) {
        return `created API token ${after!.name} for ${after!.namespaces.join(', ')}${after!.expiresAt ? `, expiring ${after!.expiresAt}` : ''}`;
      }
      return after?.revokedAt && !before.revokedAt
        ? `revoked API token ${after.name}`
        : `updated API token ${(after ?? before).name}`;
    }
  }
}

/** "renamed <what> a to b; changed …", or "updated <what> b: changed …". */
function describeUpdate(what: string, before: string, after: string, parts: (string | null)[]): string {
  const changed = parts.filter((p): p is string => p !== null);
  if (before !== after) return [`renamed ${what} ${before} to ${after}`, ...changed].join('; ');
  // An update that changes nothing is no edit (see changesNothing): something is always listed here.
  return `updated ${what} ${after}: ${changed.join('; ')}`;
}

/** The thing an edit is about: its id, name, and the name it had before a rename. */
export function subjectOf(edit: RegistryEdit): {
  id: string;
  name: string;
  previousName: string | null;
  related: { id: string; name: string } | null;
} {
  if (edit.kind === 'GRANT') {
    // A grant is about its principal: the entity's name is the principal, so a filter by principal finds it.
    const grant = (edit.after ?? edit.before)!;
    return { id: grant.id, name: grant.principal, previousName: null, related: null };
  }
  if (edit.kind === 'API_TOKEN') {
    const token = (edit.after ?? edit.before)!;
    return { id: token.id, name: tokenPrincipal(token.name), previousName: null, related: null };
  }
  if (edit.kind === 'LINK') {
    const link = (edit.after ?? edit.before)!;
    return {
      id: link.project.id,
      name: link.project.name,
      previousName: null,
      related: { id: link.resource.id, name: link.resource.name },
    };
  }
  const now = (edit.after ?? edit.before)!;
  const previousName = edit.before && edit.after && edit.before.name !== edit.after.name ? edit.before.name : null;
  return { id: now.id, name: now.name, previousName, related: null };
}

/**
 * Rule: the namespaces one edit touches, each with the role it needs (at
 * least the mutation's). A resource, project or tool: the namespace of its
 * name before and after (a rename touches both). A link: its project's. A
 * resource type: `*`. A grant: its namespace, and never more than is held
 * there (granting OWNER needs OWNER). An API token: the namespaces of its
 * grants (each of which is a grant edit of its own as well).
 */
export function namespacesOfEdit(edit: RegistryEdit): Touched[] {
  switch (edit.kind) {
    case 'RESOURCE_TYPE':
      return [{ namespace: EVERY_NAMESPACE, role: null }];
    case 'RESOURCE':
    case 'PROJECT':
    case 'TOOL':
      return [edit.before, edit.after].flatMap((state) =>
        state ? [{ namespace: namespaceOf(state.name), role: null }] : [],
      );
    case 'LINK':
      return [edit.before, edit.after].flatMap((link) =>
        link ? [{ namespace: namespaceOf(link.project.name), role: null }] : [],
      );
    case 'GRANT':
      return [edit.before, edit.after].flatMap((grant) =>
        grant ? [{ namespace: grant.namespace, role: grant.role }] : [],
      );
    case 'API_TOKEN':
      // A token with no grant left reaches no namespace: changing it is for OWNERs of `*`.
      return [edit.before, edit.after].flatMap((token) =>
        !token
          ? []
          : (token.namespaces.length > 0 ? token.namespaces : [EVERY_NAMESPACE]).map((namespace) => ({
              namespace,
              role: null,
            })),
      );
  }
}

/** Every namespace a change's edits touch (see namespacesOfEdit). */
export function namespacesOfEdits(edits: readonly RegistryEdit[]): Touched[] {
  return edits.flatMap(namespacesOfEdit);
}
