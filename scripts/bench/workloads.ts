/**
 * The requests of each load, chosen offline from the in-memory registry:
 * GraphQL query texts (one fixed text per load, values in variables), the
 * tool × project pairs that resolve (checked with the project's pure core,
 * `resolveSlots`/`summarize`), dashboard page cursors, and fresh tools to
 * register. Each request carries what its response must look like.
 */
import { resolveSlots, summarize, type BindingOutcome, type ParamValue } from '../../src/core/binding-resolution';
import type { ResourceInfo } from '../../src/core/model';
import { compareNames } from '../../src/core/type-hierarchy';
import { encodeCursor } from '../../src/graphql/pagination';
import type { RegistryModel, ToolModel } from './model';
import type { Random } from './random';

export const FLOOR_QUERY = '{ __typename }';

export const RESOLVE_QUERY = `query Resolve($tool: String!, $project: String!, $params: [BindingParamInput!]) {
  resolveBindings(tool: $tool, project: $project, params: $params) { slotName bindingMode resourceId resource { name } deferred access }
}`;

export const DASHBOARD_QUERY = `query Dashboard($first: Int, $after: String) {
  tools(first: $first, after: $after) {
    totalCount
    edges { cursor node { id name resourceSlots {
      name access binding required
      resourceType { name ancestors { name } }
      staticResource { name }
    } } }
    pageInfo { hasNextPage endCursor }
  }
}`;

export const WRITE_QUERY = `mutation Register($input: RegisterToolInput!) {
  registerTool(input: $input) { tool { id name } }
}`;

/** What one slot of a resolved pair must come back as. */
export interface ExpectedSlot {
  readonly slotName: string;
  readonly resourceName: string | null;
  readonly deferred: boolean;
}

/** A tool × project pair (with params) that resolves, and its expected answer. */
export interface ResolvePair {
  readonly tool: string;
  readonly project: string;
  readonly params: { slot: string; resource: string }[];
  readonly expected: ExpectedSlot[];
}

/** How the chosen pairs' slots were decided: a check that the load exercises every rule. */
export interface ResolveMix {
  readonly pairs: number;
  readonly distinctTools: number;
  readonly distinctProjects: number;
  /** Pairs tried to find them (successful share = pairs / attempts). */
  readonly attempts: number;
  readonly slots: number;
  /** Slots by the rule that decided them: SINGLE_CANDIDATE, ALIAS, SHORT_NAME, STATIC, PARAMETER, DEFERRED, UNBOUND_OPTIONAL. */
  readonly byRule: Record<string, number>;
  /** Pairs in which at least one CONTEXTUAL slot was bound from the project. */
  readonly pairsWithContextualBinding: number;
  readonly paramsSupplied: number;
}

/**
 * Finds up to `target` distinct tool × project pairs that resolve
 * successfully. For each candidate, params are chosen for about half the
 * tool's PARAMETER slots (a random compatible resource, by name or sometimes
 * by id); the rest stay deferred. Small registries are searched exhaustively
 * in random order, large ones by random sampling.
 */
export function chooseResolvePairs(
  model: RegistryModel,
  random: Random,
  target: number,
): { pairs: ResolvePair[]; mix: ResolveMix } {
  const { tools, projects, hierarchy } = model;
  const families = new Map<string, ResourceInfo[][]>();
  /** Resource lists of every type that fills a slot of `typeId` (the type and its descendants), non-empty ones only. */
  const familyOf = (typeId: string): ResourceInfo[][] => {
    let lists = families.get(typeId);
    if (!lists) {
      lists = [typeId, ...hierarchy.descendantsOf(typeId).map((t) => t.id)]
        .map((id) => model.resourcesByType.get(id) ?? [])
        .filter((list) => list.length > 0);
      families.set(typeId, lists);
    }
    return lists;
  };

  const total = tools.length * projects.length;
  const exhaustive = total <= 200_000;
  const order = exhaustive ? random.shuffle(Array.from({ length: total }, (_, i) => i)) : null;
  const maxAttempts = exhaustive ? total : Math.max(target * 200, 100_000);
  const seen = new Set<number>();
  const pairs: ResolvePair[] = [];
  const byRule: Record<string, number> = {};
  let attempts = 0;
  let slots = 0;
  let pairsWithContextualBinding = 0;
  let paramsSupplied = 0;

  while (pairs.length < target && attempts < maxAttempts) {
    const key = order ? order[attempts] : random.int(0, total - 1);
    attempts += 1;
    if (seen.has(key)) continue;
    seen.add(key);
    const tool = tools[Math.floor(key / projects.length)];
    const project = projects[key % projects.length];

    const params = chooseParams(tool, random, familyOf);
    const staticResources = new Map<string, ResourceInfo>();
    for (const slot of tool.slots) {
      const resource = slot.staticResourceId ? model.resourceById.get(slot.staticResourceId) : undefined;
      if (resource) staticResources.set(resource.id, resource);
    }
    const resolutions = resolveSlots(tool.slots, {
      projectName: project.name,
      hierarchy,
      links: project.links,
      staticResources,
      params: new Map(params.map((p): [string, ParamValue] => [p.slot, { ref: p.ref, resource: p.resource }])),
    });
    const summary = summarize(resolutions);
    if (!summary.ok) continue;

    pairs.push({
      tool: tool.name,
      project: project.name,
      params: params.map((p) => ({ slot: p.slot, resource: p.ref })),
      expected: summary.results.map(expectedSlot),
    });
    slots += resolutions.length;
    paramsSupplied += params.length;
    for (const r of resolutions) {
      const rule = r.status === 'BOUND' ? (r.how ?? 'BOUND') : r.status;
      byRule[rule] = (byRule[rule] ?? 0) + 1;
    }
    if (resolutions.some((r) => r.slot.binding === 'CONTEXTUAL' && r.status === 'BOUND'))
      pairsWithContextualBinding += 1;
  }

  return {
    pairs,
    mix: {
      pairs: pairs.length,
      distinctTools: new Set(pairs.map((p) => p.tool)).size,
      distinctProjects: new Set(pairs.map((p) => p.project)).size,
      attempts,
      slots,
      byRule,
      pairsWithContextualBinding,
      paramsSupplied,
    },
  };
}

/** Params for about half of a tool's PARAMETER slots: a compatible resource, by name (mostly) or by id. */
function chooseParams(tool: ToolModel, random: Random, familyOf: (typeId: string) => ResourceInfo[][]) {
  const params: { slot: string; ref: string; resource: ResourceInfo }[] = [];
  for (const slot of tool.slots) {
    if (slot.binding !== 'PARAMETER' || !random.chance(0.5)) continue;
    const family = familyOf(slot.typeId);
    if (family.length === 0) continue;
    const resource = random.pick(random.pick(family));
    params.push({ slot: slot.name, ref: random.chance(0.8) ? resource.name : resource.id, resource });
  }
  return params;
}

function expectedSlot(outcome: BindingOutcome): ExpectedSlot {
  return { slotName: outcome.slotName, resourceName: outcome.resource?.name ?? null, deferred: outcome.deferred };
}

/** A request body, and what the response must hold. */
export interface PreparedRequest<E> {
  readonly body: Buffer;
  readonly expect: E;
}

/** One GraphQL POST body. */
export function graphqlBody(query: string, variables?: Record<string, unknown>): Buffer {
  return Buffer.from(JSON.stringify(variables ? { query, variables } : { query }));
}

/** The resolve bodies, one per pair. */
export function resolveRequests(pairs: readonly ResolvePair[]): PreparedRequest<ExpectedSlot[]>[] {
  return pairs.map((pair) => ({
    body: graphqlBody(RESOLVE_QUERY, {
      tool: pair.tool,
      project: pair.project,
      params: pair.params.length > 0 ? pair.params : null,
    }),
    expect: pair.expected,
  }));
}

export const DASHBOARD_PAGE_SIZE = 50;

/** What a dashboard page must hold: how many tools, and the first one's name. */
export interface ExpectedPage {
  readonly edges: number;
  readonly firstName: string | null;
}

/**
 * Dashboard pages of 50 tools, as a dashboard pages through them: the first
 * page, then the page after each page's last cursor (100 pages at the default
 * size). Cursors are made the server's way (name order as bytes).
 */
export function dashboardRequests(model: RegistryModel): PreparedRequest<ExpectedPage>[] {
  const names = model.tools.map((t) => t.name).sort(compareNames);
  const lastStart = Math.max(0, names.length - DASHBOARD_PAGE_SIZE);
  const requests: PreparedRequest<ExpectedPage>[] = [];
  // The pages a dashboard shows when it follows endCursor: page 1, page 2, … (not every sliding offset).
  for (let start = 0; start <= lastStart; start += DASHBOARD_PAGE_SIZE) {
    const after = start === 0 ? null : encodeCursor('tools', names[start - 1]);
    requests.push({
      body: graphqlBody(DASHBOARD_QUERY, { first: DASHBOARD_PAGE_SIZE, after }),
      expect: { edges: Math.min(DASHBOARD_PAGE_SIZE, names.length - start), firstName: names[start] ?? null },
    });
  }
  return requests;
}

/** registerTool input slots, with types and static resources named by ref. */
type SlotInput = {
  name: string;
  resourceType: string;
  access: string;
  binding: string;
  staticResource?: string;
  required: boolean;
};

/**
 * Makes registerTool bodies with fresh, unique names. The slots copy those of
 * existing tools (types and static resources by name), so every tool is valid.
 */
export function writeRequests(model: RegistryModel, random: Random, runTag: string): () => PreparedRequest<string> {
  const templates: SlotInput[][] = [];
  for (let i = 0; i < Math.min(500, model.tools.length); i++) {
    const tool = random.pick(model.tools);
    templates.push(
      tool.slots.map((slot) => ({
        name: slot.name,
        resourceType: model.hierarchy.byId(slot.typeId)?.name ?? slot.typeId,
        access: slot.access,
        binding: slot.binding,
        ...(slot.staticResourceId
          ? { staticResource: model.resourceById.get(slot.staticResourceId)?.name ?? slot.staticResourceId }
          : {}),
        required: slot.required,
      })),
    );
  }
  let counter = 0;
  return () => {
    const name = `bench-write/${runTag}/tool-${++counter}`;
    const resourceSlots = templates[counter % templates.length];
    return { body: graphqlBody(WRITE_QUERY, { input: { name, resourceSlots } }), expect: name };
  };
}

// --- checking answers --------------------------------------------------------

/** The floor's (and the http baseline's) answer. */
export const FLOOR_ANSWER = '{"data":{"__typename":"Query"}}';

/** The floor and http answers must be exactly the one small JSON. */
export function verifyFloor(body: string): string | null {
  return body.trim() === FLOOR_ANSWER ? null : `expected ${FLOOR_ANSWER}`;
}

/** Every slot comes back in order, bound to the resource the core chose offline (or deferred / unbound likewise). */
export function verifyResolve(body: string, expected: readonly ExpectedSlot[]): string | null {
  const results = (JSON.parse(body) as { data?: { resolveBindings?: unknown } }).data?.resolveBindings;
  if (!Array.isArray(results)) return 'no resolveBindings list';
  if (results.length !== expected.length) return `${results.length} slots, expected ${expected.length}`;
  for (let i = 0; i < expected.length; i++) {
    const got = results[i] as { slotName?: string; resource?: { name?: string } | null; deferred?: boolean };
    const want = expected[i];
    const resourceName = got.resource?.name ?? null;
    if (got.slotName !== want.slotName || resourceName !== want.resourceName || got.deferred !== want.deferred) {
      return `slot ${i + 1}: got ${got.slotName} → ${resourceName}${got.deferred ? ' (deferred)' : ''}, expected ${want.slotName} → ${want.resourceName}${want.deferred ? ' (deferred)' : ''}`;
    }
  }
  return null;
}

/** A page holds the expected number of tools, starting at the expected one, each with its slots. */
export function verifyDashboard(body: string, expected: ExpectedPage): string | null {
  const tools = (
    JSON.parse(body) as { data?: { tools?: { edges?: { node?: { name?: string; resourceSlots?: unknown } }[] } } }
  ).data?.tools;
  const edges = tools?.edges;
  if (!Array.isArray(edges)) return 'no tools.edges list';
  if (edges.length !== expected.edges) return `${edges.length} tools, expected ${expected.edges}`;
  if (expected.firstName !== null && edges[0]?.node?.name !== expected.firstName)
    return `page starts at ${edges[0]?.node?.name}, expected ${expected.firstName}`;
  if (!edges.every((e) => Array.isArray(e.node?.resourceSlots) && (e.node?.resourceSlots as unknown[]).length > 0))
    return 'a tool without resourceSlots';
  return null;
}

/** The registered tool comes back with its name and an id. */
export function verifyWrite(body: string, expectedName: string): string | null {
  const tool = (JSON.parse(body) as { data?: { registerTool?: { tool?: { id?: string; name?: string } } } }).data
    ?.registerTool?.tool;
  if (!tool || tool.name !== expectedName)
    return `registerTool returned ${JSON.stringify(tool)}, expected name ${expectedName}`;
  if (typeof tool.id !== 'string' || tool.id.length !== 26) return 'registerTool returned no id';
  return null;
}

/** The binding matrix a dashboard shows: 20 projects × 50 tools, the cells' status and reasons. */
export const MATRIX_QUERY = `query Matrix($pa: String, $ta: String) {
  bindingMatrix(projectsFirst: 20, toolsFirst: 50, projectsAfter: $pa, toolsAfter: $ta) {
    projects { nodes { id name } pageInfo { hasNextPage endCursor } }
    tools { nodes { id name } pageInfo { hasNextPage endCursor } }
    cells { projectId toolId status failedSlots reasons }
  }
}`;

/** How many cells a matrix page has. */
export interface ExpectedMatrix {
  readonly cells: number;
}

/** Matrix pages as a dashboard pages them: 20-project and 50-tool pages, followed by endCursor on both axes. */
export function matrixRequests(model: RegistryModel, random: Random, count = 200): PreparedRequest<ExpectedMatrix>[] {
  const projects = model.projects.map((p) => p.name).sort(compareNames);
  const tools = model.tools.map((t) => t.name).sort(compareNames);
  const pageStarts = (names: string[], size: number) =>
    Array.from({ length: Math.max(1, Math.ceil(names.length / size)) }, (_, k) => k * size);
  const projectStarts = pageStarts(projects, 20);
  const toolStarts = pageStarts(tools, 50);
  return Array.from({ length: count }, () => {
    const p = random.pick(projectStarts);
    const t = random.pick(toolStarts);
    return {
      body: graphqlBody(MATRIX_QUERY, {
        pa: p === 0 ? null : encodeCursor('projects', projects[p - 1]),
        ta: t === 0 ? null : encodeCursor('tools', tools[t - 1]),
      }),
      expect: { cells: Math.min(20, projects.length - p) * Math.min(50, tools.length - t) },
    };
  });
}

/** A matrix page has a cell for every pair of its pages. */
export function verifyMatrix(body: string, expected: ExpectedMatrix): string | null {
  const cells = (JSON.parse(body) as { data?: { bindingMatrix?: { cells?: unknown[] } } }).data?.bindingMatrix?.cells;
  if (!Array.isArray(cells)) return 'no bindingMatrix.cells list';
  if (cells.length !== expected.cells) return `${cells.length} cells, expected ${expected.cells}`;
  return null;
}

// --- unique bodies, paced writes, churn ----------------------------------------

/**
 * The variable the unique loads add to every body. No query declares it, so
 * graphql-js ignores it and the execution is exactly that of the original
 * request, while the body, and every cache key made from it (the response
 * cache's, the cost memo's), is new each time.
 */
export const UNIQUE_VARIABLE = 'benchUnique';

/**
 * Requests drawn at random from `requests`, each with a fresh counter in the
 * unused variable: `"benchUnique": "<tag>-<n>"`. The bodies must carry a
 * `variables` object (the resolve and dashboard bodies do); the counter is
 * spliced in as the last entry, without parsing the body again.
 */
export function uniqueRequests<E>(
  requests: readonly PreparedRequest<E>[],
  random: Random,
  tag: string,
): () => PreparedRequest<E> {
  if (requests.length === 0) throw new Error('no requests to make unique');
  const heads = requests.map((request) => {
    const text = request.body.toString('utf8');
    if (!text.endsWith('}}') || !text.includes('"variables":{'))
      throw new Error(`a unique body needs a variables object last: ${text.slice(0, 80)}…`);
    return { head: text.endsWith('{}}') ? text.slice(0, -2) : `${text.slice(0, -2)},`, expect: request.expect };
  });
  let counter = 0;
  return () => {
    const { head, expect } = random.pick(heads);
    return { body: Buffer.from(`${head}"${UNIQUE_VARIABLE}":"${tag}-${++counter}"}}`), expect };
  };
}

export const REGISTER_RESOURCE_QUERY = `mutation RegisterResource($input: RegisterResourceInput!) {
  registerResource(input: $input) { resource { id name } }
}`;

/** registerResource bodies with fresh, unique names, each of a random existing type. */
export function resourceWriteRequests(
  model: RegistryModel,
  random: Random,
  runTag: string,
): () => PreparedRequest<string> {
  let counter = 0;
  return () => {
    const name = `bench-write/${runTag}/resource-${++counter}`;
    const type = random.pick(model.types).name;
    return { body: graphqlBody(REGISTER_RESOURCE_QUERY, { input: { name, type } }), expect: name };
  };
}

/** The registered resource comes back with its name and an id. */
export function verifyResourceWrite(body: string, expectedName: string): string | null {
  const resource = (JSON.parse(body) as { data?: { registerResource?: { resource?: { id?: string; name?: string } } } })
    .data?.registerResource?.resource;
  if (!resource || resource.name !== expectedName)
    return `registerResource returned ${JSON.stringify(resource)}, expected name ${expectedName}`;
  if (typeof resource.id !== 'string' || resource.id.length === 0) return 'registerResource returned no id';
  return null;
}

/** What one churn answer must hold: under which alias, and a check of the aliased value. */
export interface ExpectedChurn {
  readonly alias: string;
  readonly shape: string;
  check(value: unknown): string | null;
}

/** The shapes of the churn load, each with a query text that differs from request to request. */
export const CHURN_SHAPES = [
  'resolveBindings under a fresh alias',
  'a tools page with a literal page size',
  'a resource by its name as a literal',
  'a project and its links by its name as a literal',
] as const;

/**
 * The churn load: unique query texts of several shapes, so that nothing is
 * ever served twice and every cache keeps taking new entries: the response
 * cache (a new body), Apollo's parsed-document cache and the cost memo (a new
 * text: a fresh alias, a literal page size, a literal name), and the
 * server's record cache (resources and projects picked at random over the
 * whole registry). Each body also carries the unused unique variable.
 */
export function churnRequests(
  model: RegistryModel,
  pairs: readonly ResolvePair[],
  random: Random,
  tag: string,
): () => PreparedRequest<ExpectedChurn> {
  const toolNames = model.tools.map((t) => t.name).sort(compareNames);
  let counter = 0;
  const shapes: ((alias: string) => { query: string; variables: Record<string, unknown>; expect: ExpectedChurn })[] = [
    (alias) => {
      const pair = random.pick(pairs);
      return {
        query: `query Churn($tool: String!, $project: String!, $params: [BindingParamInput!]) {
  ${alias}: resolveBindings(tool: $tool, project: $project, params: $params) { slotName bindingMode resourceId resource { name } deferred access }
}`,
        variables: { tool: pair.tool, project: pair.project, params: pair.params.length > 0 ? pair.params : null },
        expect: {
          alias,
          shape: CHURN_SHAPES[0],
          check: (value) => verifyResolve(JSON.stringify({ data: { resolveBindings: value } }), pair.expected),
        },
      };
    },
    (alias) => {
      const start = random.int(0, Math.max(0, toolNames.length - 1));
      const first = random.int(1, DASHBOARD_PAGE_SIZE);
      const edges = Math.min(first, toolNames.length - start);
      return {
        query: `query Churn($after: String) {
  ${alias}: tools(first: ${first}, after: $after) {
    edges { node { id name resourceSlots { name access binding resourceType { name ancestors { name } } staticResource { name } } } }
    pageInfo { hasNextPage endCursor }
  }
}`,
        variables: { after: start === 0 ? null : encodeCursor('tools', toolNames[start - 1]) },
        expect: {
          alias,
          shape: CHURN_SHAPES[1],
          check: (value) => {
            const got = (value as { edges?: { node?: { name?: string } }[] } | null)?.edges;
            if (!Array.isArray(got)) return 'no edges';
            if (got.length !== edges) return `${got.length} tools, expected ${edges}`;
            return got[0]?.node?.name === toolNames[start]
              ? null
              : `page starts at ${got[0]?.node?.name}, expected ${toolNames[start]}`;
          },
        },
      };
    },
    (alias) => {
      const resource = random.pick(model.resources);
      return {
        query: `query Churn {
  ${alias}: resource(ref: ${JSON.stringify(resource.name)}) { id name shortName type { name ancestors { name } } usedBy { links { alias project { name } } staticBindings { slotName tool { name } } } }
}`,
        variables: {},
        expect: {
          alias,
          shape: CHURN_SHAPES[2],
          check: (value) => {
            const got = value as { id?: string; name?: string } | null;
            return got?.id === resource.id && got.name === resource.name
              ? null
              : `got ${JSON.stringify(got)?.slice(0, 100)}, expected ${resource.name}`;
          },
        },
      };
    },
    (alias) => {
      const project = random.pick(model.projects);
      return {
        query: `query Churn {
  ${alias}: project(ref: ${JSON.stringify(project.name)}) { id name resources { alias resource { name type { name ancestors { name } } } } }
}`,
        variables: {},
        expect: {
          alias,
          shape: CHURN_SHAPES[3],
          check: (value) => {
            const got = value as { name?: string; resources?: unknown[] } | null;
            if (got?.name !== project.name) return `got project ${got?.name}, expected ${project.name}`;
            return Array.isArray(got.resources) && got.resources.length === project.links.length
              ? null
              : `${got.resources?.length} links, expected ${project.links.length}`;
          },
        },
      };
    },
  ];
  return () => {
    const n = ++counter;
    const alias = `c${tag.replace(/[^A-Za-z0-9_]/g, '_')}_${n}`;
    const { query, variables, expect } = shapes[n % shapes.length](alias);
    return { body: graphqlBody(query, { ...variables, [UNIQUE_VARIABLE]: `${tag}-${n}` }), expect };
  };
}

/** A churn answer holds the expected value under its alias. */
export function verifyChurn(body: string, expected: ExpectedChurn): string | null {
  const data = (JSON.parse(body) as { data?: Record<string, unknown> }).data;
  if (!data || !(expected.alias in data)) return `no ${expected.alias} in the answer (${expected.shape})`;
  const problem = expected.check(data[expected.alias]);
  return problem === null ? null : `${expected.shape}: ${problem}`;
}
