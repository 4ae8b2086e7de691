import { ApiTokenEntity } from './api-token.entity';
import { ProjectResourceEntity } from './project-resource.entity';
import { ProjectEntity } from './project.entity';
import { RegistryChangeEntity } from './registry-change.entity';
import { RegistryStateEntity } from './registry-state.entity';
import { ResourceSlotEntity } from './resource-slot.entity';
import { ResourceTypeParentEntity } from './resource-type-parent.entity';
import { RoleGrantEntity } from './role-grant.entity';
import { ResourceTypeEntity } from './resource-type.entity';
import { ResourceEntity } from './resource.entity';
import { ToolEntity } from './tool.entity';

export {
  ApiTokenEntity,
  ProjectResourceEntity,
  ProjectEntity,
  RegistryChangeEntity,
  RegistryStateEntity,
  ResourceSlotEntity,
  ResourceTypeParentEntity,
  ResourceTypeEntity,
  ResourceEntity,
  RoleGrantEntity,
  ToolEntity,
};

/** Every entity, for the DataSource. */
export const ENTITIES = [
  ResourceTypeEntity,
  ResourceTypeParentEntity,
  ResourceEntity,
  ProjectEntity,
  ProjectResourceEntity,
  ToolEntity,
  ResourceSlotEntity,
  RegistryStateEntity,
  RegistryChangeEntity,
  RoleGrantEntity,
  ApiTokenEntity,
];
