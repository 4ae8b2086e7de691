import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Authorized, Args, Ctx, FieldResolver, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import { slotId } from '../object-ids';
import { READ, WRITE } from '../authorization';
import type { ToolProblem as ToolProblemRecord } from '../../core/errors';
import type { ResourceInfo, TypeNode } from '../../core/model';
import type { SlotRecord, ToolRecord } from '../../persistence/records';
import type { RequestContext } from '../context';
import { ConnectionArgs, ToolFilter } from '../inputs/connection.args';
import { RegisterToolInput } from '../inputs/register-tool.input';
import { UpdateToolInput } from '../inputs/update.inputs';
import { changeRequest, deletePayload, DRY_RUN, objectPayload } from '../mutations';
import { RegisterToolPayload, UnregisterToolPayload, UpdateToolPayload } from '../types/payloads.type';
import { fromHierarchy } from '../hierarchy-access';
import { namesOnly, selectedFields, withCount } from '../selection';
import { pageRequest, toConnection } from '../pagination';
import { BindingExplanation } from '../types/binding-explanation.type';
import { toExplanation } from '../explanation';
import { Resource } from '../types/resource.type';
import { ResourceType } from '../types/resource-type.type';
import { ResourceSlot, Tool, ToolConnection, ToolProblem } from '../types/tool.type';

@Resolver(() => Tool)
export class ToolResolver {
  @Authorized(READ)
  @Query(() => Tool, { nullable: true, description: 'The tool a ref (id or name) names, or null.' })
  tool(
    @Arg('ref', { description: 'An id or a name.' }) ref: string,
    @Ctx() ctx: RequestContext,
  ): Promise<ToolRecord | null> {
    return ctx.services.tools.find(ref, ctx.session);
  }

  @Authorized(READ)
  @Query(() => ToolConnection, { description: 'Tools, ordered by name.' })
  async tools(
    @Args() args: ConnectionArgs,
    @Arg('filter', () => ToolFilter, { nullable: true, description: 'Which tools; all when absent.' })
    filter: ToolFilter | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const request = withCount(pageRequest('tools', args, filter), info);
    const slotType = filter?.slotType ?? null;
    if (namesOnly(info))
      return toConnection('tools', await ctx.services.tools.listNames(request, ctx.session, slotType));
    const page = await ctx.services.tools.list(request, ctx.session, slotType);
    await preloadSlots(page.items, ctx, info);
    return toConnection('tools', page);
  }

  @Authorized(WRITE)
  @Mutation(() => RegisterToolPayload, {
    description:
      'Registers a tool and its slots, after the static checks (TOOL_VALIDATION_FAILED lists every problem).',
  })
  async registerTool(
    @Arg('input', { description: 'The tool to register, with its slots.' }) input: RegisterToolInput,
    @Arg('dryRun', () => Boolean, DRY_RUN) dryRun: boolean | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return objectPayload('tool', await ctx.services.tools.register(input, changeRequest(ctx, info, dryRun)));
  }

  @Authorized(WRITE)
  @Mutation(() => UpdateToolPayload, {
    description:
      'Replaces a tool (the one ref names, else the one named name): its name, description and all its slots, keeping its id. Unknown: NOT_FOUND; then the same checks as registerTool. Reports the binding impact in every project.',
  })
  async updateTool(
    @Arg('input', { description: 'The tool and its whole new definition.' }) input: UpdateToolInput,
    @Arg('dryRun', () => Boolean, DRY_RUN) dryRun: boolean | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return objectPayload('tool', await ctx.services.tools.update(input, changeRequest(ctx, info, dryRun)));
  }

  @Authorized(READ)
  @Query(() => [ToolProblem], {
    description:
      "Dry run of registerTool's static checks: stores nothing and returns every problem (empty when the tool is fine). Grammar errors are still BAD_USER_INPUT; an existing name is not checked.",
  })
  validateTool(
    @Arg('input', { description: 'The tool definition to check, as for registerTool.' }) input: RegisterToolInput,
    @Ctx() ctx: RequestContext,
  ): Promise<ToolProblemRecord[]> {
    return ctx.services.tools.validate(input, ctx.session);
  }

  @Authorized(WRITE)
  @Mutation(() => UnregisterToolPayload, { description: 'Removes a tool and its slots. An unknown ref is NOT_FOUND.' })
  async unregisterTool(
    @Arg('ref', { description: 'The tool (a ref: id or name).' }) ref: string,
    @Arg('dryRun', () => Boolean, DRY_RUN) dryRun: boolean | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return deletePayload(await ctx.services.tools.unregister(ref, changeRequest(ctx, info, dryRun)));
  }

  @FieldResolver(() => BindingExplanation, {
    description: 'How this tool binds in a project: explainBindings without params.',
  })
  async bindingsIn(
    @Root() tool: ToolRecord,
    @Arg('project', { description: 'The project (a ref).' }) project: string,
    @Ctx() ctx: RequestContext,
  ) {
    return toExplanation(await ctx.services.bindings.explainIn(tool, project, ctx.session), []);
  }

  @FieldResolver(() => [ResourceSlot], { description: 'Slots, in declaration order.' })
  resourceSlots(@Root() tool: ToolRecord, @Ctx() ctx: RequestContext): SlotRecord[] | Promise<SlotRecord[]> {
    // Preloaded with the page (see preloadSlots): a plain value, no promise per tool.
    const loaded = ctx.session.loadedSlots(tool.id);
    if (loaded && ctx.session.loadedHierarchy()) return loaded;
    // Load the hierarchy alongside, so every slot's resourceType answers without a promise.
    return Promise.all([ctx.session.slotsByToolId.load(tool.id), ctx.session.hierarchy()]).then(([slots]) => slots);
  }
}

@Resolver(() => ResourceSlot)
export class ResourceSlotResolver {
  @FieldResolver()
  id(@Root() slot: SlotRecord): string {
    return slotId(slot.toolId, slot.name);
  }

  @FieldResolver(() => ResourceType, {
    description: 'The type a resource must have, or descend from, to fill this slot.',
  })
  resourceType(@Root() slot: SlotRecord, @Ctx() ctx: RequestContext): TypeNode | Promise<TypeNode> {
    return fromHierarchy(ctx.session, (types) => {
      const type = types.byId(slot.typeId);
      if (!type) throw new Error(`slot ${slot.toolId}/${slot.name} has unknown type ${slot.typeId}`);
      return type;
    });
  }

  @FieldResolver(() => Resource, { nullable: true, description: 'For STATIC slots: the bound resource.' })
  staticResource(
    @Root() slot: SlotRecord,
    @Ctx() ctx: RequestContext,
  ): ResourceInfo | null | Promise<ResourceInfo | null> {
    if (!slot.staticResourceId) return null;
    return ctx.session.loadedResource(slot.staticResourceId) ?? ctx.session.resourceById.load(slot.staticResourceId);
  }
}

/**
 * When a page of tools is asked with their slots, loads every tool's slots
 * (one batch), the type hierarchy, and, when asked for, the slots' static
 * resources (one batch) before the page is returned: the fields below then
 * answer with plain values instead of a promise per tool and per slot, which
 * is most of what a dashboard page costs to execute.
 */
async function preloadSlots(tools: readonly ToolRecord[], ctx: RequestContext, info: GraphQLResolveInfo) {
  if (tools.length === 0 || !selectedFields(info, 'edges', 'node').has('resourceSlots')) return;
  const [slots] = await Promise.all([
    ctx.session.slotsByToolId.loadMany(tools.map((tool) => tool.id)),
    ctx.session.hierarchy(),
  ]);
  if (!selectedFields(info, 'edges', 'node', 'resourceSlots').has('staticResource')) return;
  const staticIds = new Set<string>();
  for (const group of slots) {
    if (group instanceof Error) return;
    for (const slot of group) if (slot.staticResourceId) staticIds.add(slot.staticResourceId);
  }
  if (staticIds.size > 0) await ctx.session.resourceById.loadMany([...staticIds]);
}
