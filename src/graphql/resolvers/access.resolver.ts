import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Authorized, Ctx, FieldResolver, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Principal } from '../../core/access';
import type { ApiTokenRecord, GrantRecord } from '../../persistence/records';
import { READ, WRITE } from '../authorization';
import type { RequestContext } from '../context';
import {
  CreateApiTokenInput,
  GrantRoleInput,
  RevokeApiTokenInput,
  RevokeRoleInput,
  RoleGrantFilter,
} from '../inputs/access.inputs';
import { ConnectionArgs } from '../inputs/connection.args';
import { changeRequest, DRY_RUN } from '../mutations';
import { cursorsOf, toIdConnection, windowOf } from '../pagination';
import { withCount } from '../selection';
import {
  ApiToken,
  ApiTokenConnection,
  CreateApiTokenPayload,
  GrantRolePayload,
  RevokeApiTokenPayload,
  RevokeRolePayload,
  RoleGrant,
  RoleGrantConnection,
  Viewer,
} from '../types/access.type';

/** What the viewer query answers: the request's principal (its fields resolve from it). */
interface ViewerValue {
  readonly principal: string | null;
  readonly groups: readonly string[];
  readonly of: Principal | null;
}

/** Who may do what: the viewer, role grants and API tokens. */
@Resolver()
export class AccessResolver {
  @Authorized(READ)
  @Query(() => Viewer, { description: "Who is asking (the request's principal), its grants, and what it may change." })
  viewer(@Ctx() ctx: RequestContext): ViewerValue {
    const principal = ctx.access.principal;
    return { principal: principal?.id ?? null, groups: principal?.groups ?? [], of: principal };
  }

  @Authorized(READ)
  @Query(() => RoleGrantConnection, {
    description:
      'Role grants, oldest first: those on namespaces the viewer is OWNER of (all of them for an OWNER of *), and its own.',
  })
  async roleGrants(
    @Args() args: ConnectionArgs,
    @Arg('filter', () => RoleGrantFilter, {
      nullable: true,
      description: 'Which grants; all the viewer may see when absent.',
    })
    filter: RoleGrantFilter | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const page = await ctx.services.access.pageGrants(
      { namespace: filter?.namespace ?? null, principal: filter?.principal ?? null },
      withCount(windowOf(args, cursorsOf('roleGrants')), info),
      ctx.access.principal,
      ctx.session,
    );
    return toIdConnection('roleGrants', page);
  }

  @Authorized(READ)
  @Query(() => ApiTokenConnection, {
    description:
      'API tokens, oldest first, revoked ones included: those the viewer created, and those with a grant on a namespace it is OWNER of (all of them for an OWNER of *).',
  })
  async apiTokens(@Args() args: ConnectionArgs, @Ctx() ctx: RequestContext, @Info() info: GraphQLResolveInfo) {
    // lastUsedAt moves without a registry version: this answer is never kept.
    ctx.report.uncacheable = true;
    const page = await ctx.services.access.pageApiTokens(
      withCount(windowOf(args, cursorsOf('apiTokens')), info),
      ctx.access.principal,
      ctx.session,
    );
    return toIdConnection('apiTokens', page);
  }

  @Authorized(WRITE)
  @Mutation(() => GrantRolePayload, {
    description:
      'Gives a principal a role on a namespace (or *). Needs OWNER there; nobody grants more than they hold there. A principal holds one role per namespace: a second grant there is CONFLICT.',
  })
  async grantRole(
    @Arg('input', { description: 'Who, which role, and where.' }) input: GrantRoleInput,
    @Arg('dryRun', () => Boolean, DRY_RUN) dryRun: boolean | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<GrantRolePayload> {
    const outcome = await ctx.services.accessChanges.grantRole(input, changeRequest(ctx, info, dryRun));
    return {
      grant: outcome.dryRun ? null : outcome.result,
      dryRun: outcome.dryRun,
      registryVersion: outcome.registryVersion,
    };
  }

  @Authorized(WRITE)
  @Mutation(() => RevokeRolePayload, {
    description: 'Takes a grant back. Needs OWNER on its namespace. Unknown: NOT_FOUND.',
  })
  async revokeRole(
    @Arg('input', { description: 'The grant.' }) input: RevokeRoleInput,
    @Arg('dryRun', () => Boolean, DRY_RUN) dryRun: boolean | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<RevokeRolePayload> {
    const outcome = await ctx.services.accessChanges.revokeRole(input.id, changeRequest(ctx, info, dryRun));
    return { deletedId: outcome.result, dryRun: outcome.dryRun, registryVersion: outcome.registryVersion };
  }

  @Authorized(WRITE)
  @Mutation(() => CreateApiTokenPayload, {
    description:
      'Makes an API token (principal token:<name>) with its grants: OWNER is needed on the namespace of each, and no grant may exceed what the creator holds there. Its secret is returned this once. No dryRun: a secret is made only to be used.',
  })
  async createApiToken(
    @Arg('input', { description: 'Its name, its grants and when it expires.' }) input: CreateApiTokenInput,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const outcome = await ctx.services.accessChanges.createApiToken(
      { name: input.name, grants: input.grants, expiresAt: input.expiresAt ?? null },
      changeRequest(ctx, info, false),
    );
    return { ...outcome.result, registryVersion: outcome.registryVersion };
  }

  @Authorized(WRITE)
  @Mutation(() => RevokeApiTokenPayload, {
    description:
      'Revokes an API token: from the next request on, on every instance, it authenticates nothing, and its grants go. Needs OWNER on the namespace of each of its grants (on * for a token with none). Unknown: NOT_FOUND.',
  })
  async revokeApiToken(
    @Arg('input', { description: 'The token.' }) input: RevokeApiTokenInput,
    @Arg('dryRun', () => Boolean, DRY_RUN) dryRun: boolean | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const outcome = await ctx.services.accessChanges.revokeApiToken(input.ref, changeRequest(ctx, info, dryRun));
    return {
      token: outcome.dryRun ? null : outcome.result,
      dryRun: outcome.dryRun,
      registryVersion: outcome.registryVersion,
    };
  }
}

@Resolver(() => Viewer)
export class ViewerResolver {
  @FieldResolver(() => [RoleGrant], {
    description: "Every role it holds: its own grants, its groups', and built-in ones.",
  })
  grants(@Root() viewer: ViewerValue, @Ctx() ctx: RequestContext): Promise<GrantRecord[]> {
    return ctx.services.access.grantRecordsOf(viewer.of, ctx.session);
  }

  @FieldResolver(() => Boolean, {
    description:
      "What the mutation `operation`'s role check answers for `ref`, with the same code: so a client can disable what would be refused. The ref is what the mutation's ref names (a tool, resource or project by id or name; a namespace for grantRole and createApiToken; a grant id for revokeRole; a token for revokeApiToken). What a change touches beyond its ref (a rename's new name, a forced delete's links) is checked when it runs.",
  })
  can(
    @Root() viewer: ViewerValue,
    @Arg('operation', { description: 'A Mutation field name, e.g. deleteResource.' }) operation: string,
    @Arg('ref', { description: 'What the mutation would act on.' }) ref: string,
    @Ctx() ctx: RequestContext,
  ): Promise<boolean> {
    return ctx.services.access.can(viewer.of, operation, ref, ctx.session);
  }
}

@Resolver(() => ApiToken)
export class ApiTokenResolver {
  @FieldResolver(() => String, {
    description: 'token:<name>: the change log records it as the actor of what the token changes.',
  })
  principal(@Root() token: ApiTokenRecord): string {
    return `token:${token.name}`;
  }

  @FieldResolver(() => [RoleGrant], { description: 'What it may do: its role grants (none once it is revoked).' })
  grants(@Root() token: ApiTokenRecord, @Ctx() ctx: RequestContext): Promise<GrantRecord[]> {
    return ctx.services.access.tokenGrants(token, ctx.session);
  }
}
