import { Field, ObjectType } from 'type-graphql';
import { BindHow, BindingMode, FailureReason, Rejection, SlotStatus } from './enums';
import { Project } from './project.type';
import { Resource } from './resource.type';
import { Tool } from './tool.type';

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
