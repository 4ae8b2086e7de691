import { SLOT_STATUSES, type SlotResolution, type SlotStatus } from './binding-resolution';
import type { FailureReason } from './errors';
import type { BindingMode, SlotDefinition } from './model';
import { isAccessEdit, sameSlots, type RegistryEdit } from './registry-edit';
import type { TypeHierarchy } from './type-hierarchy';

/**
 * Binding impact: which slot outcomes a change to the registry changes.
 *
 * The outcome of a slot is what resolving it without params gives: its
 * status, the failure reason, and the bound resource. A CONTEXTUAL slot's
 * outcome depends on the project, so it is compared project by project; a
 * STATIC or PARAMETER slot's does not (without params a PARAMETER slot is
 * always deferred), so it is compared once, with no project. A slot that
 * exists on one side only (updateTool added or removed it) is ABSENT on the other.
 */

/** A slot's status, or ABSENT when the slot does not exist on that side of a change. */
export const OUTCOME_STATUSES = [...SLOT_STATUSES, 'ABSENT'] as const;
export type OutcomeStatus = SlotStatus | 'ABSENT';

/** What resolving a slot without params gives, by id and name (the resource may since have gone). */
export interface SlotOutcome {
  readonly status: OutcomeStatus;
  readonly reason: FailureReason | null;
  readonly resourceId: string | null;
  readonly resourceName: string | null;
}

/** The outcome of a slot that does not exist. */
export const ABSENT: SlotOutcome = { status: 'ABSENT', reason: null, resourceId: null, resourceName: null };

/** One slot whose outcome a change changed. `projectId` is null for a slot that does not depend on the project. */
export interface BindingChange {
  readonly toolId: string;
  readonly toolName: string;
  readonly projectId: string | null;
  readonly projectName: string | null;
  readonly slotName: string;
  readonly before: SlotOutcome;
  readonly after: SlotOutcome;
}

/** A binding change with the id that stands for it (see loggedChangeId). */
export interface IdentifiedChange extends BindingChange {
  readonly id: string;
}

/**
 * Rule: a committed binding change is one slot of one tool, in one project or
 * in none, changing in one change-log entry (a slot changes at most once a
 * mutation). Its id is made of those, so the same change has the same id in
 * the change log, in its mutation's payload and in a subscription.
 */
export function loggedChangeId(entryId: string, change: BindingChange): string {
  return `change:${entryId}#${change.toolId}/${change.projectId ?? ''}/${change.slotName}`;
}

/** A slot's outcome from its resolution. */
export function outcomeOf(resolution: SlotResolution): SlotOutcome {
  return {
    status: resolution.status,
    reason: resolution.reason,
    resourceId: resolution.resource?.id ?? null,
    resourceName: resolution.resource?.name ?? null,
  };
}

/** Rule: outcomes differ when their status, reason or bound resource (by id) differ. */
export function sameOutcome(a: SlotOutcome, b: SlotOutcome): boolean {
  return a.status === b.status && a.reason === b.reason && a.resourceId === b.resourceId;
}

/** A tool's slots on one side of a change, and their outcomes: with no links, and in each examined project. */
export interface ToolSide {
  readonly slots: readonly Pick<SlotDefinition, 'name' | 'binding'>[];
  /** Every slot's outcome in a project that links nothing compatible: the project-independent outcomes. */
  readonly unlinked: ReadonlyMap<string, SlotOutcome>;
  /** Every slot's outcome in each examined project. */
  readonly inProject: ReadonlyMap<string, ReadonlyMap<string, SlotOutcome>>;
}

/** The projects a tool was examined in, by id, with their names. */
export interface ExaminedProjects {
  /** Projects resolved one by one. */
  readonly examined: ReadonlyMap<string, string>;
  /** Projects that link nothing compatible with the tool's slots: their outcomes are the unlinked ones. */
  readonly unlinked: ReadonlyMap<string, string>;
}

/**
 * Every slot of one tool whose outcome differs between the two sides, over
 * the given projects. STATIC and PARAMETER slots (on both sides) are compared
 * once, with no project; a slot that is CONTEXTUAL on either side is compared
 * in every project.
 */
export function diffTool(
  tool: { readonly id: string; readonly name: string },
  before: ToolSide,
  after: ToolSide,
  projects: ExaminedProjects,
): BindingChange[] {
  const changes: BindingChange[] = [];
  const bindingBefore = new Map<string, BindingMode>(before.slots.map((s) => [s.name, s.binding]));
  const bindingAfter = new Map<string, BindingMode>(after.slots.map((s) => [s.name, s.binding]));
  const names = [...new Set([...bindingBefore.keys(), ...bindingAfter.keys()])];
  const side = (which: ToolSide, bindings: Map<string, BindingMode>, projectId: string | null, slot: string) => {
    if (!bindings.has(slot)) return ABSENT;
    const outcomes = projectId === null ? undefined : which.inProject.get(projectId);
    return (outcomes ?? which.unlinked).get(slot) ?? ABSENT;
  };
  const add = (projectId: string | null, projectName: string | null, slotName: string) => {
    const b = side(before, bindingBefore, projectId, slotName);
    const a = side(after, bindingAfter, projectId, slotName);
    if (!sameOutcome(b, a)) {
      changes.push({ toolId: tool.id, toolName: tool.name, projectId, projectName, slotName, before: b, after: a });
    }
  };
  for (const slotName of names) {
    const contextual = bindingBefore.get(slotName) === 'CONTEXTUAL' || bindingAfter.get(slotName) === 'CONTEXTUAL';
    if (!contextual) {
      add(null, null, slotName);
      continue;
    }
    for (const [projectId, projectName] of projects.examined) add(projectId, projectName, slotName);
    // Unlinked projects all share the unlinked outcome: they change together or not at all.
    const b = side(before, bindingBefore, null, slotName);
    const a = side(after, bindingAfter, null, slotName);
    if (!sameOutcome(b, a)) {
      for (const [projectId, projectName] of projects.unlinked) {
        changes.push({ toolId: tool.id, toolName: tool.name, projectId, projectName, slotName, before: b, after: a });
      }
    }
  }
  return changes;
}

/** Orders changes by tool name, then project name (no project first), then slot name, as plain code points. */
export function compareChanges(a: BindingChange, b: BindingChange): number {
  return (
    compare(a.toolName, b.toolName) ||
    compare(a.projectName ?? '', b.projectName ?? '') ||
    compare(a.slotName, b.slotName) ||
    compare(a.toolId, b.toolId) ||
    compare(a.projectId ?? '', b.projectId ?? '')
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Which (tool, project) pairs an edit can change, found from what changed,
 * never by looking at the whole registry. Contextual scopes pair projects
 * with the tools that have a CONTEXTUAL slot of one of `slotTypes`:
 * - `projects`: the given projects;
 * - `linkersOfResource`: the projects that link the resource;
 * - `linkersOfTypes`: the projects that link a resource of one of the types.
 * The others:
 * - `tool`: one tool in every project (those linking nothing its slots of
 *   `slotTypes` accept share one outcome);
 * - `staticBinders…`: the tools with a STATIC slot bound to the resource, or
 *   to a resource of one of the types, with no project.
 */
export type ImpactScope =
  | { readonly kind: 'projects'; readonly projects: readonly Named[]; readonly slotTypes: readonly string[] }
  | { readonly kind: 'linkersOfResource'; readonly resourceId: string; readonly slotTypes: readonly string[] }
  | {
      readonly kind: 'linkersOfTypes';
      readonly resourceTypes: readonly string[];
      readonly slotTypes: readonly string[];
    }
  | { readonly kind: 'tool'; readonly tool: Named; readonly slotTypes: readonly string[] }
  | { readonly kind: 'staticBindersOfResource'; readonly resourceId: string }
  | { readonly kind: 'staticBindersOfTypes'; readonly resourceTypes: readonly string[] };

/** A thing's id and name. */
export interface Named {
  readonly id: string;
  readonly name: string;
}

/** The slot types a resource of this type fills: the type and its ancestors. */
export function typesFilledBy(hierarchy: TypeHierarchy, typeId: string): string[] {
  return [typeId, ...hierarchy.ancestorsOf(typeId).map((t) => t.id)];
}

/**
 * Rule: only links (made, removed or re-aliased) and updates of resources,
 * types and tools can change a listed outcome; creating or deleting anything
 * else reaches no listed pair (see scopeOfEdit), and access (grants, tokens) none at all.
 */
export function mayChangeBindings(edit: RegistryEdit): boolean {
  if (isAccessEdit(edit)) return false;
  return edit.kind === 'LINK' || (edit.kind !== 'PROJECT' && edit.before !== null && edit.after !== null);
}

/**
 * The scope of one edit. Creating or deleting a tool or a project changes no
 * listed pair (such pairs are not listed), and a new type or resource binds
 * nothing yet; deleting a resource or a type is refused while anything uses
 * it, and a forced delete unlinks first (each unlink is an edit of its own).
 */
export function scopeOfEdit(edit: RegistryEdit, before: TypeHierarchy, after: TypeHierarchy): ImpactScope[] {
  if (!mayChangeBindings(edit)) return [];
  switch (edit.kind) {
    case 'LINK': {
      // Rule: linking, unlinking or re-aliasing changes what the project's slots of the types the resource fills find.
      const link = edit.before ?? edit.after;
      if (!link) return [];
      const slotTypes = new Set([
        ...(edit.before ? typesFilledBy(before, edit.before.resource.typeId) : []),
        ...(edit.after ? typesFilledBy(after, edit.after.resource.typeId) : []),
      ]);
      return [{ kind: 'projects', projects: [link.project], slotTypes: [...slotTypes] }];
    }
    case 'RESOURCE': {
      // Rule: a new short name or type changes what the projects linking the resource find, and a
      // new type may change whether the tools binding it statically still fit.
      if (!edit.before || !edit.after) return [];
      const renamed = edit.before.shortName !== edit.after.shortName;
      const retyped = edit.before.typeId !== edit.after.typeId;
      if (!renamed && !retyped) return [];
      const slotTypes = new Set([
        ...typesFilledBy(before, edit.before.typeId),
        ...typesFilledBy(after, edit.after.typeId),
      ]);
      const scopes: ImpactScope[] = [
        { kind: 'linkersOfResource', resourceId: edit.after.id, slotTypes: [...slotTypes] },
      ];
      if (retyped) scopes.push({ kind: 'staticBindersOfResource', resourceId: edit.after.id });
      return scopes;
    }
    case 'RESOURCE_TYPE': {
      // Rule: new parents change which slot types the resources of the type, and of its sub-types, fill.
      if (!edit.before || !edit.after) return [];
      const was = new Set(before.ancestorsOf(edit.before.id).map((t) => t.id));
      const is = new Set(after.ancestorsOf(edit.after.id).map((t) => t.id));
      const changed = [...was, ...is].filter((id) => was.has(id) !== is.has(id));
      if (changed.length === 0) return [];
      const resourceTypes = [
        ...new Set([
          edit.after.id,
          ...before.descendantsOf(edit.before.id).map((t) => t.id),
          ...after.descendantsOf(edit.after.id).map((t) => t.id),
        ]),
      ];
      return [
        { kind: 'linkersOfTypes', resourceTypes, slotTypes: [...new Set(changed)] },
        { kind: 'staticBindersOfTypes', resourceTypes },
      ];
    }
    case 'TOOL': {
      // Rule: new slots change the tool everywhere.
      if (!edit.before || !edit.after || sameSlots(edit.before.slots, edit.after.slots)) return [];
      const slotTypes = new Set(
        [...edit.before.slots, ...edit.after.slots].filter((s) => s.binding === 'CONTEXTUAL').map((s) => s.typeId),
      );
      return [{ kind: 'tool', tool: edit.after, slotTypes: [...slotTypes] }];
    }
    case 'PROJECT':
      // Rule: a project's name or description binds nothing.
      return [];
    case 'GRANT':
    case 'API_TOKEN':
      // Rule: who may change the registry binds nothing.
      return [];
  }
}
