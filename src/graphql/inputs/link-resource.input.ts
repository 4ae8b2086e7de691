import { Field, InputType } from 'type-graphql';
import { checkRef, checkSlotName } from '../../core/grammar';
import { Satisfies } from '../validation';

@InputType({ description: 'A resource to link to a project.' })
export class LinkResourceInput {
  @Field({ description: 'The project (a ref).' })
  @Satisfies(checkRef)
  project!: string;

  @Field({ description: 'The resource (a ref).' })
  @Satisfies(checkRef)
  resource!: string;

  @Field(() => String, { nullable: true, description: 'Unique within the project; the same grammar as slot names.' })
  @Satisfies(checkSlotName)
  alias!: string | null;
}

@InputType({ description: 'The link to remove: a project and a resource it links.' })
export class UnlinkResourceInput {
  @Field({ description: 'The project (a ref).' })
  @Satisfies(checkRef)
  project!: string;

  @Field({ description: 'The resource (a ref).' })
  @Satisfies(checkRef)
  resource!: string;
}
