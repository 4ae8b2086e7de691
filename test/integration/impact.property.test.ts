import { expect } from 'chai';
import fc from 'fast-check';
import { describeEachBackend } from '../support/backends';
import { databaseDigest } from '../support/digest';
import {
  ANCHOR,
  build,
  everyKindOfOperation,
  mutationFor,
  OPERATION_KIND_COUNT,
  refresh,
  registry,
  type Op,
} from '../support/generated-registry';
import { propertyCases } from '../support/property';
import { startServer, type TestServer } from '../support/server';

/**
 * The binding impact a mutation reports is exactly the difference between
 * resolving every (tool, project) pair before and after it, checked over
 * generated registries and random sequences of mutations. A dry run of the
 * same mutation reports the same impact and leaves every table unchanged.
 */

interface Outcome {
  status: string;
  reason: string | null;
  resourceId: string | null;
  resourceName: string | null;
}
interface World {
  tools: Map<string, { name: string; slots: Map<string, string> }>;
  projects: Map<string, string>;
  /** `${toolId}|${projectId}|${slot}` → outcome in that project. */
  outcomes: Map<string, Outcome>;
}
interface Change {
  toolId: string;
  toolName: string;
  projectId: string | null;
  projectName: string | null;
  slotName: string;
  before: Outcome;
  after: Outcome;
}

const ABSENT: Outcome = { status: 'ABSENT', reason: null, resourceId: null, resourceName: null };

/** Resolves every tool in every project through the API. */
async function world(server: TestServer): Promise<World> {
  const listed = await server.data(`{
    projects(first: 100) { edges { node { id name } } }
    tools(first: 100) { edges { node { id name resourceSlots { name binding } } } }
  }`);
  const projects = new Map<string, string>(listed.projects.edges.map((e: any) => [e.node.id, e.node.name]));
  const tools = new Map<string, { name: string; slots: Map<string, string> }>(
    listed.tools.edges.map((e: any) => [
      e.node.id,
      { name: e.node.name, slots: new Map(e.node.resourceSlots.map((s: any) => [s.name, s.binding])) },
    ]),
  );
  const outcomes = new Map<string, Outcome>();
  for (const [projectId] of projects) {
    const d = await server.data(
      `query($p: String!) { tools(first: 100) { edges { node { id bindingsIn(project: $p) {
        slots { slotName status reason resource { id name } } } } } } }`,
      { p: projectId },
    );
    for (const edge of d.tools.edges) {
      for (const slot of edge.node.bindingsIn.slots) {
        outcomes.set(`${edge.node.id}|${projectId}|${slot.slotName}`, {
          status: slot.status,
          reason: slot.reason,
          resourceId: slot.resource?.id ?? null,
          resourceName: slot.resource?.name ?? null,
        });
      }
    }
  }
  return { tools, projects, outcomes };
}

/** The difference between two worlds, by the impact's definition (pairs of created or deleted tools or projects left out). */
function difference(before: World, after: World): Change[] {
  const anchorOf = (w: World) => [...w.projects].find(([, name]) => name === ANCHOR)![0];
  const changes: Change[] = [];
  for (const [toolId, toolAfter] of after.tools) {
    const toolBefore = before.tools.get(toolId);
    if (!toolBefore) continue;
    const outcome = (w: World, slots: Map<string, string>, projectId: string, slot: string) =>
      slots.has(slot) ? w.outcomes.get(`${toolId}|${projectId}|${slot}`)! : ABSENT;
    for (const slot of new Set([...toolBefore.slots.keys(), ...toolAfter.slots.keys()])) {
      const contextual = toolBefore.slots.get(slot) === 'CONTEXTUAL' || toolAfter.slots.get(slot) === 'CONTEXTUAL';
      const pairs: [string | null, string, string][] = contextual
        ? [...after.projects]
            .filter(([id]) => before.projects.has(id))
            .map(([id, name]) => [id, name, id] as [string, string, string])
        : [[null, '', '']];
      for (const [projectId, projectName, id] of pairs) {
        const b = outcome(before, toolBefore.slots, projectId === null ? anchorOf(before) : id, slot);
        const a = outcome(after, toolAfter.slots, projectId === null ? anchorOf(after) : id, slot);
        if (b.status === a.status && b.reason === a.reason && b.resourceId === a.resourceId) continue;
        changes.push({
          toolId,
          toolName: toolAfter.name,
          projectId,
          projectName: projectId === null ? null : projectName,
          slotName: slot,
          before: b,
          after: a,
        });
      }
    }
  }
  const text = (s: string | null) => s ?? '';
  const order = (x: Change, y: Change) =>
    cmp(x.toolName, y.toolName) ||
    cmp(text(x.projectName), text(y.projectName)) ||
    cmp(x.slotName, y.slotName) ||
    cmp(x.toolId, y.toolId) ||
    cmp(text(x.projectId), text(y.projectId));
  return changes.sort(order);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

describeEachBackend('binding impact (property-based)', (backend) => {
  // Each case a generated registry and one mutation of every kind, in a generated order (PROPERTY_RUNS for more).
  const cases = backend.name === 'sqlite' ? propertyCases(10, 7) : propertyCases(3, 11);
  const runs = cases.numRuns;

  it(`equals the difference of resolving every pair before and after, over generated registries × ${OPERATION_KIND_COUNT} mutations (one of each kind); a dry run reports the same and stores nothing (${cases.label})`, async function () {
    this.timeout(600_000);
    const tally: Record<string, number> = {};
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(registry, everyKindOfOperation, async (spec, ops) => {
        const server = await startServer(backend);
        try {
          const state = await build(server, spec);
          for (const op of ops as Op[]) {
            const request = await mutationFor(server, state, op);
            if (!request) continue;
            const before = await world(server);
            const digest = await databaseDigest(server);
            const dry = await server.gql(request.query.replace('$dryRun', 'true'), request.variables);
            expect(await databaseDigest(server), `dry run of ${op.op} stored something`).to.equal(digest);
            const real = await server.gql(request.query.replace('$dryRun', 'false'), request.variables);
            const code = real.body.errors?.[0]?.extensions?.code ?? 'OK';
            tally[`${op.op}:${code}`] = (tally[`${op.op}:${code}`] ?? 0) + 1;
            expect(dry.body.errors?.[0]?.extensions?.code ?? 'OK', JSON.stringify(dry.body)).to.equal(code);
            expect(code, JSON.stringify(real.body)).to.not.equal('INTERNAL_SERVER_ERROR');
            if (code !== 'OK') {
              expect(await databaseDigest(server), `${op.op} was refused but changed the database`).to.equal(digest);
              continue;
            }
            const payload = real.body.data![request.field];
            const after = await world(server);
            const expected = difference(before, after);
            if (expected.length > 0) {
              nonEmpty += 1;
              tally[`${op.op}:changed`] = (tally[`${op.op}:changed`] ?? 0) + 1;
            }
            expect(payload.impact.complete).to.equal(true);
            expect(payload.impact.totalCount, `${op.op} ${JSON.stringify(request.variables)}`).to.equal(
              expected.length,
            );
            expect(payload.impact.changes, `${op.op} ${JSON.stringify(request.variables)}`).to.deep.equal(
              expected.slice(0, 200),
            );
            expect(dry.body.data![request.field].impact).to.deep.equal(payload.impact);
            await refresh(server, state);
          }
        } finally {
          await server.close();
        }
      }),
      { numRuns: runs, seed: cases.seed, endOnFailure: true },
    );
    if (process.env.SHOW_TALLY) console.log(nonEmpty, tally);
    // The generated mutations must have changed bindings, and succeeded and failed in several ways.
    expect(nonEmpty, JSON.stringify(tally)).to.be.greaterThan(runs);
    expect(Object.keys(tally).filter((k) => k.endsWith(':OK')).length, JSON.stringify(tally)).to.be.at.least(8);
  });
});
