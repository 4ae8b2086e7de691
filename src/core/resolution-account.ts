/**
 * The account of a slot's resolution: its message, fix and candidates,
 * worked out from the same rules that decided it (./binding-resolution.ts),
 * only when first read.
 */
import type { BindingProblem, FailureReason } from './errors';
import type { LinkedResource, ResourceInfo, SlotDefinition } from './model';
import type {
  BindHow,
  CandidateVerdict,
  Rejection,
  ResolutionContext,
  SlotResolution,
  SlotStatus,
} from './slot-resolution';

/** A contextual slot's decision, as its account needs it. */
export interface ContextualDecision {
  readonly slot: SlotDefinition;
  readonly status: SlotStatus;
  readonly how: BindHow | null;
  readonly reason: FailureReason | null;
  readonly chosen: LinkedResource | null;
}

/** The words of a slot's account. */
export interface Explanation {
  readonly message: string;
  readonly fix: string | null;
  readonly candidates: readonly CandidateVerdict[];
}

/** The message, fix and candidates of a contextual decision, from the same rules that made it. */
export function explainContextual(resolution: ContextualDecision, context: ResolutionContext): Explanation {
  const { slot } = resolution;
  const slotType = typeName(context, slot.typeId);
  const fitting = context.hierarchy.typesFitting(slot.typeId);
  const chainOf = (link: LinkedResource) => context.hierarchy.chainOf(link.resource.typeId);
  const looked: LinksLookedAt = {
    compatible: context.links.filter((link) => fitting.has(link.resource.typeId)),
    mismatched: context.links
      .filter((link) => !fitting.has(link.resource.typeId))
      .map((link) =>
        verdict(link, chainOf(link), 'TYPE_MISMATCH', typeMismatchMessage(link.resource, chainOf(link), slotType)),
      ),
    chainOf,
  };
  return resolution.status === 'BOUND'
    ? explainBound(resolution, context, looked)
    : explainUnbound(resolution, context, looked);
}

/** The project's links as a contextual slot's account sees them. */
interface LinksLookedAt {
  /** The links whose resource's type fits the slot. */
  readonly compatible: readonly LinkedResource[];
  /** The verdicts on the links whose type does not fit. */
  readonly mismatched: readonly CandidateVerdict[];
  readonly chainOf: (link: LinkedResource) => readonly string[];
}

/** The account of a bound contextual slot, by the rule that bound it. */
function explainBound(resolution: ContextualDecision, context: ResolutionContext, looked: LinksLookedAt): Explanation {
  const { slot } = resolution;
  const chosen = resolution.chosen!;
  const { compatible, mismatched, chainOf } = looked;
  const bound = (why: string, candidates: CandidateVerdict[]): Explanation => ({
    message: `slot '${slot.name}' is bound to '${chosen.resource.name}', ${why}`,
    fix: null,
    candidates: [...candidates, ...mismatched],
  });
  switch (resolution.how) {
    // ALIAS: among several, the one linked under the slot's name.
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
                `fits, but '${chosen.resource.name}' is linked under alias '${slot.name}'`,
              ),
        ),
      );
    // SHORT_NAME: else, the one whose short name is the slot's name.
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
                `fits, but '${chosen.resource.name}' has the short name '${slot.name}'`,
              ),
        ),
      );
    default: {
      // SINGLE_CANDIDATE: the only linked resource whose type fits.
      const slotType = typeName(context, slot.typeId);
      return bound(`the only linked resource of type ${describeTypeFamily(context, slot.typeId)}`, [
        verdict(chosen, chainOf(chosen), null, `the only linked resource whose type fits '${slotType}'`),
      ]);
    }
  }
}

/** The account of a contextual slot left unbound, with no match, or ambiguous. */
function explainUnbound(
  resolution: ContextualDecision,
  context: ResolutionContext,
  looked: LinksLookedAt,
): Explanation {
  const { slot } = resolution;
  const { compatible, mismatched, chainOf } = looked;
  const missing = () =>
    `no resource of type ${describeTypeFamily(context, slot.typeId)} is linked to project ${context.projectName}`;
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

/**
 * One slot's account. Its message and candidates may be given as functions:
 * they are built on first read and then kept, so that resolving (which reads
 * neither for a bound slot) does not build the words explaining it does.
 */
export function outcome(
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
export class DeferredResolution implements SlotResolution {
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

export function toProblem(resolution: SlotResolution): BindingProblem {
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

export function typeName(context: Pick<ResolutionContext, 'hierarchy'>, typeId: string): string {
  return context.hierarchy.byId(typeId)?.name ?? typeId;
}

export function typeMismatchMessage(resource: ResourceInfo, typeChain: readonly string[], slotType: string): string {
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
