import type { FastifyBaseLogger } from 'fastify';
import type { BindingService } from '../application/binding.service';
import type { Loaders } from '../application/loaders';
import type { ProjectService } from '../application/project.service';
import type { ResourceTypeService } from '../application/resource-type.service';
import type { ResourceService } from '../application/resource.service';
import type { ToolService } from '../application/tool.service';

/** The application services, one instance each for the whole server. */
export interface Services {
  readonly resourceTypes: ResourceTypeService;
  readonly resources: ResourceService;
  readonly projects: ProjectService;
  readonly tools: ToolService;
  readonly bindings: BindingService;
}

/** What every resolver gets: the services, and this request's loaders, id and logger. */
export interface RequestContext {
  readonly requestId: string;
  readonly services: Services;
  readonly loaders: Loaders;
  readonly log: FastifyBaseLogger;
}
