import { Field, InputType } from 'type-graphql';
import { checkDescription, checkRef, checkResourceName, LIMITS } from '../../core/grammar';
import { Satisfies } from '../validation';

@InputType({ description: 'A new resource, of a registered type.' })
export class RegisterResourceInput {
  @Field({
    description: `Unique; "/"-separated segments of [A-Za-z0-9._-]; at most ${LIMITS.resourceName} characters.`,
  })
  @Satisfies(checkResourceName)
  name!: string;

  @Field({ description: 'The resource type (a ref).' })
  @Satisfies(checkRef)
  type!: string;

  @Field(() => String, { nullable: true, description: 'Free text, at most 4,000 characters.' })
  @Satisfies(checkDescription)
  description!: string | null;
}
