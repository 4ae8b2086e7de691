// The request limits on their own, against schema.graphql: introspection's estimated cost, and the verdict memo's key.
import { expect } from 'chai';
import {
  buildSchema,
  getIntrospectionQuery,
  isInterfaceType,
  isObjectType,
  parse,
  type OperationDefinitionNode,
} from 'graphql';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApolloServer } from '@apollo/server';
import { LIMITS } from '../../src/core/grammar';
import {
  estimateCost,
  HEAVY_COST,
  Lane,
  QUERY_LIMITS,
  RequestLimits,
  requestLimitsPlugin,
  VerdictMemo,
  verdictVariablesKey,
} from '../../src/engine/admission';

const schema = buildSchema(readFileSync(join(__dirname, '..', '..', 'schema.graphql'), 'utf8'));

describe('query limits: introspection in the cost', () => {
  const fieldCount = Object.values(schema.getTypeMap())
    .filter((type) => isObjectType(type) || isInterfaceType(type))
    .reduce((n, type) => n + Object.keys(type.getFields()).length, 0);

  it("counts GraphiQL's full introspection by the schema's size, and allows one", () => {
    for (const options of [{}, { descriptions: true, inputValueDeprecation: true, specifiedByUrl: true }]) {
      const cost = estimateCost(schema, parse(getIntrospectionQuery(options)), undefined, {});
      // Every field of every type is listed, with its name, description, args and type reference.
      expect(cost)
        .to.be.a('number')
        .and.at.least(5 * fieldCount);
      expect(cost).to.be.at.most(QUERY_LIMITS.cost);
    }
  });

  it('would refuse 15 of them in one request by the cost alone', () => {
    const one = estimateCost(schema, parse(getIntrospectionQuery()), undefined, {})!;
    expect(15 * one).to.be.greaterThan(QUERY_LIMITS.cost);
  });

  it("counts a type's fields as a list", () => {
    const fields = estimateCost(schema, parse('{ __type(name: "Query") { fields { name } } }'), undefined, {})!;
    expect(fields).to.be.greaterThan(3);
  });
});

describe('query limits: lists that are not connections', () => {
  const cost = (query: string) => estimateCost(schema, parse(query), undefined, {})!;

  it("counts a change-log entry's bindingChanges at their most, 1,000 (what a mutation keeps)", () => {
    const one = cost('{ changes(first: 1) { edges { node { bindingChanges { toolName } } } } }');
    const none = cost('{ changes(first: 1) { edges { node { summary } } } }');
    // The fields selected of a binding change, a thousand times.
    expect(one - none).to.be.at.least(1000);
    expect(100 * (one - none)).to.be.greaterThan(QUERY_LIMITS.cost);
  });
});

describe('query limits: the verdict memo key', () => {
  const operationOf = (text: string) => parse(text).definitions[0] as OperationDefinitionNode;
  const resolve = operationOf(
    'query R($tool: String!, $project: ID, $first: Int, $on: Boolean!, $ids: [ID!]) { __typename }',
  );

  it('is the same for any strings in String and ID variables, whose content no verdict reads', () => {
    const a = verdictVariablesKey(resolve, { tool: 'demo/a', project: 'p1', first: 5, on: true });
    const b = verdictVariablesKey(resolve, { tool: 'other/tool', project: 'p2', first: 5, on: true });
    expect(a).to.equal(b);
  });

  it('differs for anything that can change a verdict: numbers, booleans, lists, a non-string, an absent variable', () => {
    const base = { tool: 'demo/a', project: 'p1', first: 5, on: true };
    const key = verdictVariablesKey(resolve, base);
    for (const changed of [
      { ...base, first: 500 },
      { ...base, on: false },
      { ...base, ids: ['a', 'b'] },
      { ...base, tool: 7 }, // does not coerce: the verdict of an uncoercible request is its own
      { ...base, project: null },
      { tool: 'demo/a', first: 5, on: true },
    ]) {
      expect(verdictVariablesKey(resolve, changed), JSON.stringify(changed)).to.not.equal(key);
    }
  });

  it('counts lists of strings, and input objects holding only strings, by their shape alone (given the schema)', () => {
    const operation = operationOf(
      'query R($tool: String!, $project: String!, $params: [BindingParamInput!], $ids: [ID!]) { __typename }',
    );
    const key = (variables: Record<string, unknown>) => verdictVariablesKey(operation, variables, schema);
    const one = { tool: 't', project: 'p', params: [{ slot: 'repo', resource: 'acme/repo' }], ids: ['a', 'b'] };
    const other = {
      tool: 'u',
      project: 'q',
      params: [{ slot: 'db', resource: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }],
      ids: ['c', 'd'],
    };
    expect(key(other)).to.equal(key(one));
    for (const changed of [
      { ...one, params: [...one.params, { slot: 'db', resource: 'x' }] }, // another item
      { ...one, params: [{ slot: 'repo' }] }, // a field missing (it does not coerce)
      { ...one, params: [{ slot: 'repo', resource: 7 }] }, // not a string
      { ...one, params: [{ slot: 'repo', resource: 'r', extra: 'x' }] }, // a field the type does not have
      { ...one, params: [null] },
      { ...one, params: null },
      { ...one, params: { slot: 'repo', resource: 'acme/repo' } }, // one object where a list is declared
      { ...one, ids: ['a'] },
      { ...one, ids: ['a', 2] },
    ]) {
      expect(key(changed), JSON.stringify(changed)).to.not.equal(key(one));
    }
    // Without the schema, input objects and lists are keyed by their content, as before.
    expect(verdictVariablesKey(operation, other)).to.not.equal(verdictVariablesKey(operation, one));
  });

  it('counts nested input objects by their shape: every string as a string, every other leaf by its value', () => {
    const operation = operationOf('mutation M($input: RegisterToolInput!) { __typename }');
    const key = (variables: Record<string, unknown>) => verdictVariablesKey(operation, variables, schema);
    const slot = { name: 'repo', resourceType: 'vcs', access: 'READ', binding: 'CONTEXTUAL', required: true };
    const one = { input: { name: 'acme/tool-1', description: 'd', resourceSlots: [slot, { ...slot, name: 'db' }] } };
    const other = {
      input: {
        name: 'other/tool-2',
        description: 'another text',
        resourceSlots: [
          { ...slot, name: 'x', resourceType: 'database' },
          { ...slot, name: 'y', resourceType: 'y' },
        ],
      },
    };
    expect(key(other)).to.equal(key(one));
    const first = (change: Record<string, unknown>) => ({
      input: { ...one.input, resourceSlots: [{ ...slot, ...change }, one.input.resourceSlots[1]] },
    });
    for (const changed of [
      first({ access: 'WRITE' }), // an enum
      first({ required: false }), // a boolean
      first({ staticResource: 'acme/repo' }), // a field more
      first({ staticResource: null }), // a null
      first({ name: 7 }), // not a string
      first({ unknown: 'x' }), // a field the type does not have
      { input: { ...one.input, resourceSlots: [slot] } }, // one item fewer
      { input: { ...one.input, description: null } },
      { input: { name: 'acme/tool-1', resourceSlots: one.input.resourceSlots } }, // a field fewer
      { input: { ...one.input, resourceSlots: slot } }, // one object where a list is declared
      { input: null },
    ]) {
      expect(key(changed), JSON.stringify(changed)).to.not.equal(key(one));
    }
  });

  it('gives one key only to variables with one verdict: a params list over its limit is refused whatever its names', async () => {
    const operation = parse(
      'query R($params: [BindingParamInput!]) { resolveBindings(tool: "t", project: "p", params: $params) { slotName } }',
    );
    const definition = operation.definitions[0] as OperationDefinitionNode;
    const params = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => ({ slot: `${prefix}_${i}`, resource: `${prefix}/${i}` }));
    const limits = new RequestLimits(schema);
    const context = {} as never;
    const verdict = async (variables: Record<string, unknown>) => {
      try {
        (
          await limits.admit({
            document: operation,
            operation: definition,
            operationName: undefined,
            variables,
            queryKey: 'q',
            contextValue: context,
          })
        )();
        return 'admitted';
      } catch (error) {
        return (error as { extensions?: { code?: string } }).extensions?.code;
      }
    };
    const over = LIMITS.params + 1;
    expect(verdictVariablesKey(definition, { params: params(over, 'a') }, schema)).to.equal(
      verdictVariablesKey(definition, { params: params(over, 'b') }, schema),
    );
    expect(await verdict({ params: params(over, 'a') })).to.equal('BAD_USER_INPUT');
    expect(await verdict({ params: params(over, 'b') })).to.equal('BAD_USER_INPUT');
    expect(await verdict({ params: params(2, 'c') })).to.equal('admitted');
  });

  it('leaves out variables the operation does not declare', () => {
    const base = { tool: 'demo/a', first: 5, on: true };
    expect(verdictVariablesKey(resolve, { ...base, unused: 'x-1' })).to.equal(verdictVariablesKey(resolve, base));
  });
});

/** A context whose session has its registry version pinned already (admission reads it for a heavy query). */
const PINNED = { session: { pinnedNow: () => true, currentVersion: () => Promise.resolve(1) } };

describe('query limits: the heavy lane, full', () => {
  it("answers a heavy request 503 SERVICE_UNAVAILABLE with Retry-After at once when the lane's queue is full; a light one still runs", async () => {
    const heavy = `{ tools(first: 100) { edges { node { name resourceSlots { name resourceType { name ancestors { name } } } } } } }`;
    expect(estimateCost(schema, parse(heavy), undefined, {})).to.be.at.least(HEAVY_COST);
    const lane = new Lane(1, 1);
    const leave = await lane.enter(); // one heavy request runs…
    const waiting = lane.enter(); // …and one waits: the queue is full
    const apollo = new ApolloServer({
      schema,
      plugins: [requestLimitsPlugin(new RequestLimits(schema, new VerdictMemo(), lane))],
    });
    await apollo.start();
    try {
      const refused = await apollo.executeOperation({ query: heavy }, { contextValue: PINNED as never });
      expect(refused.http.status).to.equal(503);
      expect(refused.http.headers.get('retry-after')).to.equal('1');
      const body = refused.body as { kind: 'single'; singleResult: { data?: unknown; errors?: any[] } };
      expect(body.singleResult.data).to.equal(undefined);
      expect(body.singleResult.errors?.map((e) => [e.extensions.code, e.extensions.limit])).to.deep.equal([
        ['SERVICE_UNAVAILABLE', 'HEAVY_QUEUE'],
      ]);
      expect(lane.queued, 'the refused request did not join the queue').to.equal(1);
      const light = await apollo.executeOperation({ query: '{ __typename }' });
      expect(light.http.status ?? 200).to.equal(200);
      expect((light.body as any).singleResult.data).to.deep.equal({ __typename: 'Query' });
      expect((light.body as any).singleResult.errors).to.equal(undefined);
    } finally {
      leave();
      (await waiting)();
      await apollo.stop();
    }
  });
});

describe('query limits: a heavy query reads the registry version before it waits for the lane', () => {
  const heavy = parse(
    `{ tools(first: 100) { edges { node { name resourceSlots { name resourceType { name ancestors { name } } } } } } }`,
  );
  const operation = heavy.definitions[0] as OperationDefinitionNode;

  it('sends the version read while another heavy request holds the lane, and runs once the lane is free', async () => {
    const lane = new Lane(1, 4);
    const limits = new RequestLimits(schema, new VerdictMemo(), lane);
    const leave = await lane.enter(); // another heavy request runs
    const events: string[] = [];
    let pinned = false;
    const session = {
      pinnedNow: () => pinned,
      currentVersion: async () => {
        events.push('version read');
        pinned = true;
        return 1;
      },
    };
    const admitted = limits
      .admit({
        document: heavy,
        operation,
        operationName: undefined,
        variables: {},
        queryKey: 'q',
        contextValue: { session } as never,
      })
      .then((end) => {
        events.push('admitted');
        return end;
      });
    await new Promise((resolve) => setImmediate(resolve));
    expect(events, 'the read went out while the lane was held').to.deep.equal(['version read']);
    expect(lane.queued).to.equal(1);
    leave();
    (await admitted)();
    expect(events).to.deep.equal(['version read', 'admitted']);
  });

  it('reads nothing when the version is pinned already, and nothing for a light query', async () => {
    const limits = new RequestLimits(schema, new VerdictMemo(), new Lane(1, 4));
    let reads = 0;
    const session = (pinned: boolean) => ({
      pinnedNow: () => pinned,
      currentVersion: async () => {
        reads++;
        return 1;
      },
    });
    const admit = async (document: typeof heavy, pinned: boolean) =>
      (
        await limits.admit({
          document,
          operation: document.definitions[0] as OperationDefinitionNode,
          operationName: undefined,
          variables: {},
          queryKey: String(pinned),
          contextValue: { session: session(pinned) } as never,
        })
      )();
    await admit(heavy, true);
    await admit(parse('{ __typename }'), false);
    expect(reads).to.equal(0);
  });
});
