import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Authorized, Args, Ctx, FieldResolver, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { ResourceInfo } from '../../core/model';
import { linkId } from '../object-ids';
import { READ, WRITE } from '../authorization';
import type { ProjectRecord } from '../../persistence/records';
import type { RequestContext } from '../context';
import { ConnectionArgs, ProjectFilter } from '../inputs/connection.args';
import { CreateProjectInput } from '../inputs/create-project.input';
import { LinkResourceInput, UnlinkResourceInput } from '../inputs/link-resource.input';
import { UpdateLinkInput, UpdateProjectInput } from '../inputs/update.inputs';
import { changeRequest, deletePayload, DRY_RUN, objectPayload } from '../mutations';
import {
  CreateProjectPayload,
  DeleteProjectPayload,
  LinkResourcePayload,
  UnlinkResourcePayload,
  UpdateLinkPayload,
  UpdateProjectPayload,
} from '../types/payloads.type';
import { namesOnly, withCount } from '../selection';
import { pageRequest, toConnection } from '../pagination';
import { Project, ProjectConnection, ProjectResource } from '../types/project.type';

@Resolver(() => Project)
export class ProjectResolver {
  @Authorized(READ)
  @Query(() => Project, { nullable: true, description: 'The project a ref (id or name) names, or null.' })
  project(
    @Arg('ref', { description: 'An id or a name.' }) ref: string,
    @Ctx() ctx: RequestContext,
  ): Promise<ProjectRecord | null> {
    return ctx.services.projects.find(ref, ctx.session);
  }

  @Authorized(READ)
  @Query(() => ProjectConnection, { description: 'Projects, ordered by name.' })
  async projects(
    @Args() args: ConnectionArgs,
    @Arg('filter', () => ProjectFilter, { nullable: true, description: 'Which projects; all when absent.' })
    filter: ProjectFilter | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const request = withCount(pageRequest('projects', args, filter), info);
    const linksResource = filter?.linksResource ?? null;
    const projects = ctx.services.projects;
    return toConnection(
      'projects',
      namesOnly(info)
        ? await projects.listNames(request, ctx.session, linksResource)
        : await projects.list(request, ctx.session, linksResource),
    );
  }

  @Authorized(WRITE)
  @Mutation(() => CreateProjectPayload, { description: 'Creates a project.' })
  async createProject(
    @Arg('input', { description: 'The project to create.' }) input: CreateProjectInput,
    @Arg('dryRun', () => Boolean, DRY_RUN) dryRun: boolean | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return objectPayload('project', await ctx.services.projects.create(input, changeRequest(ctx, info, dryRun)));
  }

  @Authorized(WRITE)
  @Mutation(() => UpdateProjectPayload, { description: 'Renames or describes a project, keeping its id.' })
  async updateProject(
    @Arg('input', { description: 'The project (ref) and what to change; what is left out stays.' })
    input: UpdateProjectInput,
    @Arg('dryRun', () => Boolean, DRY_RUN) dryRun: boolean | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return objectPayload('project', await ctx.services.projects.update(input, changeRequest(ctx, info, dryRun)));
  }

  @Authorized(WRITE)
  @Mutation(() => LinkResourcePayload, {
    description: 'Links a resource to a project, at most once, under an optional alias unique within the project.',
  })
  async linkResource(
    @Arg('input', { description: 'The project, the resource, and an optional alias.' }) input: LinkResourceInput,
    @Arg('dryRun', () => Boolean, DRY_RUN) dryRun: boolean | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return objectPayload('project', await ctx.services.projects.link(input, changeRequest(ctx, info, dryRun)));
  }

  @Authorized(WRITE)
  @Mutation(() => UpdateLinkPayload, {
    description: "Sets or clears a link's alias, in one step. A clash with another link's alias is CONFLICT.",
  })
  async updateLink(
    @Arg('input', { description: 'The link, by project and resource, and its new alias (null clears it).' })
    input: UpdateLinkInput,
    @Arg('dryRun', () => Boolean, DRY_RUN) dryRun: boolean | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return objectPayload('project', await ctx.services.projects.updateLink(input, changeRequest(ctx, info, dryRun)));
  }

  @Authorized(WRITE)
  @Mutation(() => UnlinkResourcePayload, {
    description: 'Removes a resource from a project, and reports the binding impact.',
  })
  async unlinkResource(
    @Arg('input', { description: 'The project and the resource to unlink.' }) input: UnlinkResourceInput,
    @Arg('dryRun', () => Boolean, DRY_RUN) dryRun: boolean | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return objectPayload('project', await ctx.services.projects.unlink(input, changeRequest(ctx, info, dryRun)));
  }

  @Authorized(WRITE)
  @Mutation(() => DeleteProjectPayload, {
    description:
      'Deletes a project. One that still links resources is CONFLICT (extensions.usedBy) unless force: true, which removes its links first. Unknown: NOT_FOUND.',
  })
  async deleteProject(
    @Arg('ref', { description: 'The project (a ref: id or name).' }) ref: string,
    @Arg('force', () => Boolean, {
      nullable: true,
      defaultValue: false,
      description: 'Also remove its links (each one logged).',
    })
    force: boolean | null,
    @Arg('dryRun', () => Boolean, DRY_RUN) dryRun: boolean | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return deletePayload(await ctx.services.projects.delete(ref, force ?? false, changeRequest(ctx, info, dryRun)));
  }

  @FieldResolver(() => [ProjectResource], { description: 'Linked resources, ordered by resource name.' })
  async resources(@Root() project: ProjectRecord, @Ctx() ctx: RequestContext): Promise<LinkValue[]> {
    const links = await ctx.session.linksByProjectId.load(project.id);
    return links.map((link) => ({ project, resource: link.resource, alias: link.alias }));
  }
}

/** A link as resolvers hold it: the project, the resource and the alias. */
interface LinkValue {
  readonly project: ProjectRecord;
  readonly resource: ResourceInfo;
  readonly alias: string | null;
}

@Resolver(() => ProjectResource)
export class ProjectResourceResolver {
  @FieldResolver()
  id(@Root() link: LinkValue): string {
    return linkId(link.project.id, link.resource.id);
  }
}
