import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Authorized, Args, Ctx, FieldResolver, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import { READ, WRITE } from '../authorization';
import type { ResourceInfo, TypeNode } from '../../core/model';
import type { RequestContext } from '../context';
import { ConnectionArgs, ResourceFilter } from '../inputs/connection.args';
import { RegisterResourceInput } from '../inputs/register-resource.input';
import { UpdateResourceInput } from '../inputs/update.inputs';
import { changeRequest, deletePayload, DRY_RUN, objectPayload } from '../mutations';
import { DeleteResourcePayload, RegisterResourcePayload, UpdateResourcePayload } from '../types/payloads.type';
import { fromHierarchy } from '../hierarchy-access';
import { namesOnly, withCount } from '../selection';
import { pageRequest, toConnection } from '../pagination';
import { ResourceType } from '../types/resource-type.type';
import { Resource, ResourceConnection } from '../types/resource.type';
import { ResourceUsage, StaticBinding } from '../types/resource-usage.type';
import { staticBindingId, usageId } from '../object-ids';

@Resolver(() => Resource)
export class ResourceResolver {
  @Authorized(READ)
  @Query(() => Resource, { nullable: true, description: 'The resource a ref (id or name) names, or null.' })
  resource(
    @Arg('ref', { description: 'An id or a name.' }) ref: string,
    @Ctx() ctx: RequestContext,
  ): Promise<ResourceInfo | null> {
    return ctx.services.resources.find(ref, ctx.session);
  }

  @Authorized(READ)
  @Query(() => ResourceConnection, {
    description: 'Resources, ordered by name. A type filter includes sub-types at any depth by default.',
  })
  async resources(
    @Args() args: ConnectionArgs,
    @Arg('filter', () => ResourceFilter, { nullable: true, description: 'Which resources; all when absent.' })
    filter: ResourceFilter | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const typeFilter = filter?.type ? { type: filter.type, includeSubtypes: filter.includeSubtypes ?? true } : null;
    const request = withCount(pageRequest('resources', args, filter), info);
    const resources = ctx.services.resources;
    return toConnection(
      'resources',
      namesOnly(info)
        ? await resources.listNames(request, typeFilter, ctx.session)
        : await resources.list(request, typeFilter, ctx.session),
    );
  }

  @Authorized(WRITE)
  @Mutation(() => RegisterResourcePayload, { description: 'Registers a resource of a registered type.' })
  async registerResource(
    @Arg('input', { description: 'The resource to register.' }) input: RegisterResourceInput,
    @Arg('dryRun', () => Boolean, DRY_RUN) dryRun: boolean | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return objectPayload('resource', await ctx.services.resources.register(input, changeRequest(ctx, info, dryRun)));
  }

  @Authorized(WRITE)
  @Mutation(() => UpdateResourcePayload, {
    description:
      'Renames, describes or re-types a resource, keeping its id. A new type that a STATIC slot binding the resource would not accept is CONFLICT (extensions.usedBy).',
  })
  async updateResource(
    @Arg('input', { description: 'The resource (ref) and what to change; what is left out stays.' })
    input: UpdateResourceInput,
    @Arg('dryRun', () => Boolean, DRY_RUN) dryRun: boolean | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return objectPayload('resource', await ctx.services.resources.update(input, changeRequest(ctx, info, dryRun)));
  }

  @Authorized(WRITE)
  @Mutation(() => DeleteResourcePayload, {
    description:
      'Deletes a resource. One a tool binds statically is always CONFLICT; one that projects link is CONFLICT unless force: true, which removes its links in the same transaction and reports the binding impact. Both list extensions.usedBy. Unknown: NOT_FOUND.',
  })
  async deleteResource(
    @Arg('ref', { description: 'The resource (a ref: id or name).' }) ref: string,
    @Arg('force', () => Boolean, {
      nullable: true,
      defaultValue: false,
      description: 'Also remove its project links (each one logged, with its impact).',
    })
    force: boolean | null,
    @Arg('dryRun', () => Boolean, DRY_RUN) dryRun: boolean | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return deletePayload(await ctx.services.resources.delete(ref, force ?? false, changeRequest(ctx, info, dryRun)));
  }

  @FieldResolver(() => ResourceUsage, {
    description: 'The tools whose STATIC slots bind this resource, and the projects that link it, with their aliases.',
  })
  async usedBy(@Root() resource: ResourceInfo, @Ctx() ctx: RequestContext) {
    return { id: usageId(resource.id), ...(await ctx.services.resources.usedBy(resource, ctx.session)) };
  }

  @FieldResolver(() => ResourceType, {
    description: "The resource's type: a slot of this type or of any of its ancestors accepts the resource.",
  })
  type(@Root() resource: ResourceInfo, @Ctx() ctx: RequestContext): TypeNode | Promise<TypeNode> {
    return fromHierarchy(ctx.session, (types) => {
      const type = types.byId(resource.typeId);
      if (!type) throw new Error(`resource ${resource.id} has unknown type ${resource.typeId}`);
      return type;
    });
  }
}

@Resolver(() => StaticBinding)
export class StaticBindingResolver {
  @FieldResolver()
  id(@Root() binding: { tool: { id: string }; slotName: string }): string {
    return staticBindingId(binding.tool.id, binding.slotName);
  }
}
