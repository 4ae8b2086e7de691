import { Field, ObjectType } from 'type-graphql';
import { Project } from './project.type';
import { Tool } from './tool.type';

@ObjectType({ description: 'A tool slot that binds the resource statically.', simpleResolvers: true })
export class StaticBinding {
  @Field(() => Tool)
  tool!: Tool;

  @Field()
  slotName!: string;
}

@ObjectType({ description: 'A project that links the resource.', simpleResolvers: true })
export class ProjectLink {
  @Field(() => Project)
  project!: Project;

  @Field(() => String, { nullable: true })
  alias!: string | null;
}

@ObjectType({ description: 'What refers to a resource.', simpleResolvers: true })
export class ResourceUsage {
  @Field(() => [StaticBinding])
  staticBindings!: StaticBinding[];

  @Field(() => [ProjectLink])
  links!: ProjectLink[];
}
