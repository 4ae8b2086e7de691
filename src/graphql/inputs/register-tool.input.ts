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
import { Access, BindingMode } from '../types/enums';
import { Satisfies } from '../validation';

const checkSlotCount = (slots: unknown[]) => checkListSize(slots.length, LIMITS.resourceSlots);

@InputType()
export class ResourceSlotInput {
  @Field({ description: `Unique within the tool; ^[a-z_][a-z0-9_-]*$, at most ${LIMITS.slotName} characters.` })
  @Satisfies(checkSlotName)
  name!: string;

  @Field({ description: 'The required resource type (a ref).' })
  @Satisfies(checkRef)
  resourceType!: string;

  @Field(() => Access, { defaultValue: Access.READ_ONLY })
  access!: Access;

  @Field(() => BindingMode, { defaultValue: BindingMode.CONTEXTUAL })
  binding!: BindingMode;

  @Field(() => String, { nullable: true, description: 'For STATIC slots only: the resource (a ref).' })
  @Satisfies(checkRef)
  staticResource!: string | null;

  @Field({ defaultValue: true })
  required!: boolean;
}

@InputType()
export class RegisterToolInput {
  @Field({ description: 'Unique; the same grammar as resource names.' })
  @Satisfies(checkResourceName)
  name!: string;

  @Field(() => String, { nullable: true })
  @Satisfies(checkDescription)
  description!: string | null;

  @Field(() => [ResourceSlotInput], { description: `In order; at most ${LIMITS.resourceSlots}.` })
  @Satisfies(checkSlotCount)
  @ValidateNested()
  resourceSlots!: ResourceSlotInput[];
}
