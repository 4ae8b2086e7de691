import { Field, ID, ObjectType } from 'type-graphql';
import { Access, BindingMode } from './enums';
import { Resource } from './resource.type';

@ObjectType({ description: 'The outcome of binding one slot.', simpleResolvers: true })
export class BindingResult {
  @Field(() => ID, {
    description: "Stands for the slot's binding: the tool, the project, the params and the slot.",
  })
  id!: string;

  @Field({ description: 'The slot, by name.' })
  slotName!: string;

  @Field(() => BindingMode, { description: 'How the slot was bound.' })
  bindingMode!: BindingMode;

  @Field(() => ID, {
    nullable: true,
    description: 'The bound resource; null when deferred or when an optional slot found nothing.',
  })
  resourceId!: string | null;

  @Field(() => Resource, {
    nullable: true,
    description: 'The bound resource; null when deferred or when an optional slot found nothing.',
  })
  resource!: Resource | null;

  @Field({ description: 'True for a PARAMETER slot with no param: it is bound at invocation.' })
  deferred!: boolean;

  @Field(() => Access, { description: 'How the tool may use the resource (from the slot).' })
  access!: Access;
}
