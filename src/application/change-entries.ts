/**
 * What a committed change writes and reports: one change-log entry per edit (what it did, to what, by which
 * mutation, with the binding changes it caused), and the impact its payload shows. RegistryWrites builds them in the
 * change's transaction.
 */
import { entryNamespace } from '../core/access';
import { loggedChangeId, type IdentifiedChange } from '../core/binding-impact';
import { describeEdit, isAccessEdit, namespacesOfEdit, subjectOf, type RegistryEdit } from '../core/registry-edit';
import type { ChangeRecord } from '../persistence/records';
import { IMPACT_LIMITS, type BindingImpact, type ImpactTracker, type TrackedImpact } from './binding-impact';
import { newId, previewChangeId } from './ids';
import type { WriteScope } from './versioning';

/** Names a type id from the hierarchy after the change, or before it (a deleted type); only types and resources need it. */
export async function typeNamer(
  tracker: ImpactTracker,
  scope: WriteScope,
  edits: readonly RegistryEdit[],
): Promise<(id: string) => string> {
  if (!edits.some((e) => e.kind === 'RESOURCE_TYPE' || e.kind === 'RESOURCE')) return (id) => id;
  const [after, before] = await Promise.all([tracker.hierarchy(), scope.hierarchy()]);
  return (id) => after.byId(id)?.name ?? before.byId(id)?.name ?? id;
}

/** One change-log entry per edit, in order, each with the binding changes it caused and the mutation that made it. */
export function changeEntries(
  edits: readonly RegistryEdit[],
  tracked: TrackedImpact,
  actor: string,
  operations: readonly string[],
  { version, writer: { at } }: WriteScope,
  typeName: (id: string) => string,
): ChangeRecord[] {
  return edits.map((edit, seq) => {
    const subject = subjectOf(edit);
    const id = newId();
    return {
      id,
      version,
      seq,
      at,
      actor,
      operation: operations[seq],
      kind: edit.kind,
      entityId: subject.id,
      entityName: subject.name,
      previousName: subject.previousName,
      relatedId: subject.related?.id ?? null,
      relatedName: subject.related?.name ?? null,
      summary: describeEdit(edit, typeName),
      impactCount: tracked.countByEdit[seq] ?? 0,
      impactComplete: tracked.completeByEdit[seq] ?? true,
      bindingChanges: tracked.kept
        .filter((k) => k.edit === seq)
        .map((k) => ({ ...k.change, id: loggedChangeId(id, k.change) })),
      namespace: isAccessEdit(edit) ? entryNamespace(namespacesOfEdit(edit).map((n) => n.namespace)) : null,
    };
  });
}

/**
 * The impact a payload reports: the summary, and the first changes, each
 * with its entry's id for it (the same as in the change log and the live
 * feed); a dry run's, which no entry records, get preview ids at `previewAt`.
 */
export function impactOf(
  tracked: TrackedImpact,
  entries: readonly ChangeRecord[],
  previewAt: number | null,
): BindingImpact {
  const changes: IdentifiedChange[] = tracked.kept.slice(0, IMPACT_LIMITS.listed).map(({ change, edit }) => ({
    ...change,
    id: previewAt === null ? loggedChangeId(entries[edit].id, change) : previewChangeId(previewAt, change),
  }));
  return { ...tracked.impact, changes };
}
