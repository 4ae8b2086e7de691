import { Field, InputType } from 'type-graphql';
import {
  checkDescription,
  checkListSize,
  checkRef,
  checkResourceName,
  checkSlotName,
  checkTypeName,
  LIMITS,
} from '../../core/grammar';
import { EachSatisfies, Satisfies } from '../validation';
import { RegisterToolInput } from './register-tool.input';

const checkParentCount = (parents: string[]) => checkListSize(parents.length, LIMITS.parentTypes);
const KEEP = 'Absent: unchanged.';

@InputType({ description: 'Changes to a resource; what is left out stays as it is. It keeps its id.' })
export class UpdateResourceInput {
  @Field({ description: 'The resource (a ref: id or name).' })
  @Satisfies(checkRef)
  ref!: string;

  @Field(() => String, { nullable: true, description: `A new name, unique ignoring case. ${KEEP}` })
  @Satisfies(checkResourceName)
  name?: string | null;

  @Field(() => String, { nullable: true, description: `A new description; null clears it. ${KEEP}` })
  @Satisfies(checkDescription)
  description?: string | null;

  @Field(() => String, {
    nullable: true,
    description: `A new type (a ref); CONFLICT if a STATIC slot binding the resource would no longer accept it. ${KEEP}`,
  })
  @Satisfies(checkRef)
  type?: string | null;
}

@InputType({ description: 'Changes to a resource type; what is left out stays as it is. It keeps its id.' })
export class UpdateResourceTypeInput {
  @Field({ description: 'The resource type (a ref).' })
  @Satisfies(checkRef)
  ref!: string;

  @Field(() => String, { nullable: true, description: `A new name, unique. ${KEEP}` })
  @Satisfies(checkTypeName)
  name?: string | null;

  @Field(() => String, { nullable: true, description: `A new description; null clears it. ${KEEP}` })
  @Satisfies(checkDescription)
  description?: string | null;

  @Field(() => [String], {
    nullable: true,
    description: `New direct parents (refs), replacing the old ones; [] for none. A cycle is BAD_USER_INPUT; leaving a static binding with a resource that no longer fits is CONFLICT. ${KEEP}`,
  })
  @Satisfies(checkParentCount)
  @EachSatisfies(checkRef)
  parentTypes?: string[] | null;
}

@InputType({ description: 'Changes to a project; what is left out stays as it is. It keeps its id.' })
export class UpdateProjectInput {
  @Field({ description: 'The project (a ref).' })
  @Satisfies(checkRef)
  ref!: string;

  @Field(() => String, { nullable: true, description: `A new name, unique ignoring case. ${KEEP}` })
  @Satisfies(checkResourceName)
  name?: string | null;

  @Field(() => String, { nullable: true, description: `A new description; null clears it. ${KEEP}` })
  @Satisfies(checkDescription)
  description?: string | null;
}

@InputType({ description: "Sets or clears a link's alias, in one step." })
export class UpdateLinkInput {
  @Field({ description: 'The project (a ref).' })
  @Satisfies(checkRef)
  project!: string;

  @Field({ description: 'The linked resource (a ref).' })
  @Satisfies(checkRef)
  resource!: string;

  @Field(() => String, {
    nullable: true,
    description: 'The new alias, unique within the project (a clash is CONFLICT); null clears it.',
  })
  @Satisfies(checkSlotName)
  alias!: string | null;
}

@InputType({ description: 'A tool to replace: its name, description and all its slots. It keeps its id.' })
export class UpdateToolInput extends RegisterToolInput {
  @Field(() => String, {
    nullable: true,
    description: 'The tool to replace (a ref); absent: the tool named `name`. With a ref, `name` renames it.',
  })
  @Satisfies(checkRef)
  ref?: string | null;
}
