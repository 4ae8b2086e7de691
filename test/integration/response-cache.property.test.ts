import { expect } from 'chai';
import fc from 'fast-check';
import { describeEachBackend } from '../support/backends';
import {
  build,
  everyKindOfOperation,
  mutationFor,
  OPERATION_KIND_COUNT,
  refresh,
  registry,
  type Op,
  type State,
} from '../support/generated-registry';
import { propertyCases } from '../support/property';
import { startServer, type TestServer } from '../support/server';

/**
 * The response cache survives writes, and never serves a stale answer: over
 * generated registries and random mutations, every read of a fixed pool is
 * answered through the cache and compared with the same read answered
 * without it, on the same data. On PostgreSQL, two instances with caches
 * share the database, writes alternate between them, and a third instance
 * without a response cache or a record cache, on the reference engine (so
 * without kept page parts either), gives the answers to compare with: the
 * record cache and the kept parts, which last across writes too, are checked
 * along with the response cache. On SQLite the reference is the same server asked through Apollo's
 * pipeline, past the response cache and the kept parts.
 */

interface Read {
  readonly query: string;
  readonly variables: Record<string, unknown>;
}

/** Reads that between them depend on every kind of thing: names, ids, links, slots, types, lists, the log. */
async function readPool(server: TestServer, state: State): Promise<Read[]> {
  const ids = await server.data(`{
    tools(first: 100) { edges { node { id } } }
    projects(first: 100) { edges { node { id } } }
    resources(first: 100) { edges { node { id } } }
  }`);
  const idsOf = (conn: any) => conn.edges.map((e: any) => e.node.id as string);
  const reads: Read[] = [];
  const add = (query: string, variables: Record<string, unknown> = {}) => reads.push({ query, variables });
  for (const tool of state.tools) {
    add(
      `query($t: String!) { tool(ref: $t) { id name updatedAt resourceSlots { id name binding required
        resourceType { name ancestors { name } } staticResource { name type { name } } } } }`,
      { t: tool },
    );
    for (const project of state.projects.slice(1)) {
      add(
        `query($t: String!, $p: String!) { explainBindings(tool: $t, project: $p) { ok slots { slotName status reason how
          resource { id name } candidates { ref alias accepted rejection typeChain } } } }`,
        { t: tool, p: project },
      );
    }
  }
  for (const project of state.projects) {
    add(
      `query($p: String!) { project(ref: $p) { id name updatedAt resources { id alias resource { name type { name } } } } }`,
      {
        p: project,
      },
    );
  }
  for (const resource of state.resources) {
    add(
      `query($r: String!) { resource(ref: $r) { id name shortName type { name ancestors { name } }
        usedBy { staticBindings { slotName tool { name } } links { id alias project { name } } } } }`,
      { r: resource },
    );
    add(
      `query($r: String!) { projects(first: 100, filter: { linksResource: $r }) { totalCount edges { node { name } } } }`,
      {
        r: resource,
      },
    );
  }
  for (const type of state.types) {
    add(
      `query($t: String!) { resourceType(ref: $t) { name parentTypes { name } subtypes { name }
        compatibleResources(first: 100) { totalCount edges { node { name } } } } }`,
      { t: type },
    );
    add(`query($t: String!) { resources(first: 100, filter: { type: $t }) { totalCount edges { node { name } } } }`, {
      t: type,
    });
    add(`query($t: String!) { tools(first: 100, filter: { slotType: $t }) { totalCount edges { node { name } } } }`, {
      t: type,
    });
  }
  add(`{ tools(first: 100) { totalCount edges { node { name description } } } }`);
  // Pages whose items are answered from kept parts (src/engine/page-assembly.ts): each item's part reads its slots,
  // types, static resources, links or usage, so a write to any of them must reach it.
  add(`{ tools(first: 100) { edges { cursor node { name resourceSlots { name binding required
    resourceType { name ancestors { name } } staticResource { name type { name } } } } } } }`);
  add(`{ resources(first: 100) { totalCount edges { node { name shortName type { name ancestors { name } }
    usedBy { staticBindings { slotName tool { name } } links { alias project { name } } } } } } }`);
  add(
    `{ projects(first: 100) { edges { node { name updatedAt resources { alias resource { name type { name } } } } } } }`,
  );
  add(`{ resourceTypes(first: 100) { edges { node { name } } } }`);
  add(`{ changes(last: 3) { totalCount edges { node { version summary impactCount } } } }`);
  add(
    `{ bindingMatrix(projectsFirst: 10, toolsFirst: 10) { projects { nodes { name } } tools { nodes { name } } cells { status reasons } } }`,
  );
  add(
    `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on Tool { name } ... on Project { name } ... on Resource { name } } }`,
    {
      ids: [...idsOf(ids.tools), ...idsOf(ids.projects), ...idsOf(ids.resources)].slice(0, 100),
    },
  );
  return reads;
}

describeEachBackend('response cache (property-based): answers survive writes, none is ever stale', (backend) => {
  // Each case a generated registry and one mutation of every kind, in a generated order (PROPERTY_RUNS for more).
  const cases = backend.name === 'sqlite' ? propertyCases(3, 5) : propertyCases(2, 13);
  const runs = cases.numRuns;

  it(`serves no stale answer over generated registries × ${OPERATION_KIND_COUNT} mutations (one of each kind), and keeps the answers a write did not touch (${cases.label})`, async function () {
    this.timeout(900_000);
    let compared = 0;
    let hitsAfterWrites = 0;
    let stale = 0;
    /** Pages answered from kept parts by the cached instances, and parts they used. */
    let assembled = 0;
    let partsUsed = 0;
    await fc.assert(
      fc.asyncProperty(registry, everyKindOfOperation, async (spec, ops) => {
        // Cached instances, and the reference: on SQLite the same server asked to bypass its response cache (one
        // server owns the file); on PostgreSQL two cached instances and one without a response cache or a record
        // cache (every record read from the database), on the reference engine (no kept part), on one database.
        const first = await startServer(backend);
        const cached: TestServer[] = [first];
        let reference: { ask: (read: Read) => Promise<string> };
        const extra: TestServer[] = [];
        if (backend.name === 'postgres') {
          const second = await startServer(backend, { database: first.config.database });
          const plain = await startServer(backend, {
            database: first.config.database,
            execution: 'reference',
            responseCache: false,
            recordCache: false,
          });
          cached.push(second);
          extra.push(second, plain);
          reference = { ask: async (read) => JSON.stringify((await plain.gql(read.query, read.variables)).body) };
        } else {
          // A body with `extensions` is never kept nor answered by the response cache, and runs through Apollo's
          // pipeline, where no page is assembled from kept parts (the record cache is this same server's).
          reference = {
            ask: async (read) => {
              const response = await fetch(first.url, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ ...read, extensions: {} }),
              });
              return JSON.stringify(await response.json());
            },
          };
        }
        try {
          const state = await build(first, spec);
          const pool = await readPool(first, state);
          const readAll = async (afterWrite: boolean) => {
            for (const [i, read] of pool.entries()) {
              const server = cached[i % cached.length];
              // Pages are asked past the response cache as well, so that each is answered from kept parts too.
              const asked: Record<string, string>[] = read.query.includes('edges')
                ? [{}, { 'cache-control': 'no-cache' }]
                : [{}];
              for (const headers of asked) {
                const response = await fetch(server.url, {
                  method: 'POST',
                  headers: { 'content-type': 'application/json', ...headers },
                  body: JSON.stringify(read),
                });
                const answer = JSON.stringify(await response.json());
                const hit = response.headers.get('x-registry-cache') === 'hit';
                const expected = await reference.ask(read);
                compared++;
                if (afterWrite && hit) hitsAfterWrites++;
                if (answer !== expected) {
                  stale++;
                  expect(
                    answer,
                    `${hit ? 'cached' : 'fresh'} answer to ${read.query} ${JSON.stringify(read.variables)}`,
                  ).to.equal(expected);
                }
              }
            }
          };
          await readAll(false);
          await readAll(false);
          for (const [n, op] of (ops as Op[]).entries()) {
            const writer = cached[n % cached.length];
            const request = await mutationFor(writer, state, op, 'registryVersion');
            if (!request) continue;
            await writer.gql(request.query.replace('$dryRun', 'false'), request.variables);
            await refresh(writer, state);
            await readAll(true);
          }
        } finally {
          for (const server of cached) {
            assembled += server.app.execution.stats.assembly.assembled;
            partsUsed += server.app.execution.stats.assembly.partsUsed;
          }
          await Promise.all(extra.map((s) => s.close()));
          await first.close();
        }
      }),
      { numRuns: runs, seed: cases.seed, endOnFailure: true },
    );
    expect(stale).to.equal(0);
    // The cache must have answered after writes (writes no longer empty it for everyone), and not only that.
    expect(hitsAfterWrites, `${hitsAfterWrites} of ${compared}`).to.be.greaterThan(compared / 10);
    // And pages must have been answered from kept parts after writes too, so those were compared as well.
    expect(assembled, 'pages assembled from kept parts').to.be.greaterThan(runs * 10);
    // (Each run asks its pages past the response cache after each of its writes.)
    expect(partsUsed).to.be.greaterThan(assembled);
    if (process.env.SHOW_TALLY) console.log({ compared, hitsAfterWrites, assembled, partsUsed });
  });
});
