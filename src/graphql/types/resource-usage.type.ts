import { Field, ID, ObjectType } from 'type-graphql';
import { ProjectResource } from './project.type';
import { Tool } from './tool.type';

@ObjectType({ description: 'A tool slot that binds the resource statically.', simpleResolvers: true })
export class StaticBinding {
  @Field(() => ID, { description: 'Stands for the slot that binds the resource: its tool and its name.' })
  id!: string;

  @Field(() => Tool, { description: 'The tool whose slot binds the resource.' })
  tool!: Tool;

  @Field({ description: 'The slot, by name.' })
  slotName!: string;
}

@ObjectType({ description: 'What refers to a resource.', simpleResolvers: true })
export class ResourceUsage {
  @Field(() => ID, { description: 'Stands for the resource whose users these are: one per resource.' })
  id!: string;

  @Field(() => [StaticBinding], {
    description: 'The tool slots that bind the resource statically, ordered by tool name.',
  })
  staticBindings!: StaticBinding[];

  @Field(() => [ProjectResource], { description: 'The projects that link the resource, ordered by project name.' })
  links!: ProjectResource[];
}
