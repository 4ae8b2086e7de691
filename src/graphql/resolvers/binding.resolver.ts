import { Arg, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import { READ } from '../authorization';
import type { BindingOutcome } from '../../core/binding-resolution';
import type { RequestContext } from '../context';
import { BindingParamInput } from '../inputs/binding-param.input';
import { BindingResult } from '../types/binding-result.type';

@Resolver(() => BindingResult)
export class BindingResolver {
  @Authorized(READ)
  @Query(() => [BindingResult], {
    description:
      'Binds every slot of a tool in a project, in slot order. If any slot fails, the query fails with BINDING_RESOLUTION_FAILED and extensions.problems lists every failing slot.',
  })
  async resolveBindings(
    @Arg('tool', { description: 'The tool (a ref).' }) tool: string,
    @Arg('project', { description: 'The project (a ref).' }) project: string,
    @Arg('params', () => [BindingParamInput], { nullable: true, description: 'Resources for PARAMETER slots; a slot without one is deferred.' })
    params: BindingParamInput[] | null,
    @Ctx() ctx: RequestContext,
  ) {
    const results = await ctx.services.bindings.resolve(tool, project, params ?? [], ctx.loaders);
    return results.map(toBindingResult);
  }
}

function toBindingResult(outcome: BindingOutcome) {
  return { ...outcome, resourceId: outcome.resource?.id ?? null };
}
