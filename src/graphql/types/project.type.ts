import { DateTime } from './date-time.scalar';
import { Field, ID, ObjectType } from 'type-graphql';
import { Connection } from './connection.type';
import { Resource } from './resource.type';

@ObjectType({
  description: 'A project: contextual slots find their resources among its linked resources.',
  simpleResolvers: true,
})
export class Project {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => DateTime, { description: 'When it was registered.' })
  createdAt!: string;

  @Field(() => DateTime, { description: 'When it last changed.' })
  updatedAt!: string;
}

@ObjectType({ description: 'A resource linked to a project.', simpleResolvers: true })
export class ProjectResource {
  @Field(() => String, {
    nullable: true,
    description: 'Unique within the project; a contextual slot of this name prefers this resource.',
  })
  alias!: string | null;

  @Field(() => Resource)
  resource!: Resource;
}

@ObjectType()
export class ProjectConnection extends Connection(Project, 'Project') {}
