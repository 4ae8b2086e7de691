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

/** What the caller of one request may do, and which token it presented. */
export interface Access {
  readonly canRead: boolean;
  readonly canWrite: boolean;
  /** The token the request carried: none, one that matches nothing, the read token, or the admin token. */
  readonly presented: 'none' | 'invalid' | 'read' | 'admin';
}

/** Filled in while a request runs, for its one log line. */
export interface RequestReport {
  operationName: string | null;
  operationType: string | null;
  /** `extensions.code` of each error in the response. */
  errorCodes: string[];
  /** False when the operation selects only meta fields (`__typename`, `__schema`, `__type`) at its root. */
  readsRegistry: boolean;
  /** Whether the response cache answered, missed, or was not used. */
  cache: 'hit' | 'miss' | 'bypass';
}

/** What every resolver gets: the services, and this request's loaders, id and logger. */
export interface RequestContext {
  readonly requestId: string;
  readonly access: Access;
  readonly services: Services;
  readonly loaders: Loaders;
  readonly log: FastifyBaseLogger;
  readonly report: RequestReport;
}
