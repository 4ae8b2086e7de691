import { BindingSummaryService } from './binding-summary.service';
import { AccessChangeService } from './access-changes.service';
import { AccessService } from './access.service';
import { BindingService } from './binding.service';
import { ChangeFeed, type FeedObserver } from './change-feed';
import { ChangeLogService } from './change-log.service';
import { MatrixService } from './matrix.service';
import { NameHints } from './name-hints';
import { NodeService } from './node.service';
import { ProjectService } from './project.service';
import { RegistrationBatchService } from './registration-batch.service';
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
  /** Many registrations in one transaction (registerBatch). */
  readonly batches: RegistrationBatchService;
  readonly bindings: BindingService;
  readonly matrix: MatrixService;
  /** The matrix counted: ready, deferred, optional-unbound and failed pairs. */
  readonly summary: BindingSummaryService;
  readonly changes: ChangeLogService;
  readonly names: NameHints;
  /** Lookup by id alone, whatever the kind. */
  readonly nodes: NodeService;
  /** Where every change runs; `listen` hears each committed one. */
  readonly writes: RegistryWrites;
  /** The live change log, for subscriptions. */
  readonly feed: ChangeFeed;
  /** Who may do what: grants, API tokens, and the answers of the access rules. */
  readonly access: AccessService;
  readonly accessChanges: AccessChangeService;
}

/** Builds the services over the registry's versioning (its reads and writes). */
export function createServices(
  versioning: RegistryVersioning,
  options: {
    feedObserver?: FeedObserver;
    /** Names of the tokens configured in the environment, which API tokens may not take (see AccessService). */
    staticTokenNames?: readonly string[];
  } = {},
): Services {
  const writes = new RegistryWrites(versioning);
  const projects = new ProjectService(writes);
  const tools = new ToolService(writes);
  const resourceTypes = new ResourceTypeService(writes);
  const resources = new ResourceService(writes);
  return {
    resourceTypes,
    resources,
    projects,
    tools,
    batches: new RegistrationBatchService(writes, { resourceTypes, resources, projects, tools }),
    bindings: new BindingService(),
    matrix: new MatrixService(projects, tools),
    summary: new BindingSummaryService(),
    changes: new ChangeLogService(),
    names: new NameHints(),
    nodes: new NodeService(),
    writes,
    feed: new ChangeFeed(versioning, options.feedObserver, () => performance.now()),
    access: new AccessService(writes, {
      staticTokenNames: options.staticTokenNames ?? [],
      noteTokenUse: (tokenId, at) => versioning.noteTokenUse(tokenId, at),
      newSession: () => versioning.session(),
    }),
    accessChanges: new AccessChangeService(writes, options.staticTokenNames ?? []),
  };
}
