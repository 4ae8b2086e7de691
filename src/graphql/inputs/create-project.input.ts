import { Field, InputType } from 'type-graphql';
import { checkDescription, checkResourceName } from '../../core/grammar';
import { Satisfies } from '../validation';

@InputType({ description: 'A new project.' })
export class CreateProjectInput {
  @Field({ description: 'Unique; the same grammar as resource names.' })
  @Satisfies(checkResourceName)
  name!: string;

  @Field(() => String, { nullable: true, description: 'Free text, at most 4,000 characters.' })
  @Satisfies(checkDescription)
  description!: string | null;
}
