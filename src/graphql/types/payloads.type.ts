import { Field, ID, Int, ObjectType, type ClassType } from 'type-graphql';
import { BindingImpact } from './binding-impact.type';
import { ChangeKind } from './enums';
import { Project } from './project.type';
import { ResourceType } from './resource-type.type';
import { Resource } from './resource.type';
import { Tool } from './tool.type';

/**
 * Every mutation returns a payload named after it: the changed object (null
 * for a dry run, which stores nothing) or, for a delete, `deletedId`; whether
 * it was a dry run; the registry version; and the binding impact.
 */
@ObjectType({ simpleResolvers: true })
abstract class MutationPayload {
  @Field({ description: 'True when the mutation only previewed the change: nothing was stored, versioned or logged.' })
  dryRun!: boolean;

  @Field(() => Int, {
    description:
      'The version the change committed; for a dry run, or an update that changes nothing (which commits nothing: no version, no change-log entry, no event), the current version.',
  })
  registryVersion!: number;

  @Field(() => BindingImpact, { description: 'What the change does to bindings.' })
  impact!: BindingImpact;
}

/** A payload that carries the changed object under `field`. */
function ObjectPayload<T extends object>(name: string, field: string, type: ClassType<T>, what: string) {
  @ObjectType(name, { simpleResolvers: true, description: `The result of ${mutationOf(name)}.` })
  class Payload extends MutationPayload {
    @Field(() => type, { name: field, nullable: true, description: `The ${what} as stored; null for a dry run.` })
    object!: T | null;
  }
  return Payload;
}

/** A payload of a delete: the id of what was (or, for a dry run, would be) deleted. */
function DeletePayload(name: string, what: string) {
  @ObjectType(name, { simpleResolvers: true, description: `The result of ${mutationOf(name)}.` })
  class Payload extends MutationPayload {
    @Field(() => ID, { description: `The id of the ${what} deleted (for a dry run, that would be).` })
    deletedId!: string;
  }
  return Payload;
}

export const RegisterResourceTypePayload = ObjectPayload(
  'RegisterResourceTypePayload',
  'resourceType',
  ResourceType,
  'resource type',
);
export const UpdateResourceTypePayload = ObjectPayload(
  'UpdateResourceTypePayload',
  'resourceType',
  ResourceType,
  'resource type',
);
export const DeleteResourceTypePayload = DeletePayload('DeleteResourceTypePayload', 'resource type');
export const RegisterResourcePayload = ObjectPayload('RegisterResourcePayload', 'resource', Resource, 'resource');
export const UpdateResourcePayload = ObjectPayload('UpdateResourcePayload', 'resource', Resource, 'resource');
export const DeleteResourcePayload = DeletePayload('DeleteResourcePayload', 'resource');
export const CreateProjectPayload = ObjectPayload('CreateProjectPayload', 'project', Project, 'project');
export const UpdateProjectPayload = ObjectPayload('UpdateProjectPayload', 'project', Project, 'project');
export const DeleteProjectPayload = DeletePayload('DeleteProjectPayload', 'project');
export const LinkResourcePayload = ObjectPayload(
  'LinkResourcePayload',
  'project',
  Project,
  'project, with the new link',
);
export const UpdateLinkPayload = ObjectPayload('UpdateLinkPayload', 'project', Project, 'project, with the link');
export const UnlinkResourcePayload = ObjectPayload(
  'UnlinkResourcePayload',
  'project',
  Project,
  'project, without the link',
);
export const RegisterToolPayload = ObjectPayload('RegisterToolPayload', 'tool', Tool, 'tool');
export const UpdateToolPayload = ObjectPayload('UpdateToolPayload', 'tool', Tool, 'tool');
export const UnregisterToolPayload = DeletePayload('UnregisterToolPayload', 'tool');

@ObjectType({
  simpleResolvers: true,
  description: 'One entry of a registerBatch, as registered: a value of the payload, with no identity of its own.',
})
export class RegisteredEntry {
  @Field(() => ChangeKind, { description: 'What it registered: RESOURCE_TYPE, RESOURCE, PROJECT, LINK or TOOL.' })
  kind!: ChangeKind;

  @Field(() => ID, {
    nullable: true,
    description:
      "The id of what it registered (a link: its project's); null for a dry run, which stores nothing. Not this entry's own identity: two links of one project share it.",
  })
  entityId!: string | null;

  @Field({ description: "The name of what it registered (a link: its project's)." })
  name!: string;
}

@ObjectType({ simpleResolvers: true, description: 'The result of registerBatch.' })
export class RegisterBatchPayload extends MutationPayload {
  @Field(() => [RegisteredEntry], { description: 'Each entry, in the order given.' })
  entries!: RegisteredEntry[];
}

/** `RegisterToolPayload` → `registerTool`. */
function mutationOf(payload: string): string {
  const name = payload.replace(/Payload$/, '');
  return name[0].toLowerCase() + name.slice(1);
}
