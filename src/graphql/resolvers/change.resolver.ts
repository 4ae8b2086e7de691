import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Authorized, Ctx, Info, Query, Resolver } from 'type-graphql';
import { READ } from '../authorization';
import type { RequestContext } from '../context';
import { ChangeFilter } from '../inputs/change-filter.input';
import { ConnectionArgs } from '../inputs/connection.args';
import { decodeChangeCursor, toChangeConnection, windowOf } from '../pagination';
import { withCount } from '../selection';
import { RegistryChange, RegistryChangeConnection } from '../types/registry-change.type';

@Resolver(() => RegistryChange)
export class ChangeResolver {
  @Authorized(READ)
  @Query(() => RegistryChangeConnection, {
    description:
      'The change log, oldest first: one entry per edit of every committed mutation, with who made it, when, and its binding impact.',
  })
  async changes(
    @Args() args: ConnectionArgs,
    @Arg('filter', () => ChangeFilter, { nullable: true, description: 'Which entries; every field given must match.' })
    filter: ChangeFilter | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const page = await ctx.services.changes.list(
      {
        kind: filter?.kind ?? null,
        ref: filter?.ref ?? null,
        actor: filter?.actor ?? null,
        sinceVersion: filter?.sinceVersion ?? null,
      },
      withCount(windowOf(args, decodeChangeCursor), info),
      ctx.session,
    );
    return toChangeConnection(page);
  }
}
