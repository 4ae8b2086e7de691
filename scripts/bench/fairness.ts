/**
 * The fairness load (issue 11, item 7): does one kind of allowed request
 * monopolise the server? A trivial query's p50 is measured idle, then while 10
 * connections send the most expensive requests the server accepts.
 *
 * "Most expensive allowed" is worked out from the current limits, not fixed
 * here: each candidate shape is sized with the server's own cost estimate
 * (src/engine/admission/: QUERY_LIMITS and estimateCost, run on the
 * schema the server introspects) to the largest size under the cost limit,
 * then sent once to check the server accepts it (halving its size while it
 * refuses), then timed; the slowest per request is the one the load sends.
 */
import { buildClientSchema, getIntrospectionQuery, parse, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { LIMITS } from '../../src/core/grammar';
import { estimateCost, QUERY_LIMITS } from '../../src/engine/admission';
import { encodeCursor } from '../../src/graphql/pagination';
import { NO_CACHE } from './loads';
import type { RegistryModel } from './model';
import { compareNames } from '../../src/core/type-hierarchy';
import { graphqlBody } from './workloads';

/** The trivial query whose p50 the fairness load watches. */
export const TRIVIAL_QUERY = '{ __typename }';

/** One shape of expensive request, sized by one number (monotone in cost). */
interface CandidateShape {
  readonly name: string;
  /** The largest size the schema's argument rules allow. */
  readonly maxSize: number;
  /** The query text at a size. */
  build(size: number): string;
  /** What a size means, for the report. */
  describe(size: number): string;
}

/** An expensive request the server accepts, as sized and timed. */
export interface FairnessCandidate {
  readonly name: string;
  readonly size: string;
  /** The server's cost estimate (the limit is QUERY_LIMITS.cost). */
  readonly cost: number | null;
  /** Median of a few sequential requests, past the response cache. */
  readonly ms: number;
  readonly bytes: number;
  readonly query: string;
}

/** Candidates that could not be used, and why. */
export interface FairnessChoice {
  readonly costLimit: number;
  readonly candidates: FairnessCandidate[];
  readonly dropped: { readonly name: string; readonly reason: string }[];
  /** The slowest candidate: what the 10 connections send. */
  readonly chosen: FairnessCandidate;
}

/** The schema the server serves, read by introspection. */
export async function introspectSchema(url: string): Promise<GraphQLSchema> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...NO_CACHE },
    body: graphqlBody(getIntrospectionQuery()),
  });
  const body = (await response.json()) as { data?: IntrospectionQuery; errors?: unknown };
  if (!body.data) throw new Error(`introspection failed (${response.status}): ${JSON.stringify(body.errors)}`);
  return buildClientSchema(body.data);
}

const SLOT_SELECTION = `name access binding required
  resourceType { name ancestors { name } parentTypes { name } }
  staticResource { name type { name ancestors { name } } usedBy { links { alias project { name } } staticBindings { slotName tool { name } } } }`;

/** The shapes: aliased tools pages, the binding matrix, nodes by many ids, and one full introspection. */
function candidateShapes(model: RegistryModel): CandidateShape[] {
  const tools = model.tools.map((t) => t.name).sort(compareNames);
  const pageSize = LIMITS.pageSize;
  const ids = interleave([
    model.projects.map((p) => p.id),
    model.tools.map((t) => t.id),
    model.types.map((t) => t.id),
    model.resources.map((r) => r.id),
  ]);
  return [
    {
      // Size n is the number of tools asked for, in aliased pages of up to 100 (the last one partial).
      name: 'tools pages (aliased)',
      maxSize: QUERY_LIMITS.aliases * pageSize,
      describe: (n) => {
        const pages = Math.ceil(n / pageSize);
        return `${n} tools in ${pages} × tools(first: ≤ ${Math.min(n, pageSize)}) with slots, types, ancestors, static resources and usedBy`;
      },
      build: (n) =>
        `{ ${Array.from({ length: Math.ceil(n / pageSize) }, (_, k) => {
          // Successive pages, starting again from the first when a small registry has fewer tools.
          const first = Math.min(pageSize, n - k * pageSize);
          const start = (k * pageSize) % Math.max(1, tools.length);
          const after = start === 0 ? '' : `, after: ${JSON.stringify(encodeCursor('tools', tools[start - 1]))}`;
          return `p${k}: tools(first: ${first}${after}) { edges { node { id name resourceSlots { ${SLOT_SELECTION} } } } }`;
        }).join('\n')} }`,
    },
    {
      name: 'projects with usedBy',
      maxSize: pageSize,
      describe: (n) => `projects(first: ${n}) with every linked resource, its type's ancestors and its usedBy`,
      build: (n) =>
        `{ projects(first: ${n}) { edges { node { name resources { alias resource { name type { name ancestors { name } } usedBy { links { alias project { name } } staticBindings { slotName tool { name } } } } } } } } }`,
    },
    {
      // Sizes 1–100 grow the projects page with a 1-tool page, then 101–199 grow the tools page with 100 projects.
      name: 'bindingMatrix',
      maxSize: 2 * pageSize - 1,
      describe: (n) => {
        const [projects, toolsFirst] = matrixSides(n, pageSize);
        return `bindingMatrix(projectsFirst: ${projects}, toolsFirst: ${toolsFirst}) with every cell`;
      },
      build: (n) => {
        const [projects, toolsFirst] = matrixSides(n, pageSize);
        return `{ bindingMatrix(projectsFirst: ${projects}, toolsFirst: ${toolsFirst}) {
  projects { nodes { id name } } tools { nodes { id name } }
  cells { projectId toolId status failedSlots reasons }
} }`;
      },
    },
    {
      name: 'nodes by id',
      maxSize: Math.min(pageSize, ids.length),
      describe: (n) => `nodes(ids: ${n} ids of projects, tools, types and resources) with their links, slots and types`,
      build: (n) => `{ nodes(ids: ${JSON.stringify(ids.slice(0, n))}) {
  id
  ... on Project { name resources { alias resource { name type { name ancestors { name } } usedBy { links { alias } } } } }
  ... on Tool { name resourceSlots { ${SLOT_SELECTION} } }
  ... on ResourceType { name ancestors { name } subtypes { name } compatibleResources(first: ${pageSize}) { edges { node { name type { name } } } } }
  ... on Resource { name type { name ancestors { name } } usedBy { links { alias project { name } } staticBindings { slotName tool { name } } } }
} }`,
    },
    {
      name: 'full introspection',
      maxSize: 1,
      describe: () => "graphql-js's getIntrospectionQuery(), once",
      build: () => getIntrospectionQuery(),
    },
  ];
}

function matrixSides(n: number, pageSize: number): [number, number] {
  return n <= pageSize ? [n, 1] : [pageSize, n - pageSize + 1];
}

function interleave(lists: string[][]): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < LIMITS.pageSize && lists.some((l) => i < l.length); i++)
    for (const list of lists) if (i < list.length) out.push(list[i]);
  return out;
}

/** The cost estimate of a query text, or null when it does not parse or coerce. */
function costOf(schema: GraphQLSchema, query: string): number | null {
  try {
    return estimateCost(schema, parse(query), undefined, {});
  } catch {
    return null;
  }
}

/** The largest size whose cost is within the limit (binary search; cost grows with size), or null when none is. */
function largestAllowed(schema: GraphQLSchema, shape: CandidateShape): number | null {
  const fits = (size: number) => {
    const cost = costOf(schema, shape.build(size));
    return cost !== null && cost <= QUERY_LIMITS.cost;
  };
  if (!fits(1)) return null;
  let low = 1;
  let high = shape.maxSize;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** One request past the response cache: its status, body and time. */
async function send(url: string, query: string): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...NO_CACHE },
    body: graphqlBody(query),
  });
  const body = await response.text();
  return { status: response.status, body, ms: performance.now() - started };
}

/** Untimed runs of each candidate before it is timed (see chooseExpensiveRequests). */
const WARM_RUNS = 3;

/** Sizes every shape to the limits, checks the server accepts it, times it warm, and picks the slowest. */
export async function chooseExpensiveRequests(url: string, model: RegistryModel, timings = 3): Promise<FairnessChoice> {
  const schema = await introspectSchema(url);
  const candidates: FairnessCandidate[] = [];
  const dropped: FairnessChoice['dropped'] = [];
  for (const shape of candidateShapes(model)) {
    let size = largestAllowed(schema, shape);
    if (size === null) {
      dropped.push({ name: shape.name, reason: `over the cost limit (${QUERY_LIMITS.cost}) at its smallest size` });
      continue;
    }
    // The server may refuse what the estimate allows (another limit: depth, aliases, tokens, introspection rules).
    let accepted: { status: number; body: string } | null = null;
    let refusal = '';
    for (;;) {
      const answer = await send(url, shape.build(size));
      if (answer.status === 200 && !answer.body.includes('"errors"')) {
        accepted = answer;
        break;
      }
      refusal = `HTTP ${answer.status}: ${answer.body.slice(0, 200)}`;
      if (size === 1) break;
      size = Math.max(1, Math.floor(size / 2));
    }
    if (!accepted) {
      dropped.push({ name: shape.name, reason: `refused by the server (${refusal})` });
      continue;
    }
    const query = shape.build(size);
    // Timed warm, as the load will run it: a query is compiled at its second run, and a page's kept parts are
    // computed at its first compiled run (page assembly), so the first runs are slower than every later one.
    for (let i = 0; i < WARM_RUNS; i++) await send(url, query);
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < timings; i++) {
      const answer = await send(url, query);
      times.push(answer.ms);
      bytes = Buffer.byteLength(answer.body);
    }
    times.sort((a, b) => a - b);
    candidates.push({
      name: shape.name,
      size: shape.describe(size),
      cost: costOf(schema, query),
      ms: times[Math.floor(times.length / 2)],
      bytes,
      query,
    });
  }
  if (candidates.length === 0)
    throw new Error(`no expensive request is allowed: ${dropped.map((d) => `${d.name}: ${d.reason}`).join('; ')}`);
  const chosen = candidates.reduce((slowest, c) => (c.ms > slowest.ms ? c : slowest));
  return { costLimit: QUERY_LIMITS.cost, candidates, dropped, chosen };
}
