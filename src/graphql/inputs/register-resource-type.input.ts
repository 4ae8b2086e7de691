import { Field, InputType } from 'type-graphql';
import { checkDescription, checkListSize, checkRef, checkTypeName, LIMITS } from '../../core/grammar';
import { EachSatisfies, Satisfies } from '../validation';

const checkParentCount = (parents: string[]) => checkListSize(parents.length, LIMITS.parentTypes);

@InputType({ description: 'A new resource type, with its parents.' })
export class RegisterResourceTypeInput {
  @Field({
    description: `Unique; lowercase letters, digits and "-", starting with a letter; at most ${LIMITS.typeName} characters.`,
  })
  @Satisfies(checkTypeName)
  name!: string;

  @Field(() => String, { nullable: true, description: 'Free text, at most 4,000 characters.' })
  @Satisfies(checkDescription)
  description!: string | null;

  @Field(() => [String], {
    nullable: true,
    description: `Direct parents (refs), which must already exist; at most ${LIMITS.parentTypes}.`,
  })
  @Satisfies(checkParentCount)
  @EachSatisfies(checkRef)
  parentTypes!: string[] | null;
}
