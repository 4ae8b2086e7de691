import { Arg, Authorized, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { READ, WRITE } from '../authorization';
import type { LinkRecord, ProjectRecord } from '../../persistence/records';
import type { RequestContext } from '../context';
import { ConnectionArgs, ProjectFilter } from '../inputs/connection.args';
import { CreateProjectInput } from '../inputs/create-project.input';
import { LinkResourceInput, UnlinkResourceInput } from '../inputs/link-resource.input';
import { pageRequest, toConnection } from '../pagination';
import { Project, ProjectConnection, ProjectResource } from '../types/project.type';

@Resolver(() => Project)
export class ProjectResolver {
  @Authorized(READ)
  @Query(() => Project, { nullable: true, description: 'The project a ref (id or name) names, or null.' })
  project(@Arg('ref') ref: string, @Ctx() ctx: RequestContext): Promise<ProjectRecord | null> {
    return ctx.services.projects.find(ref, ctx.session);
  }

  @Authorized(READ)
  @Query(() => ProjectConnection, { description: 'Projects, ordered by name.' })
  async projects(
    @Args() args: ConnectionArgs,
    @Arg('filter', () => ProjectFilter, { nullable: true }) filter: ProjectFilter | null,
    @Ctx() ctx: RequestContext,
  ) {
    return toConnection(await ctx.services.projects.list(pageRequest(args, filter), ctx.session));
  }

  @Authorized(WRITE)
  @Mutation(() => Project, { description: 'Creates a project.' })
  createProject(@Arg('input') input: CreateProjectInput, @Ctx() ctx: RequestContext): Promise<ProjectRecord> {
    return ctx.services.projects.create(input, ctx.session);
  }

  @Authorized(WRITE)
  @Mutation(() => Project, {
    description: 'Links a resource to a project, at most once, under an optional alias unique within the project.',
  })
  linkResource(@Arg('input') input: LinkResourceInput, @Ctx() ctx: RequestContext): Promise<ProjectRecord> {
    return ctx.services.projects.link(input, ctx.session);
  }

  @Authorized(WRITE)
  @Mutation(() => Project, { description: 'Removes a resource from a project.' })
  unlinkResource(@Arg('input') input: UnlinkResourceInput, @Ctx() ctx: RequestContext): Promise<ProjectRecord> {
    return ctx.services.projects.unlink(input, ctx.session);
  }

  @Authorized(WRITE)
  @Mutation(() => Boolean, { description: 'Deletes a project and its links. Unknown: NOT_FOUND.' })
  deleteProject(@Arg('ref') ref: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.projects.delete(ref, ctx.session);
  }

  @FieldResolver(() => [ProjectResource], { description: 'Linked resources, ordered by resource name.' })
  resources(@Root() project: ProjectRecord, @Ctx() ctx: RequestContext): Promise<LinkRecord[]> {
    return ctx.session.linksByProjectId.load(project.id);
  }
}
