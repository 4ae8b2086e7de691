import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Authorized, Ctx, Info, Mutation, Resolver } from 'type-graphql';
import { WRITE } from '../authorization';
import type { RequestContext } from '../context';
import { RegisterBatchInput } from '../inputs/register-batch.input';
import { changeRequest, DRY_RUN } from '../mutations';
import { RegisterBatchPayload } from '../types/payloads.type';

@Resolver()
export class BatchResolver {
  @Authorized(WRITE)
  @Mutation(() => RegisterBatchPayload, {
    description:
      'Registers many resource types, resources, projects, links and tools in one transaction, in order: all of them or none. Each entry is checked, authorized and logged exactly as its own mutation (registerResourceType, registerResource, createProject, linkResource, registerTool) would be, one change-log entry each under that name, and sees the entries before it. The first failing entry rolls everything back; its error has `extensions.entry`, the index. At most 1,000 entries. With `input.after`, it runs only right after the batch of that `input.key` (PRECONDITION_FAILED otherwise).',
  })
  async registerBatch(
    @Arg('input', { description: 'The entries, in order.' }) input: RegisterBatchInput,
    @Arg('dryRun', () => Boolean, DRY_RUN) dryRun: boolean | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const order = { key: input.key ?? undefined, after: input.after ?? undefined };
    const outcome = await ctx.services.batches.register(input.entries, changeRequest(ctx, info, dryRun), order);
    return {
      entries: outcome.result.map(({ kind, id, name }) => ({ kind, name, entityId: outcome.dryRun ? null : id })),
      dryRun: outcome.dryRun,
      registryVersion: outcome.registryVersion,
      impact: outcome.impact,
    };
  }
}
