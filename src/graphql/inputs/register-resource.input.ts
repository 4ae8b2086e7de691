import { Field, InputType } from 'type-graphql';
import { checkDescription, checkRef, checkResourceName, LIMITS } from '../../core/grammar';
import { Satisfies } from '../validation';

@InputType()
export class RegisterResourceInput {
  @Field({
    description: `Unique; "/"-separated segments of [A-Za-z0-9._-]; at most ${LIMITS.resourceName} characters.`,
  })
  @Satisfies(checkResourceName)
  name!: string;

  @Field({ description: 'The resource type (a ref).' })
  @Satisfies(checkRef)
  type!: string;

  @Field(() => String, { nullable: true })
  @Satisfies(checkDescription)
  description!: string | null;
}
