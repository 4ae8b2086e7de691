import { Field, InputType } from 'type-graphql';
import { checkRef, checkSlotName } from '../../core/grammar';
import { Satisfies } from '../validation';

@InputType()
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

@InputType()
export class UnlinkResourceInput {
  @Field({ description: 'The project (a ref).' })
  @Satisfies(checkRef)
  project!: string;

  @Field({ description: 'The resource (a ref).' })
  @Satisfies(checkRef)
  resource!: string;
}
