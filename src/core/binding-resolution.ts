import type { BindingProblem, FailureReason, FieldProblem } from './errors';
import type { BindingMode, LinkedResource, ResourceInfo, SlotDefinition } from './model';
import type { TypeHierarchy } from './type-hierarchy';

/** What happened to a slot. */
export const SLOT_STATUSES = ['BOUND', 'DEFERRED', 'UNBOUND_OPTIONAL', 'FAILED'] as const;
export type SlotStatus = (typeof SLOT_STATUSES)[number];
/** Which rule bound a slot. */
export const BIND_HOWS = ['SINGLE_CANDIDATE', 'ALIAS', 'SHORT_NAME', 'STATIC', 'PARAMETER'] as const;
export type BindHow = (typeof BIND_HOWS)[number];
/** Why a resource the rule looked at was not the one bound. */
export const REJECTIONS = [
  'TYPE_MISMATCH',
  'NOT_CHOSEN_ALIAS',
  'NOT_CHOSEN_SHORT_NAME',
  'AMBIGUOUS',
  'NOT_FOUND',
] as const;
export type Rejection = (typeof REJECTIONS)[number];

/** A resource named by a parameter, looked up in the whole registry (null when the ref names nothing). */
export interface ParamValue {
  readonly ref: string;
  readonly resource: ResourceInfo | null;
}

/** Everything resolution needs, already loaded: it does no I/O. */
export interface ResolutionContext {
  readonly projectName: string;
  readonly hierarchy: TypeHierarchy;
  /** The project's linked resources. */
  readonly links: readonly LinkedResource[];
  /** Static resources of the tool's slots, by id. */
  readonly staticResources: ReadonlyMap<string, ResourceInfo>;
  /** Invocation params, by slot name. */
  readonly params: ReadonlyMap<string, ParamValue>;
}

/** One resource the rule looked at, and its verdict. */
export interface CandidateVerdict {
  /** The resource, or null when a ref named nothing. */
  readonly resource: ResourceInfo | null;
  /** The name the rule looked for or found. */
  readonly ref: string;
  /** The link alias, for contextual candidates. */
  readonly alias: string | null;
  readonly accepted: boolean;
  readonly rejection: Rejection | null;
  /** The resource's type and its ancestors, nearest first. */
  readonly typeChain: readonly string[];
  readonly message: string;
}

/** The full account of one slot: the result, the rule that decided it, and every candidate. */
export interface SlotResolution {
  readonly slot: SlotDefinition;
  readonly status: SlotStatus;
  readonly how: BindHow | null;
  readonly reason: FailureReason | null;
  readonly resource: ResourceInfo | null;
  readonly message: string;
  readonly fix: string | null;
  readonly candidates: readonly CandidateVerdict[];
}

/** The seed's BindingResult for one slot. */
export interface BindingOutcome {
  readonly slotName: string;
  readonly bindingMode: BindingMode;
  readonly access: SlotDefinition['access'];
  readonly resource: ResourceInfo | null;
  readonly deferred: boolean;
}

/** Either every slot's result, or every failing slot. */
export type BindingSummary =
  | { readonly ok: true; readonly results: BindingOutcome[] }
  | { readonly ok: false; readonly problems: BindingProblem[] };

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

/** The words of a slot's account. */
interface Explanation {
  readonly message: string;
  readonly fix: string | null;
  readonly candidates: readonly CandidateVerdict[];
}

/** The message, fix and candidates of a contextual decision, from the same rules that made it. */
function explainContextual(resolution: ContextualResolution, context: ResolutionContext): Explanation {
  const { slot, chosen } = resolution;
  const slotType = typeName(context, slot.typeId);
  const fitting = context.hierarchy.typesFitting(slot.typeId);
  const compatible = context.links.filter((link) => fitting.has(link.resource.typeId));
  const chainOf = (link: LinkedResource) => context.hierarchy.chainOf(link.resource.typeId);
  const mismatched = context.links
    .filter((link) => !fitting.has(link.resource.typeId))
    .map((link) =>
      verdict(link, chainOf(link), 'TYPE_MISMATCH', typeMismatchMessage(link.resource, chainOf(link), slotType)),
    );
  const bound = (why: string, candidates: CandidateVerdict[]): Explanation => ({
    message: `slot '${slot.name}' is bound to '${chosen!.resource.name}', ${why}`,
    fix: null,
    candidates: [...candidates, ...mismatched],
  });
  const missing = () =>
    `no resource of type ${describeTypeFamily(context, slot.typeId)} is linked to project ${context.projectName}`;

  switch (resolution.how) {
    case 'SINGLE_CANDIDATE':
      return bound(`the only linked resource of type ${describeTypeFamily(context, slot.typeId)}`, [
        verdict(chosen!, chainOf(chosen!), null, `the only linked resource whose type fits '${slotType}'`),
      ]);
    case 'ALIAS':
      return bound(
        `linked under alias '${slot.name}'`,
        compatible.map((l) =>
          l === chosen
            ? verdict(l, chainOf(l), null, `linked under alias '${slot.name}', the slot's name`)
            : verdict(
                l,
                chainOf(l),
                'NOT_CHOSEN_ALIAS',
                `fits, but '${chosen!.resource.name}' is linked under alias '${slot.name}'`,
              ),
        ),
      );
    case 'SHORT_NAME':
      return bound(
        `whose short name is '${slot.name}'`,
        compatible.map((l) =>
          l === chosen
            ? verdict(l, chainOf(l), null, `short name '${l.resource.shortName}' equals the slot's name`)
            : verdict(
                l,
                chainOf(l),
                'NOT_CHOSEN_SHORT_NAME',
                `fits, but '${chosen!.resource.name}' has the short name '${slot.name}'`,
              ),
        ),
      );
    default:
      break;
  }
  if (resolution.status === 'UNBOUND_OPTIONAL') {
    return {
      message: `optional slot '${slot.name}' is left unbound: ${missing()}`,
      fix: null,
      candidates: mismatched,
    };
  }
  if (resolution.reason === 'NO_MATCH') {
    return {
      message: `slot '${slot.name}': ${missing()}`,
      fix: `link a resource of type ${describeTypeFamily(context, slot.typeId)} to project ${context.projectName}, or make the slot optional`,
      candidates: mismatched,
    };
  }
  // Ambiguous: the candidates still tied are reported.
  // (An alias is unique within a project, so at most one link can carry the slot's name as alias.)
  const byShortName = compatible.filter((l) => l.resource.shortName === slot.name);
  const tied = byShortName.length > 1 ? byShortName : compatible;
  const tiedNames = tied.map((l) => l.resource.name);
  const narrowing =
    byShortName.length > 1
      ? `fit and share the short name '${slot.name}'`
      : `fit and none is linked under alias '${slot.name}' or has that short name`;
  return {
    message: `slot '${slot.name}' is ambiguous: ${tied.length} linked resources (${tiedNames.join(', ')}) ${narrowing}`,
    fix: ambiguityFix(slot.name, tiedNames, context.links),
    candidates: [
      ...compatible.map((l) =>
        tied.includes(l)
          ? verdict(
              l,
              chainOf(l),
              'AMBIGUOUS',
              `fits, and is tied with ${tied.length - 1} other${tied.length === 2 ? '' : 's'}`,
            )
          : verdict(l, chainOf(l), 'NOT_CHOSEN_SHORT_NAME', `fits, but its short name is not '${slot.name}'`),
      ),
      ...mismatched,
    ],
  };
}

/**
 * Rule: the candidates of an ambiguous slot are all linked already, so the fix
 * is to give one of them the slot's name as its alias (updateLink), or to
 * unlink all but one; when an incompatible resource holds that alias, it must
 * give it up first.
 */
function ambiguityFix(slotName: string, tied: readonly string[], links: readonly LinkedResource[]): string {
  const list = tied.join(', ');
  const holder = links.find((l) => l.alias === slotName);
  if (holder) {
    return `alias '${slotName}' is held by '${holder.resource.name}', which does not fit: move it to one of ${list} with updateLink (or clear it there), or unlink all but one of ${list}`;
  }
  return `set alias '${slotName}' on one of ${list} with updateLink, or unlink all but one of them`;
}

// --- helpers --------------------------------------------------------------

/**
 * One slot's account. Its message and candidates may be given as functions:
 * they are built on first read and then kept, so that resolving (which reads
 * neither for a bound slot) does not build the words explaining it does.
 */
function outcome(
  slot: SlotDefinition,
  parts: Partial<Omit<SlotResolution, 'slot' | 'status' | 'message' | 'fix' | 'candidates'>> &
    Pick<SlotResolution, 'status'> & {
      message: string | (() => string);
      fix?: string | null | (() => string);
      candidates?: readonly CandidateVerdict[] | (() => readonly CandidateVerdict[]);
    },
): SlotResolution {
  return new Resolution(
    slot,
    parts.status,
    parts.how ?? null,
    parts.reason ?? null,
    parts.resource ?? null,
    parts.fix ?? null,
    parts.message,
    parts.candidates ?? [],
  );
}

/**
 * A SlotResolution whose message, fix and candidates are built when first read
 * (a class: its getters are shared). Resolving thousands of pairs (a binding
 * impact) reads none of them, not even for a failure.
 */
class Resolution implements SlotResolution {
  constructor(
    readonly slot: SlotDefinition,
    readonly status: SlotStatus,
    readonly how: BindHow | null,
    readonly reason: FailureReason | null,
    readonly resource: ResourceInfo | null,
    private remedy: string | null | (() => string),
    private words: string | (() => string),
    private verdicts: readonly CandidateVerdict[] | (() => readonly CandidateVerdict[]),
  ) {}

  get fix(): string | null {
    if (typeof this.remedy === 'function') this.remedy = this.remedy();
    return this.remedy;
  }

  get message(): string {
    if (typeof this.words === 'function') this.words = this.words();
    return this.words;
  }

  get candidates(): readonly CandidateVerdict[] {
    if (typeof this.verdicts === 'function') this.verdicts = this.verdicts();
    return this.verdicts;
  }
}

/** A PARAMETER slot with no param: deferred, with nothing to list (its message is worded when first read). */
class DeferredResolution implements SlotResolution {
  readonly status = 'DEFERRED';
  readonly how = null;
  readonly reason = null;
  readonly resource = null;
  readonly fix = null;
  readonly candidates: readonly CandidateVerdict[] = NO_CANDIDATES;

  constructor(readonly slot: SlotDefinition) {}

  get message(): string {
    return `slot '${this.slot.name}' is deferred: its resource is named when the tool is invoked`;
  }
}

const NO_CANDIDATES: readonly CandidateVerdict[] = Object.freeze([]);

function verdict(
  link: LinkedResource,
  typeChain: readonly string[],
  rejection: Rejection | null,
  message: string,
): CandidateVerdict {
  return {
    resource: link.resource,
    ref: link.resource.name,
    alias: link.alias,
    accepted: rejection === null,
    rejection,
    typeChain,
    message,
  };
}

function toProblem(resolution: SlotResolution): BindingProblem {
  const reason = resolution.reason ?? 'NO_MATCH';
  const candidates =
    reason === 'AMBIGUOUS'
      ? resolution.candidates.filter((c) => c.rejection === 'AMBIGUOUS').map((c) => c.ref)
      : reason === 'TYPE_MISMATCH'
        ? resolution.candidates.filter((c) => c.rejection === 'TYPE_MISMATCH').map((c) => c.ref)
        : [];
  return {
    slot: resolution.slot.name,
    reason,
    message: resolution.fix ? `${resolution.message}; ${resolution.fix}` : resolution.message,
    candidates,
  };
}

function typeName(context: Pick<ResolutionContext, 'hierarchy'>, typeId: string): string {
  return context.hierarchy.byId(typeId)?.name ?? typeId;
}

function typeMismatchMessage(resource: ResourceInfo, typeChain: readonly string[], slotType: string): string {
  return `resource '${resource.name}' has type ${typeChain.join(' → ')}, which does not reach '${slotType}'`;
}

/** "git-checkout or its sub-types (fs-directory, …)", or just the name when it has none. */
export function describeTypeFamily(context: Pick<ResolutionContext, 'hierarchy'>, typeId: string, shown = 5): string {
  const name = typeName(context, typeId);
  const subtypes = context.hierarchy.descendantsOf(typeId).map((t) => t.name);
  if (subtypes.length === 0) return name;
  const listed = subtypes.slice(0, shown).join(', ') + (subtypes.length > shown ? ', …' : '');
  return `${name} or its sub-types (${listed})`;
}
