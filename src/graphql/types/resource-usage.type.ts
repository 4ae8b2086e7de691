import { Field, ObjectType } from 'type-graphql';
import { ProjectResource } from './project.type';
import { Tool } from './tool.type';

@ObjectType({ description: 'A tool slot that binds the resource statically.', simpleResolvers: true })
export class StaticBinding {
  @Field(() => Tool)
  tool!: Tool;

  @Field()
  slotName!: string;
}

@ObjectType({ description: 'What refers to a resource.', simpleResolvers: true })
export class ResourceUsage {
  @Field(() => [StaticBinding])
  staticBindings!: StaticBinding[];

  @Field(() => [ProjectResource], { description: 'The projects that link the resource, ordered by project name.' })
  links!: ProjectResource[];
}
