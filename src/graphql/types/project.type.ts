import { DateTime } from './date-time.scalar';
import { Field, ID, ObjectType } from 'type-graphql';
import { Connection, ItemPage } from './connection.type';
import { Node } from './node.type';
import { Resource } from './resource.type';

@ObjectType({
  implements: Node,
  description: 'A project: contextual slots find their resources among its linked resources.',
  simpleResolvers: true,
})
export class Project implements Node {
  @Field(() => ID, { description: 'Unique across every type; node(id) finds it again.' })
  id!: string;

  @Field({
    description: 'Unique, ignoring case; "/"-separated segments of letters, digits, ".", "_" and "-", e.g. demo.',
  })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Free text; null when none was given.' })
  description!: string | null;

  @Field(() => DateTime, { description: 'When it was registered.' })
  createdAt!: string;

  @Field(() => DateTime, { description: 'When it last changed.' })
  updatedAt!: string;
}

@ObjectType({
  description: 'A link between a project and a resource: linked at most once, with an optional alias.',
  simpleResolvers: true,
})
export class ProjectResource {
  @Field(() => ID, {
    description: 'Stable while the link exists (updateLink keeps it), and unique across every type.',
  })
  id!: string;

  @Field(() => Project, { description: 'The project that links the resource.' })
  project!: Project;

  @Field(() => String, {
    nullable: true,
    description: 'Unique within the project; a contextual slot of this name prefers this resource.',
  })
  alias!: string | null;

  @Field(() => Resource, { description: 'The linked resource.' })
  resource!: Resource;
}

@ObjectType({
  description:
    'Projects, a page at a time, ordered by name (a Relay connection: first/after forward, last/before backward).',
})
export class ProjectConnection extends Connection(Project, 'Project') {}

@ObjectType({
  description:
    "The page of projects a binding matrix shows (its rows): page it with bindingMatrix's projectsFirst/projectsAfter or projectsLast/projectsBefore.",
})
export class ProjectPage extends ItemPage(Project) {}
