import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isInputObjectType, isObjectType, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import { BadInputError } from '../../src/core/errors';
import { authChecker, UnauthenticatedError } from '../../src/graphql/authorization';
import { callFieldResolversDirectly, callRootQueriesDirectly } from '../../src/engine/direct-resolvers';
import { BindingParamInput } from '../../src/graphql/inputs/binding-param.input';
import { INPUT_CLASSES } from '../../src/graphql/inputs/input-classes';
import { buildTypeGraphqlSchema, RESOLVERS } from '../../src/graphql/schema';

/** Field resolvers called without type-graphql's per-call wrapper (src/engine/direct-resolvers.ts). */
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
      'ApiToken.grants',
      'ApiToken.principal',
      'BindingSummary.projectCount',
      'BindingSummary.registryVersion',
      'BindingSummary.toolCount',
      'BindingSummary.total',
      'MatrixCell.id',
      'Project.resources',
      'ProjectResource.id',
      'ProjectSummary.counts',
      'Resource.type',
      'Resource.usedBy',
      'ResourceSlot.id',
      'ResourceSlot.resourceType',
      'ResourceSlot.staticResource',
      'ResourceType.ancestors',
      'ResourceType.parentTypes',
      'ResourceType.subtypes',
      'StaticBinding.id',
      'Tool.resourceSlots',
      'ToolSummary.counts',
      'Viewer.grants',
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

/** What the binding service answers in these tests: one slot, bound, of tool T1 in project P1. */
const RESOLVED = (outcomes: unknown[]) => ({ toolId: 'T1', projectId: 'P1', outcomes });
const OUTCOME = {
  slotName: 'repo',
  bindingMode: 'CONTEXTUAL',
  access: 'READ',
  resource: { id: 'R1', name: 'acme/repo' },
  deferred: false,
};

/** Root queries called without type-graphql's wrapper when their arguments are plain values (src/engine/direct-resolvers.ts). */
describe('the input classes arguments are converted into', () => {
  it('lists every input type of the built schema, each by the name of its own class', async () => {
    const schema = await buildTypeGraphqlSchema();
    const inputTypes = Object.values(schema.getTypeMap())
      .filter((type) => isInputObjectType(type) && !type.name.startsWith('__'))
      .map((type) => type.name)
      .sort();
    expect(Object.keys(INPUT_CLASSES).sort()).to.deep.equal(inputTypes);
    for (const [name, target] of Object.entries(INPUT_CLASSES)) expect(target.name, name).to.equal(name);
  });

  it('declares no input field under another name than its property (the conversion sets the schema names)', () => {
    const dir = join(__dirname, '..', '..', 'src', 'graphql', 'inputs');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      expect(readFileSync(join(dir, file), 'utf8'), file).not.to.match(/@Field\([^@]*?[{,]\s*name\s*:/);
    }
  });
});

describe('root queries called directly', () => {
  let wrapped: GraphQLSchema;
  let direct: GraphQLSchema;
  let replaced: string[];
  before(async () => {
    wrapped = await buildTypeGraphqlSchema();
    direct = await buildTypeGraphqlSchema();
    replaced = callRootQueriesDirectly(direct, RESOLVERS, INPUT_CLASSES, authChecker);
  });

  /** A context whose binding service records what it was asked, and a resolve info for resolveBindings. */
  function setUp(canRead = true, plain = false) {
    const calls: unknown[][] = [];
    const context = {
      access: { canRead, presented: 'none', principal: null, failure: null },
      session: {},
      services: {
        bindings: {
          resolve: (...args: unknown[]) => {
            calls.push(args);
            return plain ? RESOLVED([OUTCOME]) : Promise.resolve(RESOLVED([OUTCOME]));
          },
        },
      },
    };
    const queryType = wrapped.getQueryType()!;
    const info = { parentType: queryType, fieldName: 'resolveBindings' } as unknown as GraphQLResolveInfo;
    return { calls, context, info };
  }

  async function outcome(schema: GraphQLSchema, args: Record<string, unknown>, canRead = true) {
    const { calls, context, info } = setUp(canRead);
    try {
      const value = await resolverOf(schema, 'Query', 'resolveBindings')!(undefined, args, context, info);
      return { value, calls };
    } catch (error) {
      return { error, calls };
    }
  }

  it('replaces the root queries whose parameters are named arguments, the context and the info', () => {
    expect(replaced).to.deep.equal([
      'Query.bindingMatrix',
      'Query.bindingSummary',
      'Query.explainBindings',
      'Query.node',
      'Query.nodes',
      'Query.project',
      'Query.resolveBindings',
      'Query.resource',
      'Query.resourceType',
      'Query.tool',
      'Query.validateTool',
      'Query.viewer',
    ]);
    // Those taking an @Args() class (converted into one and validated) keep type-graphql's wrapper for every call.
    for (const kept of ['Query.tools', 'Query.projects', 'Query.changes', 'Query.resources', 'Query.resourceTypes'])
      expect(replaced).to.not.include(kept);
  });

  it('calls the method with plain arguments as type-graphql does, and answers the same', async () => {
    const args = { tool: 'acme/lint', project: 'shop', params: null };
    const viaWrapper = await outcome(wrapped, args);
    const viaDirect = await outcome(direct, args);
    expect(viaDirect.value).to.deep.equal(viaWrapper.value);
    expect(viaDirect.value).to.deep.equal([{ ...OUTCOME, id: 'binding:T1/P1#repo', resourceId: 'R1' }]);
    expect(viaDirect.calls).to.deep.equal(viaWrapper.calls);
    expect(viaDirect.calls[0].slice(0, 3)).to.deep.equal(['acme/lint', 'shop', []]);
  });

  it('refuses a caller the roles do not admit with the checker’s own error, before the method runs', async () => {
    const args = { tool: 'acme/lint', project: 'shop' };
    const viaWrapper = await outcome(wrapped, args, false);
    const viaDirect = await outcome(direct, args, false);
    expect(viaDirect.error).to.be.instanceOf(UnauthenticatedError);
    expect((viaDirect.error as Error).message).to.equal((viaWrapper.error as Error).message);
    expect(viaDirect.calls).to.deep.equal([]);
    expect(viaWrapper.calls).to.deep.equal([]);
  });

  it('hands on a plain answer as a plain value, where type-graphql’s wrapper makes it a promise', async () => {
    const args = { tool: 'acme/lint', project: 'shop', params: [{ slot: 'repo', resource: 'acme/repo' }] };
    const { context, info } = setUp(true, true);
    const viaDirect = resolverOf(direct, 'Query', 'resolveBindings')!(undefined, args, context, info);
    expect(viaDirect).to.not.be.instanceOf(Promise);
    expect(viaDirect).to.deep.equal([{ ...OUTCOME, id: 'binding:T1/P1?repo=acme%2Frepo#repo', resourceId: 'R1' }]);
    const viaWrapper = resolverOf(wrapped, 'Query', 'resolveBindings')!(
      undefined,
      args,
      setUp(true, true).context,
      info,
    );
    expect(viaWrapper).to.be.instanceOf(Promise);
    expect(await viaWrapper).to.deep.equal(viaDirect);
  });

  /** Whether the method ran within the resolver's own call: directly, where type-graphql's wrapper awaits its middleware first. */
  function ranAtOnce(
    schema: GraphQLSchema,
    args: Record<string, unknown>,
  ): { ranAtOnce: boolean; settled: Promise<unknown> } {
    const { calls, context, info } = setUp();
    const settled = Promise.resolve(resolverOf(schema, 'Query', 'resolveBindings')!(undefined, args, context, info));
    return { ranAtOnce: calls.length === 1, settled: settled.catch(() => undefined) };
  }

  it('converts a list of valid input objects into their class itself, as type-graphql does', async () => {
    const args = {
      tool: 'acme/lint',
      project: 'shop',
      params: [
        { slot: 'repo', resource: 'acme/repo' },
        { slot: 'target_db', resource: '01ARZ3NDEKTSV4RRFFQ69G5FAV' },
      ],
    };
    const viaWrapper = await outcome(wrapped, args);
    const viaDirect = await outcome(direct, args);
    expect(viaDirect.value).to.deep.equal(viaWrapper.value);
    expect(viaDirect.calls).to.deep.equal(viaWrapper.calls);
    const params = viaDirect.calls[0][2] as unknown[];
    expect(params).to.have.length(2);
    for (const param of params) expect(param).to.be.instanceOf(BindingParamInput);
    expect(params[1]).to.deep.equal(Object.assign(new BindingParamInput(), args.params[1]));
    // Directly: the method runs within the call, where type-graphql's wrapper first awaits its middleware.
    const direct_ = ranAtOnce(direct, args);
    const wrapper_ = ranAtOnce(wrapped, args);
    await Promise.all([direct_.settled, wrapper_.settled]);
    expect(direct_.ranAtOnce).to.equal(true);
    expect(wrapper_.ranAtOnce).to.equal(false);
  });

  it('hands an input object that breaks a rule to type-graphql, which refuses it with its exact problems', async () => {
    for (const params of [
      [{ slot: 'Not A Slot', resource: 'acme/repo' }],
      [
        { slot: 'repo', resource: 'acme/repo' },
        { slot: 'db', resource: '' },
      ],
    ]) {
      const args = { tool: 'acme/lint', project: 'shop', params };
      const bad = await outcome(direct, args);
      const viaWrapper = await outcome(wrapped, args);
      expect(bad.error).to.be.instanceOf(BadInputError);
      expect((bad.error as BadInputError).problems).to.deep.equal((viaWrapper.error as BadInputError).problems);
      expect(bad.calls).to.deep.equal([]);
      const late = ranAtOnce(direct, args);
      await late.settled;
      expect(late.ranAtOnce).to.equal(false);
    }
    const bad = await outcome(direct, {
      tool: 'acme/lint',
      project: 'shop',
      params: [{ slot: 'Not A Slot', resource: 'acme/repo' }],
    });
    expect((bad.error as BadInputError).problems.map((p) => p.field)).to.deep.equal(['params[0].slot']);
  });
});

function resolverOf(schema: GraphQLSchema, type: string, field: string) {
  const found = schema.getType(type);
  if (!isObjectType(found)) throw new Error(`${type} is not an object type`);
  return found.getFields()[field]?.resolve;
}
