import { ConflictError, NotFoundError } from '../core/errors';
import type { LinkState } from '../core/registry-edit';
import type { NamedItem, Page, PageRequest, ProjectRecord } from '../persistence/records';
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
  type WriteReader,
} from './registry-writes';
import { USED_BY_SHOWN } from './usage';
import type { ReadSession } from './versioning';

/** Input of createProject. */
export interface CreateProjectCommand {
  readonly name: string;
  readonly description?: string | null;
}

/** Input of updateProject: what is absent (undefined) stays as it is; a null description clears it. */
export interface UpdateProjectCommand {
  readonly ref: string;
  readonly name?: string | null;
  readonly description?: string | null;
}

/** Input of linkResource, and of updateLink (where a null alias clears it). */
export interface LinkResourceCommand {
  readonly project: string;
  readonly resource: string;
  readonly alias?: string | null;
}

/** Input of unlinkResource. */
export interface UnlinkResourceCommand {
  readonly project: string;
  readonly resource: string;
}

/** Use cases of projects and their linked resources. */
export class ProjectService {
  constructor(private readonly writes: RegistryWrites) {}

  /** The project a ref names, or null. */
  find(ref: string, session: ReadSession): Promise<ProjectRecord | null> {
    requireWellFormedRef('ref', ref);
    return session.projectByRef.load(ref);
  }

  /** A page of projects by name; `linksResource` keeps those that link that resource (a ref). */
  async list(
    request: PageRequest,
    session: ReadSession,
    linksResource: string | null = null,
  ): Promise<Page<ProjectRecord>> {
    return session.recordsOf(await this.listNames(request, session, linksResource), session.projectById);
  }

  /** The same page as `list`, each project by its id and name alone (read from the name index, no record looked up). */
  async listNames(
    request: PageRequest,
    session: ReadSession,
    linksResource: string | null = null,
  ): Promise<Page<NamedItem>> {
    let resourceId: string | null = null;
    if (linksResource !== null) {
      requireWellFormedRef('filter.linksResource', linksResource);
      const resource = await session.resourceByRef.load(linksResource);
      if (!resource) throw new NotFoundError('resource', linksResource);
      resourceId = resource.id;
    }
    return session.pageProjects(request, resourceId);
  }

  /** Creates a project; the name is unique, ignoring case. */
  create(command: CreateProjectCommand, request: ChangeRequest): Promise<ChangeOutcome<ProjectRecord>> {
    return this.writes.apply(request, this.createStep(command));
  }

  /** createProject as a step, alone or in a batch. */
  createStep(command: CreateProjectCommand): ChangeStep<ProjectRecord> {
    return {
      operation: 'createProject',
      work: async ({ writer }) => {
        const inserted = await writer.insertProject({
          id: newId(),
          name: command.name,
          description: command.description ?? null,
        });
        return insertedUnlessTaken(writer.reader, 'project', command.name, inserted);
      },
      onViolation: () => new ConflictError(nameTakenMessage('project', command.name)),
      named: namedIn(command.name),
    };
  }

  /** createProject for a run of consecutive batch entries, as one run step: a hundred projects a statement. */
  createRunStep(commands: readonly CreateProjectCommand[]): ChangeStep<ProjectRecord[]> {
    return {
      operation: 'createProject',
      ...namedEach(commands.map((command) => command.name)),
      work: async ({ writer }) => {
        const records = await writer.insertProjects(
          commands.map((command) => ({ id: newId(), name: command.name, description: command.description ?? null })),
        );
        return allInsertedUnlessTaken(
          writer.reader,
          'project',
          commands.map((command) => command.name),
          records,
        );
      },
    };
  }

  /** Renames or describes a project, keeping its id; a new name is unique, ignoring case. */
  update(command: UpdateProjectCommand, request: ChangeRequest): Promise<ChangeOutcome<ProjectRecord>> {
    requireWellFormedRef('input.ref', command.ref);
    return this.writes.change(
      request,
      async ({ writer }) => {
        const [project] = await writer.reader.projectsByRefs([command.ref]);
        if (!project) throw new NotFoundError('project', command.ref);
        const name = command.name ?? project.name;
        if (name !== project.name) await requireFreeName(writer.reader, 'project', name, project.id);
        return writer.updateProject(project, {
          id: project.id,
          name,
          description: command.description === undefined ? project.description : command.description,
        });
      },
      () => new ConflictError(nameTakenMessage('project', command.name ?? command.ref)),
      namedIn(command.ref, command.name),
    );
  }

  /**
   * Deletes a project. One with links is CONFLICT, listing them, unless
   * `force`: then its links are removed first, in the same transaction.
   */
  delete(ref: string, force: boolean, request: ChangeRequest): Promise<ChangeOutcome<string>> {
    requireWellFormedRef('ref', ref);
    return this.writes.change(
      request,
      async ({ writer }) => {
        const [project] = await writer.reader.projectsByRefs([ref]);
        if (!project) throw new NotFoundError('project', ref);
        const links = await writer.reader.linksByProjectIds([project.id]);
        if (links.length > 0 && !force) {
          throw new ConflictError(
            `project '${project.name}' still links ${links.length} resource${links.length === 1 ? '' : 's'}; delete it with force: true (its links go with it), or unlink them first`,
            links.slice(0, USED_BY_SHOWN).map((l) => ({
              kind: 'RESOURCE',
              name: l.resource.name,
              detail: l.alias ? `linked under alias '${l.alias}'` : 'linked',
            })),
          );
        }
        for (const { resource, alias } of links) await writer.deleteLink({ project, resource, alias });
        await writer.deleteProject(project);
        return project.id;
      },
      undefined,
      namedIn(ref),
    );
  }

  /** Links a resource to a project, at most once, under an optional alias unique within the project. */
  link(command: LinkResourceCommand, request: ChangeRequest): Promise<ChangeOutcome<ProjectRecord>> {
    return this.writes.apply(request, this.linkStep(command));
  }

  /** linkResource as a step, alone or in a batch. */
  linkStep(command: LinkResourceCommand): ChangeStep<ProjectRecord> {
    requireWellFormedRef('input.project', command.project);
    requireWellFormedRef('input.resource', command.resource);
    const alias = command.alias ?? null;
    return {
      operation: 'linkResource',
      work: async ({ writer }) => {
        const { project, resource } = await findBoth(writer.reader, command);
        const links = await writer.reader.linksClashingWith(project.id, resource.id, alias);
        if (links.some((l) => l.resource.id === resource.id)) {
          throw new ConflictError(`resource '${resource.name}' is already linked to project '${project.name}'`);
        }
        requireFreeAlias(links, project.name, alias, resource.id);
        await writer.insertLinks([{ project, resource, alias }]);
        return project;
      },
      onViolation: (violation) => this.linkViolation(violation.constraint, violation.kind, command, alias),
      named: namedIn(command.project),
    };
  }

  /**
   * linkResource for a run of consecutive batch entries, as one run step: each entry checked as its own step would
   * be (and seeing the links before it), the projects, their links and the resources read once each, the links
   * inserted in one statement per hundred.
   */
  linkRunStep(commands: readonly LinkResourceCommand[]): ChangeStep<ProjectRecord[]> {
    for (const command of commands) {
      requireWellFormedRef('input.project', command.project);
      requireWellFormedRef('input.resource', command.resource);
    }
    return {
      operation: 'linkResource',
      ...namedEach(commands.map((command) => command.project)),
      work: async ({ writer }) => {
        const [projects, resources] = await Promise.all([
          writer.reader.projectsByRefs([...new Set(commands.map((command) => command.project))]),
          writer.reader.resourcesByRefs([...new Set(commands.map((command) => command.resource))]),
        ]);
        const byRef = <T extends { id: string; name: string }>(records: readonly T[]) =>
          new Map(records.flatMap((record) => [[record.id, record] as const, [record.name, record] as const]));
        const [projectByRef, resourceByRef] = [byRef(projects), byRef(resources)];
        // Each project's links, those the run makes included as it goes.
        const linksOf = new Map<string, { alias: string | null; resource: { id: string; name: string } }[]>(
          projects.map((project) => [project.id, []]),
        );
        for (const link of await writer.reader.linksByProjectIds(projects.map((project) => project.id)))
          linksOf.get(link.projectId)?.push(link);
        const made: LinkState[] = [];
        const linkedTo: ProjectRecord[] = [];
        for (const [offset, command] of commands.entries()) {
          // In the order findBoth checks them: the project, then the resource.
          const project = projectByRef.get(command.project);
          if (!project) throw new EntryFailure(offset, new NotFoundError('project', command.project));
          const resource = resourceByRef.get(command.resource);
          if (!resource) throw new EntryFailure(offset, new NotFoundError('resource', command.resource));
          const alias = command.alias ?? null;
          const links = linksOf.get(project.id)!;
          if (links.some((l) => l.resource.id === resource.id)) {
            const error = new ConflictError(
              `resource '${resource.name}' is already linked to project '${project.name}'`,
            );
            throw new EntryFailure(offset, error);
          }
          try {
            requireFreeAlias(links, project.name, alias, resource.id);
          } catch (error) {
            throw new EntryFailure(offset, error);
          }
          links.push({ alias, resource });
          made.push({ project, resource, alias });
          linkedTo.push(project);
        }
        await writer.insertLinks(made);
        return linkedTo;
      },
    };
  }

  /** Sets or clears the alias of a link, in one step. A clash with another link's alias is CONFLICT. */
  updateLink(command: LinkResourceCommand, request: ChangeRequest): Promise<ChangeOutcome<ProjectRecord>> {
    requireWellFormedRef('input.project', command.project);
    requireWellFormedRef('input.resource', command.resource);
    const alias = command.alias ?? null;
    return this.writes.change(
      request,
      async ({ writer }) => {
        const { project, resource } = await findBoth(writer.reader, command);
        const links = await writer.reader.linksClashingWith(project.id, resource.id, alias);
        const link = links.find((l) => l.resource.id === resource.id);
        if (!link) throw notLinked(project.name, resource.name);
        requireFreeAlias(links, project.name, alias, resource.id);
        await writer.updateLink({ project, resource: link.resource, alias: link.alias }, alias);
        return project;
      },
      (violation) => this.linkViolation(violation.constraint, violation.kind, command, alias),
      namedIn(command.project),
    );
  }

  /** Removes a link. An unknown project or resource, or a resource that is not linked, is NOT_FOUND. */
  unlink(command: UnlinkResourceCommand, request: ChangeRequest): Promise<ChangeOutcome<ProjectRecord>> {
    requireWellFormedRef('input.project', command.project);
    requireWellFormedRef('input.resource', command.resource);
    return this.writes.change(
      request,
      async ({ writer }) => {
        const { project, resource } = await findBoth(writer.reader, command);
        const link = (await writer.reader.linksClashingWith(project.id, resource.id, null)).find(
          (l) => l.resource.id === resource.id,
        );
        if (!link) throw notLinked(project.name, resource.name);
        await writer.deleteLink({ project, resource: link.resource, alias: link.alias } satisfies LinkState);
        return project;
      },
      undefined,
      namedIn(command.project),
    );
  }

  private linkViolation(constraint: string | null, kind: string, command: LinkResourceCommand, alias: string | null) {
    return new ConflictError(
      constraint === 'uq_project_resource_alias'
        ? `alias '${alias}' is already used in project '${command.project}'`
        : kind === 'foreign_key'
          ? 'the project or resource was deleted meanwhile'
          : `resource '${command.resource}' is already linked to project '${command.project}'`,
    );
  }
}

async function findBoth(reader: WriteReader, refs: { project: string; resource: string }) {
  const [[project], [resource]] = await Promise.all([
    reader.projectsByRefs([refs.project]),
    reader.resourcesByRefs([refs.resource]),
  ]);
  if (!project) throw new NotFoundError('project', refs.project);
  if (!resource) throw new NotFoundError('resource', refs.resource);
  return { project, resource };
}

/** Rule: an alias is unique within its project. */
function requireFreeAlias(
  links: readonly { alias: string | null; resource: { id: string; name: string } }[],
  projectName: string,
  alias: string | null,
  resourceId: string,
): void {
  if (alias === null) return;
  const holder = links.find((l) => l.alias === alias && l.resource.id !== resourceId);
  if (holder) {
    throw new ConflictError(
      `alias '${alias}' is already used in project '${projectName}' by resource '${holder.resource.name}'`,
    );
  }
}

function notLinked(project: string, resource: string): NotFoundError {
  return new NotFoundError(
    'link',
    `${project} → ${resource}`,
    `resource '${resource}' is not linked to project '${project}'`,
  );
}
