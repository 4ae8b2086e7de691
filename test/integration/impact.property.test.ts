import { expect } from 'chai';
import fc from 'fast-check';
import { describeEachBackend } from '../support/backends';
import { databaseDigest } from '../support/digest';
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
/** A project with no links that no mutation touches: where project-independent outcomes are read. */
const ANCHOR = 'anchor';

const IMPACT = `impact { totalCount truncated complete changes { toolId toolName projectId projectName slotName
  before { status reason resourceId resourceName } after { status reason resourceId resourceName } } }`;

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

// --- generated registries and mutations ---------------------------------------------------------

const SHORT = ['repo', 'db', 'out', 'src'];
const pick = <T>(list: readonly T[], i: number): T => list[Math.abs(i) % list.length];

const registry = fc.record({
  typeParents: fc.array(fc.array(fc.nat(), { maxLength: 2 }), { minLength: 4, maxLength: 4 }),
  resources: fc.array(fc.record({ type: fc.nat(), prefix: fc.nat(), short: fc.nat() }), {
    minLength: 6,
    maxLength: 9,
  }),
  links: fc.array(
    fc.record({
      project: fc.nat(),
      resource: fc.nat(),
      // Mostly no alias, so the short-name rule and ambiguity come into play.
      alias: fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: fc.nat(), weight: 1 }),
    }),
    { minLength: 6, maxLength: 14 },
  ),
  tools: fc.array(
    fc.array(fc.record({ slot: fc.nat(), type: fc.nat(), binding: fc.nat(), required: fc.boolean(), res: fc.nat() }), {
      minLength: 1,
      maxLength: 3,
    }),
    { minLength: 3, maxLength: 6 },
  ),
});

const operation = fc.oneof(
  fc.record({ op: fc.constant('link'), a: fc.nat(), b: fc.nat(), c: fc.option(fc.nat(), { nil: null }) }),
  fc.record({ op: fc.constant('unlink'), a: fc.nat(), b: fc.nat() }),
  fc.record({ op: fc.constant('updateLink'), a: fc.nat(), b: fc.nat(), c: fc.option(fc.nat(), { nil: null }) }),
  fc.record({ op: fc.constant('renameResource'), a: fc.nat(), b: fc.nat(), c: fc.nat() }),
  fc.record({ op: fc.constant('retypeResource'), a: fc.nat(), b: fc.nat() }),
  fc.record({ op: fc.constant('reparentType'), a: fc.nat(), parents: fc.array(fc.nat(), { maxLength: 2 }) }),
  fc.record({ op: fc.constant('deleteResource'), a: fc.nat() }),
  fc.record({ op: fc.constant('deleteProject'), a: fc.nat() }),
  fc.record({
    op: fc.constant('updateTool'),
    a: fc.nat(),
    slots: fc.array(
      fc.record({ slot: fc.nat(), type: fc.nat(), binding: fc.nat(), required: fc.boolean(), res: fc.nat() }),
      {
        maxLength: 3,
      },
    ),
  }),
  fc.record({ op: fc.constant('unregisterTool'), a: fc.nat() }),
  fc.record({ op: fc.constant('createProject'), a: fc.nat() }),
  fc.record({ op: fc.constant('registerResource'), a: fc.nat(), b: fc.nat() }),
);

type Spec = typeof registry extends fc.Arbitrary<infer T> ? T : never;
type Op = { op: string; a: number; b?: number; c?: number | null; parents?: number[]; slots?: SlotSpec[] };
type SlotSpec = { slot: number; type: number; binding: number; required: boolean; res: number };

describeEachBackend('binding impact (property-based)', (backend) => {
  const runs = backend.name === 'sqlite' ? 30 : 8;

  it(`equals the difference of resolving every pair before and after, over ${runs} generated registries × 12 mutations; a dry run reports the same and stores nothing`, async function () {
    this.timeout(600_000);
    const tally: Record<string, number> = {};
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(registry, fc.array(operation, { minLength: 12, maxLength: 12 }), async (spec, ops) => {
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
      { numRuns: runs, seed: backend.name === 'sqlite' ? 7 : 11, endOnFailure: true },
    );
    if (process.env.SHOW_TALLY) console.log(nonEmpty, tally);
    // The generated mutations must have changed bindings, and succeeded and failed in several ways.
    expect(nonEmpty, JSON.stringify(tally)).to.be.greaterThan(runs);
    expect(Object.keys(tally).filter((k) => k.endsWith(':OK')).length, JSON.stringify(tally)).to.be.at.least(8);
  });
});

interface State {
  types: string[];
  resources: string[];
  projects: string[];
  tools: string[];
  created: number;
}

async function build(server: TestServer, spec: Spec): Promise<State> {
  const state: State = { types: [], resources: [], projects: [ANCHOR], tools: [], created: 0 };
  const gql = (query: string, variables?: Record<string, unknown>) => server.data(query, variables);
  for (let i = 0; i < spec.typeParents.length; i++) {
    const parents = [...new Set(spec.typeParents[i].filter(() => i > 0).map((p) => `t${p % i}`))];
    await gql(`mutation($i: RegisterResourceTypeInput!) { registerResourceType(input: $i) { registryVersion } }`, {
      i: { name: `t${i}`, parentTypes: parents },
    });
    state.types.push(`t${i}`);
  }
  for (const [i, r] of spec.resources.entries()) {
    const name = `${pick(['a', 'b', 'c'], r.prefix)}${i}/${pick(SHORT, r.short)}`;
    await gql(`mutation($i: RegisterResourceInput!) { registerResource(input: $i) { registryVersion } }`, {
      i: { name, type: pick(state.types, r.type) },
    });
    state.resources.push(name);
  }
  for (const name of [ANCHOR, 'p1', 'p2', 'p3']) {
    await gql(`mutation($i: CreateProjectInput!) { createProject(input: $i) { registryVersion } }`, { i: { name } });
  }
  state.projects = [ANCHOR, 'p1', 'p2', 'p3'];
  for (const link of spec.links as { project: number; resource: number; alias: number | null }[]) {
    await server.gql(`mutation($i: LinkResourceInput!) { linkResource(input: $i) { registryVersion } }`, {
      i: {
        project: pick(['p1', 'p2', 'p3'], link.project),
        resource: pick(state.resources, link.resource),
        alias: link.alias === null ? null : pick(SHORT, link.alias),
      },
    });
  }
  for (const [i, slots] of spec.tools.entries()) {
    const res = await server.gql(`mutation($i: RegisterToolInput!) { registerTool(input: $i) { registryVersion } }`, {
      i: { name: `tool${i}`, resourceSlots: await slotInputs(server, state, slots) },
    });
    if (!res.body.errors) state.tools.push(`tool${i}`);
  }
  return state;
}

/** Slot inputs from specs: distinct names; a STATIC slot binds a resource whose type fits (else it is CONTEXTUAL). */
async function slotInputs(server: TestServer, state: State, specs: SlotSpec[]) {
  const d = await server.data(`{ resources(first: 100) { edges { node { name type { name ancestors { name } } } } } }`);
  const fills = (resource: any) => [resource.type.name, ...resource.type.ancestors.map((t: any) => t.name)];
  const used = new Set<string>();
  const slots = [];
  for (const spec of specs) {
    const name = pick(SHORT, spec.slot);
    if (used.has(name)) continue;
    used.add(name);
    const resourceType = pick(state.types, spec.type);
    let binding = pick(['CONTEXTUAL', 'CONTEXTUAL', 'STATIC', 'PARAMETER'], spec.binding);
    let staticResource: string | null = null;
    if (binding === 'STATIC') {
      const fitting: { name: string }[] = d.resources.edges
        .map((e: any) => e.node)
        .filter((r: any) => fills(r).includes(resourceType));
      if (fitting.length > 0) staticResource = pick(fitting, spec.res).name;
      else binding = 'CONTEXTUAL';
    }
    slots.push({ name, resourceType, binding, staticResource, required: spec.required });
  }
  return slots;
}

/** The current names of what the registry holds (a mutation may have renamed or removed things). */
async function refresh(server: TestServer, state: State): Promise<void> {
  const d = await server.data(`{
    resources(first: 100) { edges { node { name } } }
    projects(first: 100) { edges { node { name } } }
    tools(first: 100) { edges { node { name } } }
  }`);
  state.resources = d.resources.edges.map((e: any) => e.node.name);
  state.projects = d.projects.edges.map((e: any) => e.node.name);
  state.tools = d.tools.edges.map((e: any) => e.node.name);
}

/** The mutation document (with `$dryRun` to fill in) and variables for a generated operation. */
async function mutationFor(
  server: TestServer,
  state: State,
  op: Op,
): Promise<{ field: string; query: string; variables: Record<string, unknown> } | null> {
  const others = state.projects.filter((p) => p !== ANCHOR);
  const call = (field: string, type: string, input: unknown, extra = '') => ({
    field,
    query: `mutation($i: ${type}!) { ${field}(input: $i, dryRun: $dryRun${extra}) { registryVersion dryRun ${IMPACT} } }`,
    variables: { i: input },
  });
  const ref = (field: string, ref: string, extra = '') => ({
    field,
    query: `mutation($r: String!) { ${field}(ref: $r, dryRun: $dryRun${extra}) { registryVersion dryRun ${IMPACT} } }`,
    variables: { r: ref },
  });
  if (
    state.resources.length === 0 &&
    ['link', 'unlink', 'updateLink', 'renameResource', 'retypeResource', 'deleteResource'].includes(op.op)
  ) {
    return null;
  }
  switch (op.op) {
    case 'link':
      if (others.length === 0) return null;
      return call('linkResource', 'LinkResourceInput', {
        project: pick(others, op.a),
        resource: pick(state.resources, op.b!),
        alias: op.c == null ? null : pick(SHORT, op.c),
      });
    case 'unlink':
    case 'updateLink': {
      if (others.length === 0) return null;
      const project = pick(others, op.a);
      const links = (
        await server.data(`query($p: String!) { project(ref: $p) { resources { resource { name } } } }`, { p: project })
      ).project.resources as { resource: { name: string } }[];
      if (links.length === 0) return null;
      const resource = pick(links, op.b!).resource.name;
      return op.op === 'unlink'
        ? call('unlinkResource', 'UnlinkResourceInput', { project, resource })
        : call('updateLink', 'UpdateLinkInput', { project, resource, alias: op.c == null ? null : pick(SHORT, op.c) });
    }
    case 'renameResource':
      // A new short name from the slot names, so short-name tie-breaking changes.
      return call('updateResource', 'UpdateResourceInput', {
        ref: pick(state.resources, op.a),
        name: `n${op.b! % 50}/${pick(SHORT, op.c!)}`,
      });
    case 'retypeResource':
      return call('updateResource', 'UpdateResourceInput', {
        ref: pick(state.resources, op.a),
        type: pick(state.types, op.b!),
      });
    case 'reparentType':
      return call('updateResourceType', 'UpdateResourceTypeInput', {
        ref: pick(state.types, op.a),
        parentTypes: [...new Set(op.parents!.map((p) => pick(state.types, p)))],
      });
    case 'deleteResource':
      return ref('deleteResource', pick(state.resources, op.a), ', force: true');
    case 'deleteProject':
      return others.length === 0 ? null : ref('deleteProject', pick(others, op.a), ', force: true');
    case 'updateTool':
      if (state.tools.length === 0) return null;
      return call('updateTool', 'UpdateToolInput', {
        name: pick(state.tools, op.a),
        resourceSlots: await slotInputs(server, state, op.slots!),
      });
    case 'unregisterTool':
      return state.tools.length === 0 ? null : ref('unregisterTool', pick(state.tools, op.a));
    case 'createProject':
      return call('createProject', 'CreateProjectInput', { name: `new${++state.created}` });
    case 'registerResource':
      return call('registerResource', 'RegisterResourceInput', {
        name: `new${++state.created}/${pick(SHORT, op.a)}`,
        type: pick(state.types, op.b!),
      });
    default:
      return null;
  }
}
