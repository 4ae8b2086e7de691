import { ValidateNested } from 'class-validator';
import { Field, InputType } from 'type-graphql';
import {
  checkDescription,
  checkListSize,
  checkRef,
  checkResourceName,
  checkSlotName,
  LIMITS,
} from '../../core/grammar';
import { SLOT_DEFAULTS } from '../../core/tool-validation';
import { Access, BindingMode } from '../types/enums';
import { Satisfies } from '../validation';

const checkSlotCount = (slots: unknown[]) => checkListSize(slots.length, LIMITS.resourceSlots);

@InputType({
  description: 'One slot of a tool: the type of resource it needs, the access it wants, and how it is bound.',
})
export class ResourceSlotInput {
  @Field({ description: `Unique within the tool; ^[a-z_][a-z0-9_-]*$, at most ${LIMITS.slotName} characters.` })
  @Satisfies(checkSlotName)
  name!: string;

  @Field({ description: 'The required resource type (a ref).' })
  @Satisfies(checkRef)
  resourceType!: string;

  @Field(() => Access, {
    defaultValue: SLOT_DEFAULTS.access,
    description: `How the tool may use the resource; ${SLOT_DEFAULTS.access} by default.`,
  })
  access!: Access;

  @Field(() => BindingMode, {
    defaultValue: SLOT_DEFAULTS.binding,
    description: `How the slot finds its resource; ${SLOT_DEFAULTS.binding} by default. STATIC needs staticResource.`,
  })
  binding!: BindingMode;

  @Field(() => String, { nullable: true, description: 'For STATIC slots only: the resource (a ref).' })
  @Satisfies(checkRef)
  staticResource!: string | null;

  @Field({
    defaultValue: SLOT_DEFAULTS.required,
    description: `False when the tool can run without it; ${SLOT_DEFAULTS.required} by default.`,
  })
  required!: boolean;
}

@InputType({ description: 'A new tool and its slots.' })
export class RegisterToolInput {
  @Field({ description: 'Unique; the same grammar as resource names.' })
  @Satisfies(checkResourceName)
  name!: string;

  @Field(() => String, { nullable: true, description: 'Free text, at most 4,000 characters.' })
  @Satisfies(checkDescription)
  description!: string | null;

  @Field(() => [ResourceSlotInput], { description: `In order; at most ${LIMITS.resourceSlots}.` })
  @Satisfies(checkSlotCount)
  @ValidateNested()
  resourceSlots!: ResourceSlotInput[];
}
