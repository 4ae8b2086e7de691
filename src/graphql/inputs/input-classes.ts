import {
  ApiTokenGrantInput,
  CreateApiTokenInput,
  GrantRoleInput,
  RevokeApiTokenInput,
  RevokeRoleInput,
  RoleGrantFilter,
} from './access.inputs';
import { BindingParamInput } from './binding-param.input';
import { ChangeFilter } from './change-filter.input';
import { ProjectFilter, ResourceFilter, ResourceTypeFilter, ToolFilter } from './connection.args';
import { CreateProjectInput } from './create-project.input';
import { LinkResourceInput, UnlinkResourceInput } from './link-resource.input';
import { BatchEntryInput, RegisterBatchInput } from './register-batch.input';
import { RegisterResourceTypeInput } from './register-resource-type.input';
import { RegisterResourceInput } from './register-resource.input';
import { RegisterToolInput, ResourceSlotInput } from './register-tool.input';
import {
  UpdateLinkInput,
  UpdateProjectInput,
  UpdateResourceInput,
  UpdateResourceTypeInput,
  UpdateToolInput,
} from './update.inputs';

/** An input class: type-graphql makes a new one (no arguments) and sets the fields an input value holds. */
export type InputClass = new () => object;

/**
 * Every input type of the schema, by its GraphQL name, with the class it is
 * declared by. Each is named as its class (type-graphql's default), so each
 * key here is the class's own name; test/unit/direct-resolvers.test.ts checks
 * this list against the built schema, so an input added to the schema and not
 * here, or one named otherwise, fails it. The engine converts arguments into
 * these classes (src/engine/direct-resolvers.ts) without reading
 * type-graphql's metadata.
 */
export const INPUT_CLASSES: Readonly<Record<string, InputClass>> = {
  ApiTokenGrantInput,
  BatchEntryInput,
  BindingParamInput,
  ChangeFilter,
  CreateApiTokenInput,
  CreateProjectInput,
  GrantRoleInput,
  LinkResourceInput,
  ProjectFilter,
  RegisterBatchInput,
  RegisterResourceInput,
  RegisterResourceTypeInput,
  RegisterToolInput,
  ResourceFilter,
  ResourceSlotInput,
  ResourceTypeFilter,
  RevokeApiTokenInput,
  RevokeRoleInput,
  RoleGrantFilter,
  ToolFilter,
  UnlinkResourceInput,
  UpdateLinkInput,
  UpdateProjectInput,
  UpdateResourceInput,
  UpdateResourceTypeInput,
  UpdateToolInput,
};
