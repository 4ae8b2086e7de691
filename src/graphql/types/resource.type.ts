import { DateTime } from './date-time.scalar';
import { Field, ID, ObjectType } from 'type-graphql';
import { Connection } from './connection.type';
import { Node } from './node.type';

@ObjectType({
  implements: Node,
  description: 'A registered resource that tools work on.',
  simpleResolvers: true,
})
export class Resource implements Node {
  @Field(() => ID, { description: 'Unique across every type; node(id) finds it again.' })
  id!: string;

  @Field({ description: 'Unique, ignoring case; "/"-separated segments, e.g. local/shared-config.' })
  name!: string;

  @Field({ description: 'The last segment of the name.' })
  shortName!: string;

  @Field(() => String, { nullable: true, description: 'Free text; null when none was given.' })
  description!: string | null;

  @Field(() => DateTime, { description: 'When it was registered.' })
  createdAt!: string;

  @Field(() => DateTime, { description: 'When it last changed.' })
  updatedAt!: string;
}

@ObjectType({
  description:
    'Resources, a page at a time, ordered by name (a Relay connection: first/after forward, last/before backward).',
})
export class ResourceConnection extends Connection(Resource, 'Resource') {}
