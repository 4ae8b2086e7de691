import { Arg, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import { READ } from '../authorization';
import type { BindingOutcome } from '../../core/binding-resolution';
import { thenNow } from '../../application/versioning';
import type { BindingParam, ResolvedBindings } from '../../application/binding.service';
import { toExplanation } from '../explanation';
import { bindingResultId, bindingsKey } from '../object-ids';
import type { RequestContext } from '../context';
import { BindingParamInput } from '../inputs/binding-param.input';
import { BindingExplanation } from '../types/binding-explanation.type';
import { BindingResult } from '../types/binding-result.type';

@Resolver(() => BindingResult)
export class BindingResolver {
  @Authorized(READ)
  @Query(() => [BindingResult], {
    description:
      'Binds every slot of a tool in a project, in slot order. If any slot fails, the query fails with BINDING_RESOLUTION_FAILED and extensions.problems lists every failing slot.',
  })
  resolveBindings(
    @Arg('tool', { description: 'The tool (a ref).' }) tool: string,
    @Arg('project', { description: 'The project (a ref).' }) project: string,
    @Arg('params', () => [BindingParamInput], {
      nullable: true,
      description: 'Resources for PARAMETER slots; a slot without one is deferred.',
    })
    params: BindingParamInput[] | null,
    @Ctx() ctx: RequestContext,
  ) {
    // A plain value when everything is in memory (see BindingService.resolve): the compiled query then goes on at once.
    return thenNow(ctx.services.bindings.resolve(tool, project, params ?? [], ctx.session), (resolved) =>
      toBindingResults(resolved, params ?? []),
    );
  }

  @Authorized(READ)
  @Query(() => BindingExplanation, {
    description:
      'Why each slot of a tool did, or did not, bind in a project: the rule used, every candidate looked at with its verdict, and a fix. Never fails because of binding problems; unknown tool or project is still NOT_FOUND.',
  })
  async explainBindings(
    @Arg('tool', { description: 'The tool (a ref).' }) tool: string,
    @Arg('project', { description: 'The project (a ref).' }) project: string,
    @Arg('params', () => [BindingParamInput], { nullable: true, description: 'Resources for PARAMETER slots.' })
    params: BindingParamInput[] | null,
    @Ctx() ctx: RequestContext,
  ) {
    return toExplanation(await ctx.services.bindings.explain(tool, project, params ?? [], ctx.session), params ?? []);
  }
}

function toBindingResults(resolved: ResolvedBindings, params: readonly BindingParam[]) {
  const key = bindingsKey(resolved.toolId, resolved.projectId, params);
  return resolved.outcomes.map((outcome) => toBindingResult(key, outcome));
}

/** A BindingResult: the outcome's fields, written out (a spread of it cost as much as resolving a slot). */
function toBindingResult(key: string, outcome: BindingOutcome) {
  return {
    id: bindingResultId(key, outcome.slotName),
    slotName: outcome.slotName,
    bindingMode: outcome.bindingMode,
    access: outcome.access,
    resource: outcome.resource,
    resourceId: outcome.resource?.id ?? null,
    deferred: outcome.deferred,
  };
}
