import { Field, InputType } from 'type-graphql';
import { checkDescription, checkResourceName } from '../../core/grammar';
import { Satisfies } from '../validation';

@InputType()
export class CreateProjectInput {
  @Field({ description: 'Unique; the same grammar as resource names.' })
  @Satisfies(checkResourceName)
  name!: string;

  @Field(() => String, { nullable: true })
  @Satisfies(checkDescription)
  description!: string | null;
}
