import { ConflictError, NotFoundError } from '../core/errors';
import type { Page, PageRequest, ProjectRecord } from '../persistence/records';
import { newId } from './ids';
import type { ReadSession } from './versioning';
import { requireWellFormedRef, type RegistryWrites, type WriteReader } from './registry-writes';

/** Input of createProject. */
export interface CreateProjectCommand {
  readonly name: string;
  readonly description?: string | null;
}

/** Input of linkResource. */
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

  /** A page of projects by name. */
  async list(request: PageRequest, session: ReadSession): Promise<Page<ProjectRecord>> {
    const page = await session.pageProjects(request);
    for (const project of page.items) session.projectById.prime(project.id, project);
    return page;
  }

  /** Creates a project; the name is unique. */
  create(command: CreateProjectCommand, session: ReadSession): Promise<ProjectRecord> {
    return this.writes.change(
      session,
      async ({ writer }) => {
        const project: ProjectRecord = { id: newId(), name: command.name, description: command.description ?? null };
        await writer.insertProject(project);
        return project;
      },
      () => new ConflictError(`a project named '${command.name}' already exists`),
    );
  }

  /** Links a resource to a project, at most once, under an optional alias unique within the project. */
  link(command: LinkResourceCommand, session: ReadSession): Promise<ProjectRecord> {
    requireWellFormedRef('input.project', command.project);
    requireWellFormedRef('input.resource', command.resource);
    const alias = command.alias ?? null;
    return this.writes.change(
      session,
      async ({ writer }) => {
        const { project, resource } = await this.findBoth(writer.reader, command);
        const links = await writer.reader.linksByProjectIds([project.id]);
        if (links.some((l) => l.resource.id === resource.id)) {
          throw new ConflictError(`resource '${resource.name}' is already linked to project '${project.name}'`);
        }
        const holder = alias === null ? undefined : links.find((l) => l.alias === alias);
        if (holder)
          throw new ConflictError(
            `alias '${alias}' is already used in project '${project.name}' by resource '${holder.resource.name}'`,
          );
        await writer.insertLink(project, resource, alias);
        return project;
      },
      (violation) =>
        new ConflictError(
          violation.constraint === 'uq_project_resource_alias'
            ? `alias '${alias}' is already used in project '${command.project}'`
            : violation.kind === 'foreign_key'
              ? 'the project or resource was deleted meanwhile'
              : `resource '${command.resource}' is already linked to project '${command.project}'`,
        ),
    );
  }

  /** Removes a link. An unknown project or resource, or a resource that is not linked, is NOT_FOUND. */
  unlink(command: UnlinkResourceCommand, session: ReadSession): Promise<ProjectRecord> {
    requireWellFormedRef('input.project', command.project);
    requireWellFormedRef('input.resource', command.resource);
    return this.writes.change(session, async ({ writer }) => {
      const { project, resource } = await this.findBoth(writer.reader, command);
      if (!(await writer.deleteLink(project, resource))) {
        throw new NotFoundError(
          'link',
          `${project.name} → ${resource.name}`,
          `resource '${resource.name}' is not linked to project '${project.name}'`,
        );
      }
      return project;
    });
  }

  private async findBoth(reader: WriteReader, refs: { project: string; resource: string }) {
    const [[project], [resource]] = await Promise.all([
      reader.projectsByRefs([refs.project]),
      reader.resourcesByRefs([refs.resource]),
    ]);
    if (!project) throw new NotFoundError('project', refs.project);
    if (!resource) throw new NotFoundError('resource', refs.resource);
    return { project, resource };
  }

  /** Deletes a project and its links (nothing else refers to a project). */
  delete(ref: string, session: ReadSession): Promise<boolean> {
    requireWellFormedRef('ref', ref);
    return this.writes.change(session, async ({ writer }) => {
      const [project] = await writer.reader.projectsByRefs([ref]);
      if (!project) throw new NotFoundError('project', ref);
      await writer.deleteProject(project);
      return true;
    });
  }
}
