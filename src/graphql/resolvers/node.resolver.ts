import { Arg, Authorized, Ctx, ID, Query, Resolver } from 'type-graphql';
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
    const [found] = await ctx.services.nodes.find([id], ctx.session);
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
    return (await ctx.services.nodes.find(ids, ctx.session)).map(nodeValue);
  }
}
