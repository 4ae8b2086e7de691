import { ConflictError, NotFoundError } from '../core/errors';
import { USED_BY_SHOWN } from './usage';
import { shortNameOf } from '../core/grammar';
import type { ResourceInfo } from '../core/model';
import type { Page, PageRequest, ProjectRecord, ToolRecord } from '../persistence/records';
import { newId } from './ids';
import { loaded, type ReadSession } from './versioning';
import { requireWellFormedRef, type RegistryWrites } from './registry-writes';

/** Input of registerResource. */
export interface RegisterResourceCommand {
  readonly name: string;
  readonly type: string;
  readonly description?: string | null;
}

/** The type filter of the resources listing. */
export interface ResourceTypeFilter {
  readonly type: string;
  readonly includeSubtypes: boolean;
}

/** What refers to a resource: tool slots that bind it statically, and project links. */
export interface ResourceUsage {
  readonly staticBindings: { tool: ToolRecord; slotName: string }[];
  readonly links: { project: ProjectRecord; alias: string | null }[];
}

/** Use cases of resources. */
export class ResourceService {
  constructor(private readonly writes: RegistryWrites) {}

  /** The resource a ref names, or null. */
  find(ref: string, session: ReadSession): Promise<ResourceInfo | null> {
    requireWellFormedRef('ref', ref);
    return session.resourceByRef.load(ref);
  }

  /** A page of resources by name; a type filter includes every sub-type at any depth unless told not to. */
  async list(
    request: PageRequest,
    typeFilter: ResourceTypeFilter | null,
    session: ReadSession,
  ): Promise<Page<ResourceInfo>> {
    let typeIds: string[] | null = null;
    if (typeFilter) {
      requireWellFormedRef('filter.type', typeFilter.type);
      const types = await session.hierarchy();
      const type = types.byRef(typeFilter.type);
      if (!type) throw new NotFoundError('resource type', typeFilter.type);
      typeIds = typeFilter.includeSubtypes ? [type.id, ...types.descendantsOf(type.id).map((t) => t.id)] : [type.id];
    }
    const page = await session.pageResources(request, typeIds);
    for (const resource of page.items) session.resourceById.prime(resource.id, resource);
    return page;
  }

  /** Who uses a resource, through the request's session (batched across many resources). */
  async usedBy(resource: ResourceInfo, session: ReadSession): Promise<ResourceUsage> {
    const [slots, links] = await Promise.all([
      session.staticSlotsByResourceId.load(resource.id),
      session.linksByResourceId.load(resource.id),
    ]);
    const [tools, projects] = await Promise.all([
      session.toolById.loadMany(slots.map((s) => s.toolId)),
      session.projectById.loadMany(links.map((l) => l.projectId)),
    ]);
    return {
      staticBindings: slots.flatMap((slot, i) => {
        const tool = loaded(tools[i]);
        return tool ? [{ tool, slotName: slot.slot }] : [];
      }),
      links: links.flatMap((link, i) => {
        const project = loaded(projects[i]);
        return project ? [{ project, alias: link.alias }] : [];
      }),
    };
  }

  /** Registers a resource of a registered type; the name is unique. */
  async register(command: RegisterResourceCommand, session: ReadSession): Promise<ResourceInfo> {
    return this.writes.change(
      session,
      async ({ writer, hierarchy }) => {
        const type = (await hierarchy()).byRef(command.type);
        if (!type) throw new NotFoundError('resource type', command.type);
        const resource: ResourceInfo = {
          id: newId(),
          name: command.name,
          shortName: shortNameOf(command.name),
          typeId: type.id,
          description: command.description ?? null,
        };
        await writer.insertResource(resource);
        return resource;
      },
      () => new ConflictError(`a resource named '${command.name}' already exists`),
    );
  }

  /**
   * Deletes a resource. One that a tool binds statically is CONFLICT, listing
   * those tools in `usedBy`; its project links are removed with it.
   */
  delete(ref: string, session: ReadSession): Promise<boolean> {
    requireWellFormedRef('ref', ref);
    return this.writes.change(
      session,
      async ({ writer }) => {
        const [resource] = await writer.reader.resourcesByRefs([ref]);
        if (!resource) throw new NotFoundError('resource', ref);
        const uses = await writer.reader.staticUsesOf(resource.id, USED_BY_SHOWN + 1);
        if (uses.length > 0) {
          throw new ConflictError(
            `resource '${resource.name}' is bound statically by ${uses.length > USED_BY_SHOWN ? `more than ${USED_BY_SHOWN}` : uses.length} tool slot${uses.length === 1 ? '' : 's'}; re-register or unregister ${uses.length === 1 ? 'that tool' : 'those tools'} first`,
            uses.slice(0, USED_BY_SHOWN).map((u) => ({ kind: 'TOOL', name: u.tool, detail: `slot '${u.slot}'` })),
          );
        }
        await writer.deleteResource(resource);
        return true;
      },
      () => new ConflictError(`resource '${ref}' came into use meanwhile; try again`),
    );
  }
}
