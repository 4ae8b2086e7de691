import type { BindingParam, ToolResolution } from '../application/binding.service';
import type { CandidateVerdict, SlotResolution } from '../core/binding-resolution';
import { bindingsKey, candidateId, explanationId, slotExplanationId } from './object-ids';

/** The GraphQL shape of a tool's resolution with these params (shared by explainBindings and Tool.bindingsIn). */
export function toExplanation(resolution: ToolResolution, params: readonly BindingParam[]) {
  const id = explanationId(bindingsKey(resolution.tool.id, resolution.project.id, params));
  return {
    id,
    tool: resolution.tool,
    project: resolution.project,
    ok: resolution.slots.every((s) => s.status !== 'FAILED'),
    slots: resolution.slots.map((slot) => toSlotExplanation(id, slot)),
  };
}

function toSlotExplanation(explanation: string, slot: SlotResolution) {
  const id = slotExplanationId(explanation, slot.slot.name);
  return {
    id,
    slotName: slot.slot.name,
    bindingMode: slot.slot.binding,
    status: slot.status,
    reason: slot.reason,
    how: slot.how,
    resource: slot.resource,
    message: slot.message,
    fix: slot.fix,
    candidates: slot.candidates.map((c: CandidateVerdict) => ({
      ...c,
      id: candidateId(id, c.resource?.id ?? null, c.ref),
      typeChain: [...c.typeChain],
    })),
  };
}
