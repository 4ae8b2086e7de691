import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Authorized, Args, Ctx, FieldResolver, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import { READ, WRITE } from '../authorization';
import type { TypeNode } from '../../core/model';
import type { RequestContext } from '../context';
import { ConnectionArgs, ResourceTypeFilter } from '../inputs/connection.args';
import { RegisterResourceTypeInput } from '../inputs/register-resource-type.input';
import { UpdateResourceTypeInput } from '../inputs/update.inputs';
import { changeRequest, deletePayload, DRY_RUN, objectPayload } from '../mutations';
import {
  DeleteResourceTypePayload,
  RegisterResourceTypePayload,
  UpdateResourceTypePayload,
} from '../types/payloads.type';
import { fromHierarchy } from '../hierarchy-access';
import { withCount } from '../selection';
import { cursorsOf, pageRequest, toConnection, windowOf } from '../pagination';
import { ResourceType, ResourceTypeConnection } from '../types/resource-type.type';
import { ResourceConnection } from '../types/resource.type';

type TypeRow = Pick<TypeNode, 'id' | 'name' | 'description'>;

@Resolver(() => ResourceType)
export class ResourceTypeResolver {
  @Authorized(READ)
  @Query(() => ResourceType, { nullable: true, description: 'The resource type a ref (id or name) names, or null.' })
  resourceType(
    @Arg('ref', { description: 'An id or a name.' }) ref: string,
    @Ctx() ctx: RequestContext,
  ): Promise<TypeRow | null> {
    return ctx.services.resourceTypes.find(ref, ctx.session);
  }

  @Authorized(READ)
  @Query(() => ResourceTypeConnection, { description: 'Resource types, ordered by name.' })
  async resourceTypes(
    @Args() args: ConnectionArgs,
    @Arg('filter', () => ResourceTypeFilter, { nullable: true, description: 'Which types; all when absent.' })
    filter: ResourceTypeFilter | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return toConnection(
      'resourceTypes',
      await ctx.services.resourceTypes.list(withCount(pageRequest('resourceTypes', args, filter), info), ctx.session),
    );
  }

  @Authorized(WRITE)
  @Mutation(() => RegisterResourceTypePayload, {
    description: 'Registers a resource type; its parents must already exist.',
  })
  async registerResourceType(
    @Arg('input', { description: 'The resource type to register.' }) input: RegisterResourceTypeInput,
    @Arg('dryRun', () => Boolean, DRY_RUN) dryRun: boolean | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return objectPayload(
      'resourceType',
      await ctx.services.resourceTypes.register(input, changeRequest(ctx, info, dryRun)),
    );
  }

  @Authorized(WRITE)
  @Mutation(() => UpdateResourceTypePayload, {
    description:
      'Renames, describes or re-parents a resource type, keeping its id. A cycle is BAD_USER_INPUT; a change that leaves a static binding with a resource that no longer fits is CONFLICT (extensions.usedBy). Re-parenting reports its binding impact.',
  })
  async updateResourceType(
    @Arg('input', { description: 'The resource type (ref) and what to change; what is left out stays.' })
    input: UpdateResourceTypeInput,
    @Arg('dryRun', () => Boolean, DRY_RUN) dryRun: boolean | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return objectPayload(
      'resourceType',
      await ctx.services.resourceTypes.update(input, changeRequest(ctx, info, dryRun)),
    );
  }

  @Authorized(WRITE)
  @Mutation(() => DeleteResourceTypePayload, {
    description:
      'Deletes a resource type. One that resources, sub-types or tool slots use is CONFLICT, with extensions.usedBy. Unknown: NOT_FOUND.',
  })
  async deleteResourceType(
    @Arg('ref', { description: 'The resource type (a ref: id or name).' }) ref: string,
    @Arg('dryRun', () => Boolean, DRY_RUN) dryRun: boolean | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return deletePayload(await ctx.services.resourceTypes.delete(ref, changeRequest(ctx, info, dryRun)));
  }

  @FieldResolver(() => ResourceConnection, {
    description:
      'Resources that fill a slot of this type: of this type or any sub-type, at any depth; ordered by name.',
  })
  async compatibleResources(
    @Root() type: TypeRow,
    @Args() args: ConnectionArgs,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return toConnection(
      'resources',
      await ctx.services.resourceTypes.compatibleResources(
        type.id,
        withCount(windowOf(args, cursorsOf('resources')), info),
        ctx.session,
      ),
    );
  }

  @FieldResolver(() => [ResourceType], { description: 'Direct parents, in declaration order.' })
  parentTypes(@Root() type: TypeRow, @Ctx() ctx: RequestContext): TypeRow[] | Promise<TypeRow[]> {
    return fromHierarchy(ctx.session, (types) => types.parentsOf(type.id));
  }

  @FieldResolver(() => [ResourceType], { description: 'Every type reachable through parentTypes, nearest first.' })
  ancestors(@Root() type: TypeRow, @Ctx() ctx: RequestContext): readonly TypeRow[] | Promise<readonly TypeRow[]> {
    return fromHierarchy(ctx.session, (types) => types.ancestorsOf(type.id));
  }

  @FieldResolver(() => [ResourceType], {
    description: 'Direct sub-types (types listing this one as a parent), ordered by name.',
  })
  subtypes(@Root() type: TypeRow, @Ctx() ctx: RequestContext): TypeRow[] | Promise<TypeRow[]> {
    return fromHierarchy(ctx.session, (types) => types.subtypesOf(type.id));
  }
}
