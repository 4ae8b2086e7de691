import { Arg, Authorized, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { RegistryNode } from '../../application/node.service';
import { READ } from '../authorization';
import type { RequestContext } from '../context';
import { Node, nodeValue, type NodeValue } from '../types/node.type';

@Resolver()
export class NodeResolver {
  @Authorized(READ)
  @Query(() => Node, {
    nullable: true,
    description:
      'The tool, resource, resource type, project or change-log entry with this id, or null (Relay refetching).',
  })
  async node(
    @Arg('id', () => ID, { description: 'An id from any Node.' }) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<NodeValue | null> {
    const [found] = await visible(await ctx.services.nodes.find([id], ctx.session), ctx);
    return nodeValue(found);
  }

  @Authorized(READ)
  @Query(() => [Node], {
    nullable: 'items',
    description:
      'The node with each id, in order, null where there is none; at most 100 ids. Looked up together: one statement per table.',
  })
  async nodes(
    @Arg('ids', () => [ID], { description: 'Ids from any Node, up to 100.' }) ids: string[],
    @Ctx() ctx: RequestContext,
  ): Promise<(NodeValue | null)[]> {
    return (await visible(await ctx.services.nodes.find(ids, ctx.session), ctx)).map(nodeValue);
  }
}

/** Nodes as the viewer may see them: a change-log entry it may not see (an access entry) is null, as if absent. */
async function visible(nodes: (RegistryNode | null)[], ctx: RequestContext): Promise<(RegistryNode | null)[]> {
  return Promise.all(
    nodes.map(async (node) =>
      node?.kind === 'CHANGE' &&
      !(await ctx.services.access.canSeeChange(ctx.access.principal, node.record, ctx.session))
        ? null
        : node,
    ),
  );
}
