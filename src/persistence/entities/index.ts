import { ProjectResourceEntity } from './project-resource.entity';
import { ProjectEntity } from './project.entity';
import { RegistryChangeEntity } from './registry-change.entity';
import { RegistryStateEntity } from './registry-state.entity';
import { ResourceSlotEntity } from './resource-slot.entity';
import { ResourceTypeParentEntity } from './resource-type-parent.entity';
import { ResourceTypeEntity } from './resource-type.entity';
import { ResourceEntity } from './resource.entity';
import { ToolEntity } from './tool.entity';

export {
  ProjectResourceEntity,
  ProjectEntity,
  RegistryChangeEntity,
  RegistryStateEntity,
  ResourceSlotEntity,
  ResourceTypeParentEntity,
  ResourceTypeEntity,
  ResourceEntity,
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
];
