import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import fc from 'fast-check';
import { buildSchema, Kind, OperationTypeNode, type OperationDefinitionNode } from 'graphql';
import type { DatabaseConfig } from '../../src/config';
import { describeEachBackend, sqlite } from '../support/backends';
import {
  compareAll,
  describeDifferences,
  noteStartTime,
  repeated,
  type ComparedRequest,
  type Difference,
} from '../support/engine-comparison';
import { build, everyKindOfOperation, mutationFor, refresh, registry } from '../support/generated-registry';
import { collectOperations, type CollectedOperation } from '../support/operation-corpus';
import { propertyCases } from '../support/property';
import { asDryRun, generateQueries } from '../support/query-generator';
import { Random, readPool, variablesFor, type DataPool } from '../support/schema-values';
import { startServer, type TestServer } from '../support/server';
import { subscribeBriefly } from '../support/stream-comparison';

const schema = buildSchema(readFileSync(join(__dirname, '../../schema.graphql'), 'utf8'));
const corpus = collectOperations();
/** The generated queries: 150 by default (PROPERTY_RUNS scales them, PROPERTY_SEED reseeds them). */
const generated = propertyCases(150, 31);
/** Both servers' admin token (the data is written before, by a server without one: open, as in development). */
const ADMIN_TOKEN = 'equivalence-admin';

type Principal = NonNullable<ComparedRequest['as']>;

/**
 * The Accept headers sent, in turn (by threes of operations): Apollo chooses the content type, and the status of
 * an answer with errors, by it; the fast server's direct path sends the type Apollo chose for that header before.
 */
const ACCEPTS = [
  undefined,
  'application/graphql-response+json',
  'application/graphql-response+json, application/json;q=0.9',
  '*/*',
  null,
] as const;
const acceptFor = (i: number) => ACCEPTS[Math.floor(i / 3) % ACCEPTS.length];

/**
 * The fast engine is held equal to the reference one, end to end (issue 31, item 4): two servers on the same data,
 * one with EXECUTION=fast (graphql-jit, page assembly, direct resolvers, the direct path), one with
 * EXECUTION=reference (graphql-js through Apollo), each request sent to both, and the status, the headers (but
 * those of engine-comparison's UNCOMPARED_HEADERS) and the body text compared, on each backend.
 *
 * The data: the demo registry, a generated registry beside it, then one real write of each kind (so the change
 * log holds updates and deletes), written by a first server (see databasesFor). Nothing is written afterwards:
 * mutations are sent as dry runs (rolled back, nothing stored), and those that cannot be (no dryRun argument) are
 * not sent. Each operation is sent by one principal, in turn: the admin, anonymous, an API token that is EDITOR of
 * one namespace, and now and then a token the server does not know.
 */
describeEachBackend('EXECUTION=fast answers as EXECUTION=reference does, on the same data', (backend) => {
  let fast: TestServer;
  let reference: TestServer;
  let pool: DataPool;
  let principals: Principal[];
  /** Who sends the i-th operation: each principal in turn, and now and then a token the server does not know. */
  const sender = (i: number): Principal =>
    i % 7 === 6 ? { name: 'an unknown token', headers: { authorization: 'Bearer trg_unknown' } } : principals[i % 3];

  before(async function () {
    this.timeout(120_000);
    const seeding = await startServer(backend, { demoData: true });
    const secret = await seed(seeding);
    principals = [
      { name: 'admin', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
      { name: 'anonymous', headers: {} },
      { name: 'an API token (EDITOR of demo)', headers: { authorization: `Bearer ${secret}` } },
    ];
    await seeding.close();
    const [a, b] = await databasesFor(seeding.config.database);
    [fast, reference] = await Promise.all([
      startServer(backend, { database: a, execution: 'fast', adminToken: ADMIN_TOKEN }),
      startServer(backend, { database: b, execution: 'reference', adminToken: ADMIN_TOKEN }),
    ]);
    await Promise.all([fast, reference].map((server) => noteStartTime(server, principals[0].headers)));
    pool = await readPool(fast);
  });

  /** What the fast server's own engine did so far, for the output. */
  const fastRuns = () => {
    const { stats } = fast.app.execution;
    return `fast engine so far: ${stats.compiled} compiled runs, ${stats.direct} direct answers, ${stats.assembly.assembled} pages assembled`;
  };

  /** The fast server ran its own engine (so the comparison is not of graphql-js with itself), the other not. */
  const expectBothEnginesRan = () => {
    const { stats } = fast.app.execution;
    expect(stats.compiled, 'compiled runs on the fast server').to.be.greaterThan(0);
    expect(stats.direct, 'answers past Apollo on the fast server').to.be.greaterThan(0);
    expect(stats.assembly.assembled, 'pages assembled on the fast server').to.be.greaterThan(0);
    expect(reference.app.execution.stats.compiled, 'compiled runs on the reference server').to.equal(0);
    expect(reference.app.execution.stats.direct, 'answers past Apollo on the reference server').to.equal(0);
  };

  after(async () => {
    await Promise.all([fast?.close(), reference?.close()]);
  });

  it(`every operation the integration suite and the shipped clients write (${corpus.operations.length} found)`, async function () {
    this.timeout(120_000);
    const { requests, unsent } = corpusRequests(corpus.operations, pool, sender);
    const result = await compareAll(fast, reference, requests);
    console.log(
      `      ${fastRuns()}; ${requests.length} requests from ${corpus.operations.length} operations (${unsent.length} writes with no dry run not sent, ` +
        `${corpus.unresolved.length} documents built at run time not found); ${result.withErrors} answers with errors`,
    );
    noteOtherRootErrors(result.otherRootError);
    expect(result.differences.length, describeDifferences(result.differences)).to.equal(0);
    expectBothEnginesRan();
  });

  it(`generated queries over the whole schema (${generated.label})`, async function () {
    this.timeout(120_000);
    const queries = generateQueries(schema, pool, generated.numRuns, generated.seed);
    const requests = queries.flatMap(({ query, variables }, i) =>
      variables.flatMap((values, n) =>
        repeated({
          label: `generated #${i}${n > 0 ? ` (values ${n + 1})` : ''}`,
          method: 'POST',
          query,
          variables: values,
          as: sender(i),
          accept: acceptFor(i),
        }),
      ),
    );
    const result = await compareAll(fast, reference, requests);
    console.log(`      ${fastRuns()}; ${requests.length} requests; ${result.withErrors} answers with errors`);
    noteOtherRootErrors(result.otherRootError);
    expect(result.differences.length, describeDifferences(result.differences)).to.equal(0);
    expectBothEnginesRan();
  });

  it('every subscription of the suite, over Server-Sent Events, resumed after the first version', async function () {
    this.timeout(120_000);
    const subscriptions = corpus.operations
      .map((operation, i) => ({ operation, i, definition: definitionOf(operation) }))
      .filter(({ definition }) => definition.operation === OperationTypeNode.SUBSCRIPTION);
    const differences: Difference[] = [];
    for (const { operation, i, definition } of subscriptions) {
      const variables = variablesFor(schema, definition, pool, new Random(i + 1));
      for (const v of definition.variableDefinitions ?? [])
        if (/after/i.test(v.variable.name.value)) variables[v.variable.name.value] = 1;
      const as = sender(i);
      const [a, b] = await Promise.all(
        [fast, reference].map((server) => subscribeBriefly(server, operation.document, variables, as.headers)),
      );
      if (a.status === b.status && a.body === b.body && JSON.stringify(a.headers) === JSON.stringify(b.headers))
        continue;
      const request: ComparedRequest = {
        label: operation.source,
        method: 'POST',
        query: operation.document,
        variables,
        as,
      };
      differences.push({ request, fast: a, reference: b });
    }
    console.log(`      ${subscriptions.length} subscriptions`);
    expect(differences.length, describeDifferences(differences)).to.equal(0);
  });

  it('two failing root fields: each engine may report either error, when the other engine gives it too', async function () {
    this.timeout(120_000);
    // Both root fields fail (an unknown slot), and both are non-null: data is null, and one error is reported.
    const explain = `a: explainBindings(tool: "demo/mixed", project: "demo", params: [{ slot: "nope", resource: "x" }]) { ok }`;
    const resolve = `b: resolveBindings(tool: "demo/mixed", project: "demo", params: [{ slot: "zzz", resource: "x" }]) { id }`;
    const requests = [`{ ${explain} ${resolve} }`, `{ ${resolve} ${explain} }`].flatMap((query, i) =>
      repeated({ label: `two failing root fields #${i}`, method: 'POST', query, as: principals[1] }),
    );
    const result = await compareAll(fast, reference, requests);
    noteOtherRootErrors(result.otherRootError);
    expect(result.differences.length, describeDifferences(result.differences)).to.equal(0);
  });
});

/** Says how many answers reported another failing root field's error (let pass: see reportsAnotherRootError). */
function noteOtherRootErrors(found: readonly Difference[]): void {
  if (found.length === 0) return;
  console.log(
    `      ${found.length} answers reported the error of another failing root field (let pass), e.g.:\n` +
      describeDifferences(found.slice(0, 1)).replace(/^/gm, '      '),
  );
}

/**
 * The databases of the two servers: on PostgreSQL the seeded one for both (several instances are what it is for);
 * on SQLite, one server per file (sqlite-owner-lock.ts), so two copies of the seeded file (closed: its log is in it).
 */
async function databasesFor(database: DatabaseConfig): Promise<[DatabaseConfig, DatabaseConfig]> {
  if (database.kind === 'postgres') return [database, database];
  const copyOf = async () => {
    const copy = await sqlite.freshDatabase();
    if (copy.kind !== 'sqlite') throw new Error('expected SQLite');
    for (const suffix of ['', '-wal']) {
      if (existsSync(database.path + suffix)) copyFileSync(database.path + suffix, copy.path + suffix);
    }
    return copy;
  };
  return [await copyOf(), await copyOf()];
}

/** Another registry beside the demo's, one real write of each kind, and an API token (its secret returned). */
async function seed(server: TestServer): Promise<string> {
  const [spec] = fc.sample(registry, { seed: 31, numRuns: 1 });
  const state = await build(server, spec);
  const [ops] = fc.sample(everyKindOfOperation, { seed: 31, numRuns: 1 });
  for (const op of ops) {
    const request = await mutationFor(server, state, op);
    if (!request) continue;
    await server.data(request.query.replace('$dryRun', 'false'), request.variables);
    await refresh(server, state);
  }
  const token = await server.data(`mutation($i: CreateApiTokenInput!) { createApiToken(input: $i) { secret } }`, {
    i: { name: 'equivalence', grants: [{ namespace: 'demo', role: 'EDITOR' }] },
  });
  return token.createApiToken.secret as string;
}

/**
 * The requests for the collected operations: each query POSTed three times (see repeated) and sent by GET once, each mutation by POST as a dry run,
 * each subscription by POST (which refuses it, alike on both, it is hoped). Variables are filled from the data
 * (./schema-values.ts), seeded by the operation's place in the list, so every run sends the same.
 */
function corpusRequests(operations: readonly CollectedOperation[], pool: DataPool, sender: (i: number) => Principal) {
  const requests: ComparedRequest[] = [];
  const unsent: string[] = [];
  operations.forEach((operation, i) => {
    const definition = definitionOf(operation);
    const variables = variablesFor(schema, definition, pool, new Random(i + 1));
    const base = {
      label: operation.source,
      operationName: operation.operationName,
      variables,
      as: sender(i),
      accept: acceptFor(i),
    };
    if (definition.operation === OperationTypeNode.MUTATION) {
      const dry = asDryRun(schema, operation.parsed, definition);
      if (!dry) unsent.push(operation.source);
      else
        requests.push({ ...base, method: 'POST', query: dry.document, variables: { ...variables, ...dry.variables } });
      return;
    }
    if (definition.operation !== OperationTypeNode.QUERY) {
      requests.push({ ...base, method: 'POST', query: operation.document });
      return;
    }
    requests.push(...repeated({ ...base, method: 'POST', query: operation.document }));
    requests.push({ ...base, method: 'GET', query: operation.document });
  });
  return { requests, unsent };
}

/** The operation of a collected document that is sent (the only one, or the one named). */
function definitionOf(operation: CollectedOperation): OperationDefinitionNode {
  return operation.parsed.definitions.find(
    (d): d is OperationDefinitionNode =>
      d.kind === Kind.OPERATION_DEFINITION &&
      (operation.operationName === null || d.name?.value === operation.operationName),
  )!;
}
