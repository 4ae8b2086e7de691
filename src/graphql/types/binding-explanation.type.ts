import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { BindingMode } from './enums';
import { Project } from './project.type';
import { Resource } from './resource.type';
import { Tool } from './tool.type';

/** What happened to a slot. */
export enum SlotStatus {
  BOUND = 'BOUND',
  DEFERRED = 'DEFERRED',
  UNBOUND_OPTIONAL = 'UNBOUND_OPTIONAL',
  FAILED = 'FAILED',
}

/** Why a slot failed, as in resolveBindings' problems. */
export enum FailureReason {
  NO_MATCH = 'NO_MATCH',
  AMBIGUOUS = 'AMBIGUOUS',
  TYPE_MISMATCH = 'TYPE_MISMATCH',
  NOT_FOUND = 'NOT_FOUND',
}

/** Which rule bound a slot. */
export enum BindHow {
  SINGLE_CANDIDATE = 'SINGLE_CANDIDATE',
  ALIAS = 'ALIAS',
  SHORT_NAME = 'SHORT_NAME',
  STATIC = 'STATIC',
  PARAMETER = 'PARAMETER',
}

/** Why a resource the rule looked at was not bound. */
export enum Rejection {
  TYPE_MISMATCH = 'TYPE_MISMATCH',
  NOT_CHOSEN_ALIAS = 'NOT_CHOSEN_ALIAS',
  NOT_CHOSEN_SHORT_NAME = 'NOT_CHOSEN_SHORT_NAME',
  AMBIGUOUS = 'AMBIGUOUS',
  NOT_FOUND = 'NOT_FOUND',
}

registerEnumType(SlotStatus, {
  name: 'SlotStatus',
  valuesConfig: {
    BOUND: { description: 'A resource fills the slot.' },
    DEFERRED: { description: 'A PARAMETER slot without a param: bound at invocation.' },
    UNBOUND_OPTIONAL: { description: 'An optional slot with no compatible resource: left empty, not an error.' },
    FAILED: { description: 'The slot cannot be bound; see reason and fix.' },
  },
});
registerEnumType(FailureReason, { name: 'FailureReason' });
registerEnumType(BindHow, {
  name: 'BindHow',
  valuesConfig: {
    SINGLE_CANDIDATE: { description: 'The only compatible linked resource.' },
    ALIAS: { description: 'Among several, the one linked under an alias equal to the slot name.' },
    SHORT_NAME: { description: 'Among several, the one whose short name equals the slot name.' },
    STATIC: { description: "The slot's registered static resource." },
    PARAMETER: { description: 'The resource passed as a param.' },
  },
});
registerEnumType(Rejection, {
  name: 'Rejection',
  valuesConfig: {
    TYPE_MISMATCH: { description: "Its type does not reach the slot's type (see typeChain)." },
    NOT_CHOSEN_ALIAS: { description: 'Compatible, but another resource is linked under the alias.' },
    NOT_CHOSEN_SHORT_NAME: { description: 'Compatible, but another resource has the short name.' },
    AMBIGUOUS: { description: 'Compatible and tied with others: nothing picks one.' },
    NOT_FOUND: { description: 'The named resource is not registered.' },
  },
});

@ObjectType({ description: 'A resource a binding rule looked at, and its verdict.', simpleResolvers: true })
export class CandidateExplanation {
  @Field(() => Resource, { nullable: true, description: 'Null when a static or parameter ref names nothing.' })
  resource!: Resource | null;

  @Field({ description: 'The name looked up or found.' })
  ref!: string;

  @Field(() => String, { nullable: true, description: 'The link alias, for contextual candidates.' })
  alias!: string | null;

  @Field()
  accepted!: boolean;

  @Field(() => Rejection, { nullable: true })
  rejection!: Rejection | null;

  @Field(() => [String], { description: "The resource's type, then its ancestors, nearest first: what it can fill." })
  typeChain!: string[];

  @Field()
  message!: string;
}

@ObjectType({ description: 'How one slot was, or was not, bound.', simpleResolvers: true })
export class SlotExplanation {
  @Field()
  slotName!: string;

  @Field(() => BindingMode)
  bindingMode!: BindingMode;

  @Field(() => SlotStatus)
  status!: SlotStatus;

  @Field(() => FailureReason, { nullable: true, description: 'For FAILED: as in resolveBindings.' })
  reason!: FailureReason | null;

  @Field(() => BindHow, { nullable: true, description: 'For BOUND: the rule that chose the resource.' })
  how!: BindHow | null;

  @Field(() => Resource, { nullable: true })
  resource!: Resource | null;

  @Field()
  message!: string;

  @Field(() => String, {
    nullable: true,
    description: 'For AMBIGUOUS and NO_MATCH (and other failures): a concrete fix.',
  })
  fix!: string | null;

  @Field(() => [CandidateExplanation], { description: 'Every resource the rule looked at.' })
  candidates!: CandidateExplanation[];
}

@ObjectType({ description: 'Why each slot of a tool did, or did not, bind in a project.', simpleResolvers: true })
export class BindingExplanation {
  @Field(() => Tool)
  tool!: Tool;

  @Field(() => Project)
  project!: Project;

  @Field({ description: 'True when resolveBindings would succeed.' })
  ok!: boolean;

  @Field(() => [SlotExplanation])
  slots!: SlotExplanation[];
}
