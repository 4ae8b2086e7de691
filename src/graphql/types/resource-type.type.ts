import { DateTime } from './date-time.scalar';
import { Field, ID, ObjectType } from 'type-graphql';
import { Connection } from './connection.type';
import { Node } from './node.type';

@ObjectType({
  implements: Node,
  description:
    'A kind of resource. A resource of type R fills a slot of type S when R = S or S is among the ancestors of R.',
  simpleResolvers: true,
})
export class ResourceType implements Node {
  @Field(() => ID, { description: 'Unique across every type; node(id) finds it again.' })
  id!: string;

  @Field({ description: 'Unique; lowercase letters, digits and "-".' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Free text; null when none was given.' })
  description!: string | null;

  @Field(() => DateTime, { description: 'When it was registered.' })
  createdAt!: string;

  @Field(() => DateTime, { description: 'When it last changed.' })
  updatedAt!: string;
}

@ObjectType({
  description:
    'Resource types, a page at a time, ordered by name (a Relay connection: first/after forward, last/before backward).',
})
export class ResourceTypeConnection extends Connection(ResourceType, 'ResourceType') {}
