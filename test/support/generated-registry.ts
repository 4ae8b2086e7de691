import fc from 'fast-check';
import type { TestServer } from './server';

/**
 * Generated registries and random mutations of them, through the API: the
 * property tests (binding impact, the response cache) build a registry from
 * a spec, then apply generated operations.
 */

/** A project with no links that no mutation touches: where project-independent outcomes are read. */
export const ANCHOR = 'anchor';

/** The binding impact's selection, for a payload. */
export const IMPACT = `impact { totalCount truncated complete changes { toolId toolName projectId projectName slotName
  before { status reason resourceId resourceName } after { status reason resourceId resourceName } } }`;

export const SHORT = ['repo', 'db', 'out', 'src'];
export const pick = <T>(list: readonly T[], i: number): T => list[Math.abs(i) % list.length];

/** A registry to build: 4 types, 6–9 resources, 4 projects (one the anchor), links, 3–6 tools. */
export const registry = fc.record({
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

/** Each kind of mutation of a built registry. */
const OPERATION_KINDS = [
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
] as const;

/** One mutation of a built registry. */
export const operation = fc.oneof(...OPERATION_KINDS);

/**
 * One mutation of each kind, in a generated order: every case of a property
 * test then exercises every kind of write, so a few cases cover what many
 * cases of random picks did.
 */
export const everyKindOfOperation = fc
  .tuple(...OPERATION_KINDS)
  .chain((ops) => fc.shuffledSubarray<(typeof ops)[number]>(ops, { minLength: ops.length }));

/** How many mutations everyKindOfOperation makes: one of each kind. */
export const OPERATION_KIND_COUNT = OPERATION_KINDS.length;

export type Spec = typeof registry extends fc.Arbitrary<infer T> ? T : never;
export type Op = { op: string; a: number; b?: number; c?: number | null; parents?: number[]; slots?: SlotSpec[] };
type SlotSpec = { slot: number; type: number; binding: number; required: boolean; res: number };

/** What a built registry holds now, by name. */
export interface State {
  types: string[];
  resources: string[];
  projects: string[];
  tools: string[];
  created: number;
}

/** Builds the registry a spec describes. */
export async function build(server: TestServer, spec: Spec): Promise<State> {
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
export async function refresh(server: TestServer, state: State): Promise<void> {
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
export async function mutationFor(
  server: TestServer,
  state: State,
  op: Op,
  selection: string = IMPACT,
): Promise<{ field: string; query: string; variables: Record<string, unknown> } | null> {
  const others = state.projects.filter((p) => p !== ANCHOR);
  const call = (field: string, type: string, input: unknown, extra = '') => ({
    field,
    query: `mutation($i: ${type}!) { ${field}(input: $i, dryRun: $dryRun${extra}) { registryVersion dryRun ${selection} } }`,
    variables: { i: input },
  });
  const ref = (field: string, ref: string, extra = '') => ({
    field,
    query: `mutation($r: String!) { ${field}(ref: $r, dryRun: $dryRun${extra}) { registryVersion dryRun ${selection} } }`,
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
