import { BindingService } from './binding.service';
import { ChangeLogService } from './change-log.service';
import { NameHints } from './name-hints';
import { ProjectService } from './project.service';
import { RegistryWrites } from './registry-writes';
import { ResourceTypeService } from './resource-type.service';
import { ResourceService } from './resource.service';
import { ToolService } from './tool.service';
import type { RegistryVersioning } from './versioning';

/** The application's use cases, one instance each for the whole server. */
export interface Services {
  readonly resourceTypes: ResourceTypeService;
  readonly resources: ResourceService;
  readonly projects: ProjectService;
  readonly tools: ToolService;
  readonly bindings: BindingService;
  readonly changes: ChangeLogService;
  readonly names: NameHints;
  /** Where every change runs; `listen` hears each committed one. */
  readonly writes: RegistryWrites;
}

/** Builds the services over the registry's versioning (its reads and writes). */
export function createServices(versioning: RegistryVersioning): Services {
  const writes = new RegistryWrites(versioning);
  return {
    resourceTypes: new ResourceTypeService(writes),
    resources: new ResourceService(writes),
    projects: new ProjectService(writes),
    tools: new ToolService(writes),
    bindings: new BindingService(),
    changes: new ChangeLogService(),
    names: new NameHints(),
    writes,
  };
}
