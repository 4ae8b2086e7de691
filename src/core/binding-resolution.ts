import type { FailureReason, FieldProblem } from './errors';
import type { LinkedResource, ResourceInfo, SlotDefinition } from './model';
import {
  describeTypeFamily,
  DeferredResolution,
  explainContextual,
  outcome,
  toProblem,
  typeMismatchMessage,
  typeName,
  type Explanation,
} from './resolution-account';
import type {
  BindHow,
  BindingSummary,
  CandidateVerdict,
  ResolutionContext,
  SlotResolution,
  SlotStatus,
} from './slot-resolution';

export { describeTypeFamily } from './resolution-account';
export * from './slot-resolution';

/** Resolves every slot in order (the seed's resolution order), explaining each. */
export function resolveSlots(slots: readonly SlotDefinition[], context: ResolutionContext): SlotResolution[] {
  return slots.map((slot) => resolveSlot(slot, context));
}

/** Resolves one slot by its binding mode. */
export function resolveSlot(slot: SlotDefinition, context: ResolutionContext): SlotResolution {
  switch (slot.binding) {
    case 'STATIC':
      return resolveStatic(slot, context);
    case 'PARAMETER':
      return resolveParameter(slot, context);
    case 'CONTEXTUAL':
      return resolveContextual(slot, context);
  }
}

/** Turns resolutions into resolveBindings' answer: results when every slot is fine, else every failure. */
export function summarize(resolutions: readonly SlotResolution[]): BindingSummary {
  const failed = resolutions.filter((r) => r.status === 'FAILED');
  if (failed.length > 0) return { ok: false, problems: failed.map(toProblem) };
  return {
    ok: true,
    results: resolutions.map((r) => ({
      slotName: r.slot.name,
      bindingMode: r.slot.binding,
      access: r.slot.access,
      resource: r.resource,
      deferred: r.status === 'DEFERRED',
    })),
  };
}

/**
 * Checks invocation params against the tool's slots. Each is a problem:
 * a param for a slot the tool lacks, for a slot that is not PARAMETER-bound,
 * or a second param for the same slot.
 */
export function checkParams(
  toolName: string,
  slots: readonly SlotDefinition[],
  params: readonly { slot: string }[],
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  // Most invocations pass no params: nothing to index then.
  if (params.length === 0) return problems;
  const bySlotName = new Map<string, SlotDefinition>();
  for (const slot of slots) bySlotName.set(slot.name, slot);
  const firstIndex = new Map<string, number>();
  params.forEach((param, index) => {
    const field = `params[${index}].slot`;
    const slot = bySlotName.get(param.slot);
    if (!slot) {
      problems.push({ field, message: `tool '${toolName}' has no slot '${param.slot}'` });
    } else if (slot.binding !== 'PARAMETER') {
      problems.push({
        field,
        message: `slot '${param.slot}' is ${slot.binding}-bound; only PARAMETER slots take params`,
      });
    } else if (firstIndex.has(param.slot)) {
      problems.push({
        field,
        message: `slot '${param.slot}' is given twice (params[${firstIndex.get(param.slot)}] and params[${index}])`,
      });
    } else {
      firstIndex.set(param.slot, index);
    }
  });
  return problems;
}

// --- STATIC ---------------------------------------------------------------

/** Rule: a STATIC slot binds its registered resource when the type fits. */
function resolveStatic(slot: SlotDefinition, context: ResolutionContext): SlotResolution {
  const resource = slot.staticResourceId ? (context.staticResources.get(slot.staticResourceId) ?? null) : null;
  const ref = resource?.name ?? slot.staticResourceId ?? '';
  return bindNamedResource(slot, context, ref, resource, 'STATIC');
}

// --- PARAMETER ------------------------------------------------------------

/** Rule: a PARAMETER slot binds eagerly when a param names it, and is deferred otherwise. */
function resolveParameter(slot: SlotDefinition, context: ResolutionContext): SlotResolution {
  const param = context.params.get(slot.name);
  if (!param) return new DeferredResolution(slot);
  return bindNamedResource(slot, context, param.ref, param.resource, 'PARAMETER');
}

/** Shared by STATIC and PARAMETER: the named resource must exist and its type must fit. */
function bindNamedResource(
  slot: SlotDefinition,
  context: ResolutionContext,
  ref: string,
  resource: ResourceInfo | null,
  how: 'STATIC' | 'PARAMETER',
): SlotResolution {
  const slotType = typeName(context, slot.typeId);
  if (!resource) {
    return outcome(slot, {
      status: 'FAILED',
      reason: 'NOT_FOUND',
      message: () => `slot '${slot.name}': no resource '${ref}' is registered`,
      fix: () =>
        how === 'STATIC'
          ? `register resource '${ref}', or re-register the tool with an existing resource`
          : `pass the name or id of a registered resource of type ${slotType}`,
      candidates: () => [
        {
          resource: null,
          ref,
          alias: null,
          accepted: false,
          rejection: 'NOT_FOUND',
          typeChain: [],
          message: `no resource '${ref}' is registered`,
        },
      ],
    });
  }
  if (!context.hierarchy.isCompatible(resource.typeId, slot.typeId)) {
    const mismatch = () => typeMismatchMessage(resource, context.hierarchy.chainOf(resource.typeId), slotType);
    return outcome(slot, {
      status: 'FAILED',
      reason: 'TYPE_MISMATCH',
      message: () => `slot '${slot.name}': ${mismatch()}`,
      fix: () => `use a resource of type ${describeTypeFamily(context, slot.typeId)}`,
      candidates: () => [
        {
          resource,
          ref: resource.name,
          alias: null,
          accepted: false,
          rejection: 'TYPE_MISMATCH',
          typeChain: context.hierarchy.chainOf(resource.typeId),
          message: mismatch(),
        },
      ],
    });
  }
  return outcome(slot, {
    status: 'BOUND',
    how,
    resource,
    message: () => `slot '${slot.name}' is bound to ${how === 'STATIC' ? 'static' : 'parameter'} resource '${ref}'`,
    candidates: () => {
      const typeChain = context.hierarchy.chainOf(resource.typeId);
      return [
        {
          resource,
          ref: resource.name,
          alias: null,
          accepted: true,
          rejection: null,
          typeChain,
          message: `type ${typeChain.join(' → ')} fits '${slotType}'`,
        },
      ];
    },
  });
}

// --- CONTEXTUAL -----------------------------------------------------------

/**
 * Rule: among the project's linked resources whose type fits (sub-types
 * included), one candidate binds; several are narrowed by the slot name,
 * first as a link alias, then as a short name; none fails a required slot
 * and leaves an optional one unbound.
 *
 * Only the decision is made here, in one pass over the links with nothing
 * allocated but the answer; its words and candidates are worked out from the
 * same rules when first read (`explainContextual`), which a resolve that
 * binds, or a binding impact over thousands of pairs, never does.
 */
function resolveContextual(slot: SlotDefinition, context: ResolutionContext): SlotResolution {
  const fitting = context.hierarchy.typesFitting(slot.typeId);
  let compatible = 0;
  let first: LinkedResource | null = null;
  let byAlias = 0;
  let aliased: LinkedResource | null = null;
  let byShortName = 0;
  let named: LinkedResource | null = null;
  for (const link of context.links) {
    if (!fitting.has(link.resource.typeId)) continue;
    if (compatible++ === 0) first = link;
    if (link.alias === slot.name && byAlias++ === 0) aliased = link;
    if (link.resource.shortName === slot.name && byShortName++ === 0) named = link;
  }
  // Rule: no compatible candidate fails a required slot, and leaves an optional one unbound.
  if (compatible === 0) {
    return slot.required
      ? new ContextualResolution(slot, context, 'FAILED', null, 'NO_MATCH', null)
      : new ContextualResolution(slot, context, 'UNBOUND_OPTIONAL', null, null, null);
  }
  // Rule: exactly one compatible candidate binds.
  if (compatible === 1) return new ContextualResolution(slot, context, 'BOUND', 'SINGLE_CANDIDATE', null, first);
  // Rule: among several, the one whose link alias equals the slot name binds.
  if (byAlias === 1) return new ContextualResolution(slot, context, 'BOUND', 'ALIAS', null, aliased);
  // Rule: else, the one whose short name equals the slot name binds.
  if (byShortName === 1) return new ContextualResolution(slot, context, 'BOUND', 'SHORT_NAME', null, named);
  // Rule: otherwise the slot is ambiguous.
  return new ContextualResolution(slot, context, 'FAILED', null, 'AMBIGUOUS', null);
}

/** A contextual slot's decision; its message, fix and candidates are worked out when first read. */
class ContextualResolution implements SlotResolution {
  readonly resource: ResourceInfo | null;
  private account: Explanation | null = null;

  constructor(
    readonly slot: SlotDefinition,
    private readonly context: ResolutionContext,
    readonly status: SlotStatus,
    readonly how: BindHow | null,
    readonly reason: FailureReason | null,
    readonly chosen: LinkedResource | null,
  ) {
    this.resource = chosen?.resource ?? null;
  }

  get message(): string {
    return (this.account ??= explainContextual(this, this.context)).message;
  }

  get fix(): string | null {
    return (this.account ??= explainContextual(this, this.context)).fix;
  }

  get candidates(): readonly CandidateVerdict[] {
    return (this.account ??= explainContextual(this, this.context)).candidates;
  }
}
