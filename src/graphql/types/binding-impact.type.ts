import { Field, ID, Int, ObjectType } from 'type-graphql';
import { FailureReason, SlotStatus } from './enums';

@ObjectType({
  description:
    'What resolving a slot without params gives, by id and name (the resource may no longer exist). A value with no identity of its own: part of its BindingChange.',
  simpleResolvers: true,
})
export class SlotOutcome {
  @Field(() => SlotStatus, { description: 'ABSENT when the slot does not exist on this side of the change.' })
  status!: SlotStatus;

  @Field(() => FailureReason, { nullable: true, description: 'For FAILED: why.' })
  reason!: FailureReason | null;

  @Field(() => ID, { nullable: true, description: 'The bound resource, when BOUND.' })
  resourceId!: string | null;

  @Field(() => String, { nullable: true, description: "The bound resource's name at that time." })
  resourceName!: string | null;
}

@ObjectType({
  description:
    'One slot whose outcome a change changes, in one project (or, for a slot that does not depend on the project, in none).',
  simpleResolvers: true,
})
export class BindingChange {
  @Field(() => ID, {
    description:
      "Stands for this change: its change-log entry, tool, project and slot, so the same change has the same id in the change log, in its mutation's payload and in a subscription. A dry run's changes, which no entry records, have ids of their own (the same preview, the same ids).",
  })
  id!: string;

  @Field(() => ID, { description: 'The tool the slot belongs to.' })
  toolId!: string;

  @Field({ description: "The tool's name (after the change)." })
  toolName!: string;

  @Field(() => ID, {
    nullable: true,
    description: 'Null for a STATIC or PARAMETER slot, which does not depend on a project.',
  })
  projectId!: string | null;

  @Field(() => String, { nullable: true, description: 'Null for a STATIC or PARAMETER slot.' })
  projectName!: string | null;

  @Field({ description: 'The slot whose outcome changes.' })
  slotName!: string;

  @Field(() => SlotOutcome, { description: 'The outcome before the change.' })
  before!: SlotOutcome;

  @Field(() => SlotOutcome, { description: 'The outcome after the change.' })
  after!: SlotOutcome;
}

@ObjectType({
  description:
    "What a mutation does to bindings: every (tool, project) slot whose outcome, resolved without params, differs in status, reason or bound resource. A value with no identity of its own: part of its mutation's payload.",
  simpleResolvers: true,
})
export class BindingImpact {
  @Field(() => Int, {
    description:
      'How many slots change in all, among the (tool, project) pairs examined: a lower bound when complete is false.',
  })
  totalCount!: number;

  @Field({ description: 'True when changes lists fewer than totalCount (at most 200 are listed).' })
  truncated!: boolean;

  @Field({
    description:
      'False when the work cap was reached (20,000 tool × project pairs): pairs beyond it were not examined, so totalCount is a lower bound.',
  })
  complete!: boolean;

  @Field(() => [BindingChange], { description: 'At most 200 changes, ordered by tool name, project name, slot name.' })
  changes!: BindingChange[];
}
