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
      'The tool, resource, resource type, project, change-log entry, role grant or API token with this id, or null (Relay refetching). What the viewer may not see of access (an access entry, a grant, a token: see Role) is null too.',
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

/**
 * Nodes as the viewer may see them: what it may not see of access (a change-log entry about access, a grant, an
 * API token: core/access.ts) is null, as if absent.
 */
async function visible(nodes: (RegistryNode | null)[], ctx: RequestContext): Promise<(RegistryNode | null)[]> {
  const { access, services, session } = ctx;
  const seen = (node: RegistryNode): boolean | Promise<boolean> => {
    switch (node.kind) {
      case 'CHANGE':
        return services.access.canSeeChange(access.principal, node.record, session);
      case 'GRANT':
        return services.access.canSeeGrant(access.principal, node.record, session);
      case 'API_TOKEN':
        return services.access.canSeeToken(access.principal, node.record, session);
      default:
        return true;
    }
  };
  return Promise.all(nodes.map(async (node) => (node !== null && (await seen(node)) ? node : null)));
}
