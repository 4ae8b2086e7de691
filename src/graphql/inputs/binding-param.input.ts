import { Field, InputType } from 'type-graphql';
import { checkRef, checkSlotName } from '../../core/grammar';
import { Satisfies } from '../validation';

@InputType({ description: 'Names the resource for a PARAMETER slot at invocation.' })
export class BindingParamInput {
  @Field({ description: 'The slot name.' })
  @Satisfies(checkSlotName)
  slot!: string;

  @Field({ description: 'The resource (a ref: id or name).' })
  @Satisfies(checkRef)
  resource!: string;
}
