import { Field, ID, ObjectType } from 'type-graphql';
import { Access, BindingMode } from './enums';
import { Resource } from './resource.type';

@ObjectType({ description: 'The outcome of binding one slot.', simpleResolvers: true })
export class BindingResult {
  @Field()
  slotName!: string;

  @Field(() => BindingMode)
  bindingMode!: BindingMode;

  @Field(() => ID, {
    nullable: true,
    description: 'The bound resource; null when deferred or when an optional slot found nothing.',
  })
  resourceId!: string | null;

  @Field(() => Resource, { nullable: true })
  resource!: Resource | null;

  @Field({ description: 'True for a PARAMETER slot with no param: it is bound at invocation.' })
  deferred!: boolean;

  @Field(() => Access)
  access!: Access;
}
