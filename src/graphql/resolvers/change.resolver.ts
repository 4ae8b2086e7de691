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
      'The change log, oldest first: one entry per edit of every committed mutation, with who made it, when, and its binding impact. Entries about access (GRANT, API_TOKEN) are listed only to OWNERs of their namespace.',
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
        // Rule: access entries (GRANT, API_TOKEN) only for OWNERs of their namespace.
        accessNamespaces: await ctx.services.access.visibleAccessNamespaces(ctx.access.principal, ctx.session),
      },
      withCount(windowOf(args, decodeChangeCursor), info),
      ctx.session,
    );
    return toChangeConnection(page);
  }
}
