import type { ToolResolution } from '../application/binding.service';
import type { SlotResolution } from '../core/binding-resolution';

/** The GraphQL shape of a tool's resolution (shared by explainBindings and Tool.bindingsIn). */
export function toExplanation(resolution: ToolResolution) {
  return {
    tool: resolution.tool,
    project: resolution.project,
    ok: resolution.slots.every((s) => s.status !== 'FAILED'),
    slots: resolution.slots.map(toSlotExplanation),
  };
}

function toSlotExplanation(slot: SlotResolution) {
  return {
    slotName: slot.slot.name,
    bindingMode: slot.slot.binding,
    status: slot.status,
    reason: slot.reason,
    how: slot.how,
    resource: slot.resource,
    message: slot.message,
    fix: slot.fix,
    candidates: slot.candidates.map((c) => ({ ...c, typeChain: [...c.typeChain] })),
  };
}
