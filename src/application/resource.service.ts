import { ConflictError, NotFoundError } from '../core/errors';
import { shortNameOf } from '../core/grammar';
import type { ResourceInfo } from '../core/model';
import type { NamedItem, Page, PageRequest, ProjectRecord, ResourceRecord, ToolRecord } from '../persistence/records';
import { newId } from './ids';
import { allInsertedUnlessTaken, insertedUnlessTaken, nameTakenMessage, requireFreeName } from './names';
import {
  EntryFailure,
  namedEach,
  namedIn,
  requireWellFormedRef,
  type ChangeOutcome,
  type ChangeRequest,
  type ChangeStep,
  type RegistryWrites,
} from './registry-writes';
import { USED_BY_SHOWN } from './usage';
import { loaded, type ReadSession } from './versioning';

/** Input of registerResource. */
export interface RegisterResourceCommand {
  readonly name: string;
  readonly type: string;
  readonly description?: string | null;
}

/** Input of updateResource: what is absent (undefined) stays as it is; a null description clears it. */
export interface UpdateResourceCommand {
  readonly ref: string;
  readonly name?: string | null;
  readonly description?: string | null;
  readonly type?: string | null;
}

/** The type filter of the resources listing. */
export interface ResourceTypeFilter {
  readonly type: string;
  readonly includeSubtypes: boolean;
}

/** What refers to a resource: tool slots that bind it statically, and project links. */
export interface ResourceUsage {
  readonly staticBindings: { tool: ToolRecord; slotName: string }[];
  /** Ordered by project name. */
  readonly links: { project: ProjectRecord; resource: ResourceInfo; alias: string | null }[];
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
    return session.recordsOf(await this.listNames(request, typeFilter, session), session.resourceById);
  }

  /** The same page as `list`, each resource by its id and name alone (read from the name index, no record looked up). */
  async listNames(
    request: PageRequest,
    typeFilter: ResourceTypeFilter | null,
    session: ReadSession,
  ): Promise<Page<NamedItem>> {
    let typeIds: string[] | null = null;
    let typeCount = 0;
    if (typeFilter) {
      requireWellFormedRef('filter.type', typeFilter.type);
      const types = await session.hierarchy();
      const type = types.byRef(typeFilter.type);
      if (!type) throw new NotFoundError('resource type', typeFilter.type);
      typeIds = typeFilter.includeSubtypes ? [type.id, ...types.descendantsOf(type.id).map((t) => t.id)] : [type.id];
      typeCount = types.size;
    }
    return session.pageResources(request, typeIds, typeCount);
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
      links: links
        .flatMap((link, i) => {
          const project = loaded(projects[i]);
          return project ? [{ project, resource, alias: link.alias }] : [];
        })
        .sort((a, b) => (a.project.name < b.project.name ? -1 : a.project.name > b.project.name ? 1 : 0)),
    };
  }

  /** Registers a resource of a registered type; the name is unique, ignoring case. */
  register(command: RegisterResourceCommand, request: ChangeRequest): Promise<ChangeOutcome<ResourceRecord>> {
    return this.writes.apply(request, this.registerStep(command));
  }

  /** registerResource as a step, alone or in a batch. */
  registerStep(command: RegisterResourceCommand): ChangeStep<ResourceRecord> {
    return {
      operation: 'registerResource',
      work: async ({ writer, hierarchy }) => {
        const type = (await hierarchy()).byRef(command.type);
        if (!type) throw new NotFoundError('resource type', command.type);
        const [inserted] = await writer.insertResources([
          {
            id: newId(),
            name: command.name,
            shortName: shortNameOf(command.name),
            typeId: type.id,
            description: command.description ?? null,
          },
        ]);
        return insertedUnlessTaken(writer.reader, 'resource', command.name, inserted);
      },
      onViolation: () => new ConflictError(nameTakenMessage('resource', command.name)),
      named: namedIn(command.name),
    };
  }

  /**
   * registerResource for a run of consecutive batch entries, as one run step: each entry checked and
   * registered as its own step would be (and seeing the ones before it), in one statement per hundred.
   */
  registerRunStep(commands: readonly RegisterResourceCommand[]): ChangeStep<ResourceRecord[]> {
    return {
      operation: 'registerResource',
      ...namedEach(commands.map((command) => command.name)),
      work: async ({ writer, hierarchy }) => {
        const types = await hierarchy();
        // As step by step: the entries before the first of an unknown type are registered, then that one fails.
        const typeIds = commands.map((command) => types.byRef(command.type)?.id);
        const unknown = typeIds.indexOf(undefined);
        const run = unknown < 0 ? commands : commands.slice(0, unknown);
        const records = await writer.insertResources(
          run.map((command, i) => ({
            id: newId(),
            name: command.name,
            shortName: shortNameOf(command.name),
            typeId: typeIds[i]!,
            description: command.description ?? null,
          })),
        );
        // A name taken by a stored resource, or by an entry before it, fails first (it comes before `unknown`).
        const made = await allInsertedUnlessTaken(
          writer.reader,
          'resource',
          run.map((command) => command.name),
          records,
        );
        if (unknown >= 0) throw new EntryFailure(unknown, new NotFoundError('resource type', commands[unknown].type));
        return made;
      },
    };
  }

  /**
   * Renames, describes or re-types a resource, keeping its id. A new name is
   * unique ignoring case (CONFLICT); a new type that a STATIC slot binding the
   * resource would no longer accept is CONFLICT, listing the slots in `usedBy`.
   */
  update(command: UpdateResourceCommand, request: ChangeRequest): Promise<ChangeOutcome<ResourceRecord>> {
    requireWellFormedRef('input.ref', command.ref);
    if (command.type != null) requireWellFormedRef('input.type', command.type);
    return this.writes.change(
      request,
      async ({ writer, hierarchy }) => {
        const [resource] = await writer.reader.resourcesByRefs([command.ref]);
        if (!resource) throw new NotFoundError('resource', command.ref);
        const name = command.name ?? resource.name;
        if (name !== resource.name) await requireFreeName(writer.reader, 'resource', name, resource.id);
        let typeId = resource.typeId;
        if (command.type != null) {
          const types = await hierarchy();
          const type = types.byRef(command.type);
          if (!type) throw new NotFoundError('resource type', command.type);
          typeId = type.id;
          // Rule: a static binding must still fit the resource's new type.
          const broken = (await writer.reader.staticSlotsOn([resource.id], [])).filter(
            (s) => !types.isCompatible(typeId, s.slotTypeId),
          );
          if (broken.length > 0) {
            throw new ConflictError(
              `resource '${resource.name}' is bound statically by ${broken.length} tool slot${broken.length === 1 ? '' : 's'} whose type a resource of type '${type.name}' does not fill; re-register those tools first`,
              broken.slice(0, USED_BY_SHOWN).map((s) => ({ kind: 'TOOL', name: s.tool, detail: `slot '${s.slot}'` })),
            );
          }
        }
        return writer.updateResource(resource, {
          id: resource.id,
          name,
          shortName: shortNameOf(name),
          typeId,
          description: command.description === undefined ? resource.description : command.description,
        });
      },
      () => new ConflictError(nameTakenMessage('resource', command.name ?? command.ref)),
      namedIn(command.ref, command.name),
    );
  }

  /**
   * Deletes a resource. One that a tool binds statically is always CONFLICT,
   * listing those tools in `usedBy`. One that projects link is CONFLICT,
   * listing the projects, unless `force`: then its links are removed in the
   * same transaction (each one an edit, with its binding impact).
   */
  delete(ref: string, force: boolean, request: ChangeRequest): Promise<ChangeOutcome<string>> {
    requireWellFormedRef('ref', ref);
    return this.writes.change(
      request,
      async ({ writer }) => {
        const [resource] = await writer.reader.resourcesByRefs([ref]);
        if (!resource) throw new NotFoundError('resource', ref);
        // Rule: a statically bound resource cannot go, forced or not.
        const uses = await writer.reader.staticUsesOf(resource.id, USED_BY_SHOWN + 1);
        if (uses.length > 0) {
          throw new ConflictError(
            `resource '${resource.name}' is bound statically by ${uses.length > USED_BY_SHOWN ? `more than ${USED_BY_SHOWN}` : uses.length} tool slot${uses.length === 1 ? '' : 's'}; re-register or unregister ${uses.length === 1 ? 'that tool' : 'those tools'} first`,
            uses.slice(0, USED_BY_SHOWN).map((u) => ({ kind: 'TOOL', name: u.tool, detail: `slot '${u.slot}'` })),
          );
        }
        // Rule: nothing rebinds silently: a linked resource goes only when forced, and its links go first, each reported.
        const links = await writer.reader.linkingProjects(resource.id);
        if (links.length > 0 && !force) {
          throw new ConflictError(
            `resource '${resource.name}' is linked to ${links.length} project${links.length === 1 ? '' : 's'}; deleting it can rebind their tools' slots. Preview with dryRun: true, then delete with force: true, or unlink it first`,
            links.slice(0, USED_BY_SHOWN).map((l) => ({
              kind: 'PROJECT',
              name: l.project.name,
              detail: l.alias ? `linked under alias '${l.alias}'` : 'linked',
            })),
          );
        }
        for (const { project, alias } of links) await writer.deleteLink({ project, resource, alias });
        await writer.deleteResource(resource);
        return resource.id;
      },
      () => new ConflictError(`resource '${ref}' came into use meanwhile; try again`),
      namedIn(ref),
    );
  }
}
