import { Arg, Authorized, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { READ, WRITE } from '../authorization';
import type { ResourceInfo, TypeNode } from '../../core/model';
import type { RequestContext } from '../context';
import { ConnectionArgs, ResourceFilter } from '../inputs/connection.args';
import { RegisterResourceInput } from '../inputs/register-resource.input';
import { fromHierarchy } from '../hierarchy-access';
import { pageRequest, toConnection } from '../pagination';
import { ResourceType } from '../types/resource-type.type';
import { Resource, ResourceConnection } from '../types/resource.type';
import { ResourceUsage } from '../types/resource-usage.type';

@Resolver(() => Resource)
export class ResourceResolver {
  @Authorized(READ)
  @Query(() => Resource, { nullable: true, description: 'The resource a ref (id or name) names, or null.' })
  resource(@Arg('ref') ref: string, @Ctx() ctx: RequestContext): Promise<ResourceInfo | null> {
    return ctx.services.resources.find(ref, ctx.session);
  }

  @Authorized(READ)
  @Query(() => ResourceConnection, {
    description: 'Resources, ordered by name. A type filter includes sub-types at any depth by default.',
  })
  async resources(
    @Args() args: ConnectionArgs,
    @Arg('filter', () => ResourceFilter, { nullable: true }) filter: ResourceFilter | null,
    @Ctx() ctx: RequestContext,
  ) {
    const typeFilter = filter?.type ? { type: filter.type, includeSubtypes: filter.includeSubtypes ?? true } : null;
    return toConnection(await ctx.services.resources.list(pageRequest(args, filter), typeFilter, ctx.session));
  }

  @Authorized(WRITE)
  @Mutation(() => Resource, { description: 'Registers a resource of a registered type.' })
  registerResource(@Arg('input') input: RegisterResourceInput, @Ctx() ctx: RequestContext): Promise<ResourceInfo> {
    return ctx.services.resources.register(input, ctx.session);
  }

  @Authorized(WRITE)
  @Mutation(() => Boolean, {
    description:
      'Deletes a resource; its project links go with it. One a tool binds statically is CONFLICT, with extensions.usedBy. Unknown: NOT_FOUND.',
  })
  deleteResource(@Arg('ref') ref: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.resources.delete(ref, ctx.session);
  }

  @FieldResolver(() => ResourceUsage, {
    description: 'The tools whose STATIC slots bind this resource, and the projects that link it, with their aliases.',
  })
  usedBy(@Root() resource: ResourceInfo, @Ctx() ctx: RequestContext) {
    return ctx.services.resources.usedBy(resource, ctx.session);
  }

  @FieldResolver(() => ResourceType)
  type(@Root() resource: ResourceInfo, @Ctx() ctx: RequestContext): TypeNode | Promise<TypeNode> {
    return fromHierarchy(ctx.session, (types) => {
      const type = types.byId(resource.typeId);
      if (!type) throw new Error(`resource ${resource.id} has unknown type ${resource.typeId}`);
      return type;
    });
  }
}
