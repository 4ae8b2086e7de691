import { expect } from 'chai';
import { assertInterfaceType, buildSchema, parse, type GraphQLError } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import {
  BYTES_PER_QUERY_CHAR,
  COMPILE_AFTER_RUNS,
  CompiledExecution,
  type ExecutionCheck,
  type ExecutionRequest,
} from '../../src/engine/compiled-execution';
import { buildRegistrySchema } from '../../src/engine/executable-schema';
import { nodeTypeName } from '../../src/graphql/types/node.type';
import { sqlite } from '../support/backends';
import { seedExample } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

/** Past the response cache, so every request executes. */
const FRESH = { 'cache-control': 'no-cache' };

const TOOLS = `query Tools { tools(first: 10) { edges { node { id name resourceSlots { name binding resourceType { name ancestors { name } } staticResource { name } } } } pageInfo { hasNextPage endCursor } } }`;

describe('compiled execution', () => {
  let compiled: TestServer;
  let plain: TestServer;

  before(async function () {
    this.timeout(60_000);
    [compiled, plain] = await Promise.all([startServer(sqlite), startServer(sqlite, { execution: 'reference' })]);
    await Promise.all([seedExample(compiled), seedExample(plain)]);
  });

  after(async () => {
    await Promise.all([compiled?.close(), plain?.close()]);
  });

  const stats = (server: TestServer) => ({ ...server.app.execution.stats });

  it('answers a plain query with compiled code, compiled once for the same text and operation', async () => {
    const before = stats(compiled);
    const first = await compiled.gql(TOOLS, undefined, FRESH);
    const second = await compiled.gql(TOOLS, undefined, FRESH);
    const after = stats(compiled);
    expect(after.compiled - before.compiled).to.equal(2);
    expect(after.compilations - before.compilations).to.equal(1);
    expect(after.fallback - before.fallback).to.equal(0);
    expect(first.body.errors).to.equal(undefined);
    expect(first.body.data.tools.edges[0].node.resourceSlots).to.have.length(3);
    expect(second.body).to.deep.equal(first.body);
    // The same answer as graphql-js (the tools' ids differ between the two servers' registries).
    const other = await plain.gql(TOOLS, undefined, FRESH);
    expect(withoutIds(first.body)).to.deep.equal(withoutIds(other.body));
  });

  it('runs introspection, mutations and anything with __schema or __type on graphql-js', async () => {
    const before = stats(compiled);
    const schema = await compiled.gql('{ __schema { queryType { name } } }', undefined, FRESH);
    const type = await compiled.gql(
      '{ tools(first: 1) { totalCount } __type(name: "Tool") { name } }',
      undefined,
      FRESH,
    );
    await compiled.data(
      `mutation { createProject(input: { name: "compiled/p" }) { project { name } } }`,
      undefined,
      FRESH,
    );
    const after = stats(compiled);
    expect(schema.body.data.__schema.queryType.name).to.equal('Query');
    expect(type.body.data.__type.name).to.equal('Tool');
    expect(after.fallback - before.fallback).to.equal(3);
    expect(after.compiled - before.compiled).to.equal(0);
  });

  it('gives a resolver error exactly as graphql-js does (message, path, extensions.code), by running it again', async () => {
    for (const [query, code] of [
      ['{ resolveBindings(tool: "no/such-tool", project: "demo") { slotName } }', 'NOT_FOUND'],
      ['{ tools(first: 2, after: "bogus") { edges { node { name } } } }', 'BAD_USER_INPUT'],
      ['{ tools(first: 2) { edges { node { name bindingsIn(project: "no/such-project") { ok } } } } }', 'NOT_FOUND'],
    ] as const) {
      const before = stats(compiled);
      const got = await compiled.gql(query, undefined, FRESH);
      const expected = await plain.gql(query, undefined, FRESH);
      const after = stats(compiled);
      expect(after.rerun - before.rerun, query).to.equal(1);
      expect(after.diverged - before.diverged, query).to.equal(0);
      expect(got.body.errors?.[0].extensions?.code, query).to.equal(code);
      expect(got.status, query).to.equal(expected.status);
      expect(got.body, query).to.deep.equal(expected.body);
    }
  });

  it('answers node and nodes with the synchronous resolveType, compiled', async () => {
    expect(assertInterfaceType(compiled.app.execution['schema'].getType('Node')).resolveType).to.equal(nodeTypeName);
    const { tools } = await compiled.data('{ tools(first: 1) { edges { node { id } } } }', undefined, FRESH);
    const { project } = await compiled.data('{ project(ref: "demo") { id } }', undefined, FRESH);
    const ids = [tools.edges[0].node.id, project.id, 'no-such-id'];
    const before = stats(compiled);
    const data = await compiled.data(
      `query($ids: [ID!]!, $id: ID!) {
        node(id: $id) { __typename id ... on Tool { name } }
        nodes(ids: $ids) { __typename id ... on Project { name } ... on Tool { name } }
      }`,
      { ids, id: ids[0] },
      FRESH,
    );
    const after = stats(compiled);
    expect(after.compiled - before.compiled).to.equal(1);
    expect(after.rerun - before.rerun).to.equal(0);
    expect(data.node).to.deep.equal({ __typename: 'Tool', id: ids[0], name: 'demo/mixed' });
    expect(data.nodes).to.deep.equal([
      { __typename: 'Tool', id: ids[0], name: 'demo/mixed' },
      { __typename: 'Project', id: ids[1], name: 'demo' },
      null,
    ]);
  });

  it('runs on graphql-js a query whose variables hold required input fields with defaults (jit refuses them left out)', async () => {
    const query = `query($i: RegisterToolInput!) { validateTool(input: $i) { slot field message } }`;
    const variables = { i: { name: 'x/t', resourceSlots: [{ name: 'repo', resourceType: 'git-checkout' }] } };
    const before = stats(compiled);
    const got = await compiled.gql(query, variables, FRESH);
    const after = stats(compiled);
    expect(after.fallback - before.fallback).to.equal(1);
    expect(after.rerun - before.rerun).to.equal(0);
    expect(got.body).to.deep.equal({ data: { validateTool: [] } });
    expect(got.body).to.deep.equal((await plain.gql(query, variables, FRESH)).body);
  });

  it('uses graphql-js only with EXECUTION=reference', async () => {
    const before = stats(plain);
    await plain.data(TOOLS, undefined, FRESH);
    await plain.data('{ node(id: "x") { id } }', undefined, FRESH);
    const after = stats(plain);
    expect(after.compiled).to.equal(0);
    expect(after.compilations).to.equal(0);
    expect(after.fallback - before.fallback).to.equal(2);
  });
});

describe('compiled execution, without a server', () => {
  it("is why Node's resolveType is replaced: jit does not await type-graphql's async one", async () => {
    const schema = await buildRegistrySchema();
    const node = assertInterfaceType(schema.getType('Node'));
    expect(node.resolveType).to.equal(nodeTypeName);
    const document = parse('{ node(id: "x") { __typename id } }');
    const context = {
      access: { canRead: true },
      session: {},
      services: { nodes: { find: async () => [{ kind: 'TOOL', record: { id: 'x', name: 'n' } }] } },
    };
    const runCompiled = async () => {
      const query = compileQuery(schema, document);
      if (!isCompiledQuery(query)) throw new Error('did not compile');
      return query.query(undefined, context, {});
    };
    expect(await runCompiled()).to.deep.equal({ data: { node: { __typename: 'Tool', id: 'x' } } });
    // What type-graphql made of it: an async wrapper, which jit does not await.
    node.resolveType = async (value) => nodeTypeName(value);
    const result = await runCompiled();
    expect(result.errors?.[0].message, JSON.stringify(result)).to.match(
      /^Abstract type Node must resolve to an Object type/,
    );
  });

  it('compiles a query at its second run by default: a text run once costs no compilation', async () => {
    const schema = await buildRegistrySchema();
    const execution = new CompiledExecution<object>(schema, { enabled: true });
    expect(COMPILE_AFTER_RUNS).to.equal(2);
    const run = (source: string) => execution.execute({ document: parse(source), source, contextValue: {} });
    expect((await run('{ once: __typename }')).data).to.deep.equal({ once: 'Query' });
    expect(execution.stats).to.include({ compilations: 0, compiled: 0, fallback: 1 });
    expect(execution.cacheUsage.entries).to.equal(0);
    for (let i = 0; i < 3; i += 1) expect((await run('{ twice: __typename }')).data).to.deep.equal({ twice: 'Query' });
    expect(execution.stats).to.include({ compilations: 1, compiled: 2, fallback: 2 });
    expect(execution.cacheUsage.entries).to.equal(1);
  });

  it('keeps the compiled queries within the byte bound, dropping the least recently used', async () => {
    const schema = await buildRegistrySchema();
    const maxBytes = 64 * 1024;
    const execution = new CompiledExecution<object>(schema, { enabled: true, maxBytes, compileAfter: 1 });
    for (let i = 0; i < 200; i += 1) {
      const source = `{ a${i}: __typename b${i}: __typename }`;
      const result = await execution.execute({ document: parse(source), source, contextValue: {} });
      expect(result.data).to.deep.equal({ [`a${i}`]: 'Query', [`b${i}`]: 'Query' });
    }
    const { entries, bytes } = execution.cacheUsage;
    expect(bytes).to.be.at.most(maxBytes);
    expect(entries).to.be.within(2, 199);
    expect(bytes).to.be.at.least(entries * 40 * BYTES_PER_QUERY_CHAR);
    expect(execution.stats.compilations).to.equal(200);
    // The oldest was dropped: asking again compiles again; the newest is still there.
    const oldest = '{ a0: __typename b0: __typename }';
    await execution.execute({ document: parse(oldest), source: oldest, contextValue: {} });
    const newest = '{ a199: __typename b199: __typename }';
    await execution.execute({ document: parse(newest), source: newest, contextValue: {} });
    expect(execution.stats.compilations).to.equal(201);
  });

  it('handles a Promise-valued property without a resolver: awaited for an object, rerun by graphql-js for a leaf, and reported', async () => {
    const schema = buildSchema(`type Query { info: Info } type Info { name: String, size: Int! }`);
    const root = { info: Promise.resolve({ name: Promise.resolve('lazy'), size: 3 }) };
    const diverged: string[][] = [];
    const compared: unknown[] = [];
    const check: ExecutionCheck<object> = {
      compare: async (run) => void compared.push(run.result),
      diverged: (_request: ExecutionRequest<object>, errors: readonly GraphQLError[]) =>
        void diverged.push(errors.map((e) => e.message)),
    };
    const execution = new CompiledExecution<object>(schema, { enabled: true, check, compileAfter: 1 });
    // graphql-jit itself: an object behind a promise is awaited, a leaf behind one is not (it reads as an object).
    const raw = compileQuery(schema, parse('{ info { size name } }'));
    if (!isCompiledQuery(raw)) throw new Error('did not compile');
    const rawResult = await raw.query(root, {}, {});
    expect(rawResult.data).to.deep.equal({ info: { size: 3, name: null } });
    expect(rawResult.errors).to.have.length(1);

    const run = (source: string) =>
      execution.execute({
        schema,
        document: parse(source),
        source,
        contextValue: {},
      });
    // CompiledExecution passes no root value: the root field gets a resolver returning the promise.
    schema.getQueryType()!.getFields().info.resolve = () => root.info;
    const objectOnly = await run('{ info { size } }');
    expect(objectOnly).to.deep.equal({ data: { info: { size: 3 } } });
    expect(execution.stats.compiled).to.equal(1);
    const leaf = await run('{ info { size name } }');
    expect(JSON.parse(JSON.stringify(leaf))).to.deep.equal({ data: { info: { size: 3, name: 'lazy' } } });
    expect(execution.stats).to.include({ compiled: 1, rerun: 1, diverged: 1 });
    expect(diverged).to.deep.equal([['String cannot represent value: {}']]);
    expect(compared).to.have.length(1);
  });
});

/** A response body with every `id` removed, to compare two registries' answers. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== 'id')
        .map(([key, v]) => [key, withoutIds(v)]),
    );
  }
  return value;
}
