import { expect } from 'chai';
import { isObjectType, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import { callFieldResolversDirectly } from '../../src/graphql/direct-resolvers';
import { buildTypeGraphqlSchema, RESOLVERS } from '../../src/graphql/schema';

/** Field resolvers called without type-graphql's per-call wrapper (src/graphql/direct-resolvers.ts). */
describe('field resolvers called directly', () => {
  let wrapped: GraphQLSchema;
  let direct: GraphQLSchema;
  let replaced: string[];
  before(async () => {
    wrapped = await buildTypeGraphqlSchema();
    direct = await buildTypeGraphqlSchema();
    replaced = callFieldResolversDirectly(direct, RESOLVERS);
  });

  it('replaces exactly the field resolvers that take only the parent value and the context', () => {
    expect(replaced).to.deep.equal([
      'Project.resources',
      'ProjectResource.id',
      'Resource.type',
      'Resource.usedBy',
      'ResourceSlot.id',
      'ResourceSlot.resourceType',
      'ResourceSlot.staticResource',
      'ResourceType.ancestors',
      'ResourceType.parentTypes',
      'ResourceType.subtypes',
      'Tool.resourceSlots',
    ]);
    // Those with arguments (converted and validated by type-graphql) and every root field keep the wrapper.
    for (const kept of ['Tool.bindingsIn', 'ResourceType.compatibleResources', 'Query.tools', 'Query.resolveBindings'])
      expect(replaced).to.not.include(kept);
  });

  it('answers as type-graphql’s wrapper does, with the parent value and the context in the method’s order', async () => {
    const slot = { toolId: '01ARZ3NDEKTSV4RRFFQ69G5FAV', name: 'repo', typeId: 'T', staticResourceId: 'R' };
    const resource = { id: 'R', name: 'acme/repo' };
    const context = {
      session: {
        loadedResource: (id: string) => (id === 'R' ? resource : undefined),
        resourceById: { load: async () => null },
      },
    };
    const info = {} as GraphQLResolveInfo;
    for (const [type, field] of [
      ['ResourceSlot', 'id'],
      ['ResourceSlot', 'staticResource'],
    ] as const) {
      const viaWrapper = await resolverOf(wrapped, type, field)!(slot, {}, context, info);
      const viaDirect = await resolverOf(direct, type, field)!(slot, {}, context, info);
      expect(viaDirect, `${type}.${field}`).to.deep.equal(viaWrapper);
    }
    expect(await resolverOf(direct, 'ResourceSlot', 'id')!(slot, {}, context, info)).to.equal(`${slot.toolId}/repo`);
    expect(await resolverOf(direct, 'ResourceSlot', 'staticResource')!(slot, {}, context, info)).to.equal(resource);
  });
});

function resolverOf(schema: GraphQLSchema, type: string, field: string) {
  const found = schema.getType(type);
  if (!isObjectType(found)) throw new Error(`${type} is not an object type`);
  return found.getFields()[field]?.resolve;
}
