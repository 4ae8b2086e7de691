import { Field, ID, ObjectType } from 'type-graphql';
import { BindHow, BindingMode, FailureReason, Rejection, SlotStatus } from './enums';
import { Project } from './project.type';
import { Resource } from './resource.type';
import { Tool } from './tool.type';

@ObjectType({ description: 'A resource a binding rule looked at, and its verdict.', simpleResolvers: true })
export class CandidateExplanation {
  @Field(() => ID, {
    description: "Stands for the candidate in its slot's explanation: by its resource, or the ref that named nothing.",
  })
  id!: string;

  @Field(() => Resource, { nullable: true, description: 'Null when a static or parameter ref names nothing.' })
  resource!: Resource | null;

  @Field({ description: 'The name looked up or found.' })
  ref!: string;

  @Field(() => String, { nullable: true, description: 'The link alias, for contextual candidates.' })
  alias!: string | null;

  @Field({ description: 'True for the candidate the slot binds to.' })
  accepted!: boolean;

  @Field(() => Rejection, { nullable: true, description: 'Why it was passed over; null when accepted.' })
  rejection!: Rejection | null;

  @Field(() => [String], { description: "The resource's type, then its ancestors, nearest first: what it can fill." })
  typeChain!: string[];

  @Field({ description: 'Why it was chosen or passed over, in one sentence.' })
  message!: string;
}

@ObjectType({ description: 'How one slot was, or was not, bound.', simpleResolvers: true })
export class SlotExplanation {
  @Field(() => ID, { description: 'Stands for the slot in its explanation.' })
  id!: string;

  @Field({ description: 'The slot, by name.' })
  slotName!: string;

  @Field(() => BindingMode, { description: 'How the slot finds its resource.' })
  bindingMode!: BindingMode;

  @Field(() => SlotStatus, { description: 'The outcome.' })
  status!: SlotStatus;

  @Field(() => FailureReason, { nullable: true, description: 'For FAILED: as in resolveBindings.' })
  reason!: FailureReason | null;

  @Field(() => BindHow, { nullable: true, description: 'For BOUND: the rule that chose the resource.' })
  how!: BindHow | null;

  @Field(() => Resource, { nullable: true, description: 'The resource the slot binds to; null when it binds none.' })
  resource!: Resource | null;

  @Field({ description: 'What happened, in one sentence.' })
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
  @Field(() => ID, {
    description:
      'Stands for what is explained: the tool, the project and the params (Tool.bindingsIn is explainBindings without params, and has its id).',
  })
  id!: string;

  @Field(() => Tool, { description: 'The tool explained.' })
  tool!: Tool;

  @Field(() => Project, { description: 'The project it was explained in.' })
  project!: Project;

  @Field({ description: 'True when resolveBindings would succeed.' })
  ok!: boolean;

  @Field(() => [SlotExplanation], { description: "One explanation per slot, in the tool's declaration order." })
  slots!: SlotExplanation[];
}
