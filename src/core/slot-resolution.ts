/** The words of binding resolution: what happened to a slot, which rule decided it, and every candidate. */
import type { BindingProblem, FailureReason } from './errors';
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
