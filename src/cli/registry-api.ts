/**
 * The registry's GraphQL API as the command-line tools use it: reading what
 * exists under given names, listing the whole registry page by page, and the
 * mutations that register or update each kind of entry.
 */
import type {
  Entry,
  EntryKind,
  ProjectState,
  RegistryState,
  ResourceState,
  StateLookup,
  ToolState,
  TypeState,
  UpdateCommand,
} from '../registry-files';
import type { GraphQLClient, GraphQLError, GraphQLResponse } from './client';

/** What each kind of thing is read as: the fields its state needs, names only. */
const SELECTIONS = {
  resourceType: 'name description parentTypes { name }',
  resource: 'name description type { name }',
  project: 'name description resources { alias resource { name } }',
  tool: 'name description resourceSlots { name access binding required resourceType { name } staticResource { name } }',
} as const;

type Named = { name: string };
type TypeNode = Named & { description: string | null; parentTypes: Named[] };
type ResourceNode = Named & { description: string | null; type: Named };
type ProjectNode = Named & { description: string | null; resources: { alias: string | null; resource: Named }[] };
type ToolNode = Named & {
  description: string | null;
  resourceSlots: (Omit<ToolState['resourceSlots'][number], 'resourceType' | 'staticResource'> & {
    resourceType: Named;
    staticResource: Named | null;
  })[];
};

const typeState = (t: TypeNode): TypeState => ({
  name: t.name,
  description: t.description,
  parentTypes: t.parentTypes.map((p) => p.name),
});
const resourceState = (r: ResourceNode): ResourceState => ({
  name: r.name,
  type: r.type.name,
  description: r.description,
});
const projectState = (p: ProjectNode): ProjectState => ({
  name: p.name,
  description: p.description,
  links: p.resources.map((l) => ({ resource: l.resource.name, alias: l.alias })),
});
const toolState = (t: ToolNode): ToolState => ({
  name: t.name,
  description: t.description,
  resourceSlots: t.resourceSlots.map((s) => ({
    name: s.name,
    resourceType: s.resourceType.name,
    access: s.access,
    binding: s.binding,
    staticResource: s.staticResource?.name ?? null,
    required: s.required,
  })),
});

/** The state kinds a lookup answers, with their root field and how a node becomes a state. */
const KINDS = {
  resourceType: { field: 'resourceType', state: typeState },
  resource: { field: 'resource', state: resourceState },
  project: { field: 'project', state: projectState },
  tool: { field: 'tool', state: toolState },
} as const;
export type StateKind = keyof typeof KINDS;

/** The state an entry is compared with: its own kind and name, or a link's project. */
export function stateOf(entry: Entry): [StateKind, string] {
  return entry.kind === 'link' ? ['project', entry.input.project] : [entry.kind, entry.input.name];
}

/**
 * The kinds of which the registry holds nothing now (one request): a name of
 * such a kind needs no lookup, since it names nothing.
 */
export async function emptyKinds(client: GraphQLClient): Promise<Set<StateKind> | { error: GraphQLError }> {
  const { data, errors } = await client.request<Record<string, { totalCount: number }>>(
    'query Counts { resourceType: resourceTypes(first: 1) { totalCount } resource: resources(first: 1) { totalCount } ' +
      'project: projects(first: 1) { totalCount } tool: tools(first: 1) { totalCount } }',
  );
  if (errors || !data) return { error: errors?.[0] ?? { message: 'no data in the response' } };
  return new Set((Object.keys(KINDS) as StateKind[]).filter((kind) => data[kind]?.totalCount === 0));
}

/**
 * Reads what the registry holds under the names the entries use (a link
 * reads its project), in batched requests. The lookup answers undefined for
 * a name that was not read.
 */
export async function readStates(
  client: GraphQLClient,
  entries: readonly Entry[],
  none: ReadonlySet<StateKind> = new Set(),
): Promise<{ lookup: StateLookup } | { error: GraphQLError }> {
  const wanted: { kind: StateKind; name: string }[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const [kind, name] = stateOf(entry);
    if (seen.has(`${kind}\u0000${name}`) || none.has(kind)) continue;
    seen.add(`${kind}\u0000${name}`);
    wanted.push({ kind, name });
  }
  const read = await client.readMany<unknown>(
    wanted.map(({ kind, name }) => ({
      field: KINDS[kind].field,
      argName: 'ref',
      argType: 'String!',
      value: name,
      selection: SELECTIONS[kind],
    })),
  );
  if ('error' in read) return read;
  const found = new Map<string, unknown>();
  wanted.forEach(({ kind, name }, i) => {
    const node = read.values[i];
    found.set(`${kind}\u0000${name}`, node === null ? null : (KINDS[kind].state as (n: unknown) => unknown)(node));
  });
  const get =
    <T>(kind: StateKind) =>
    (name: string) =>
      (none.has(kind) ? null : found.get(`${kind}\u0000${name}`)) as T | null | undefined;
  return {
    lookup: {
      resourceType: get<TypeState>('resourceType'),
      resource: get<ResourceState>('resource'),
      project: get<ProjectState>('project'),
      tool: get<ToolState>('tool'),
    },
  };
}

/** Page size of the listings (the API's largest). */
const PAGE_SIZE = 100;

/** Every resource type, resource, project (with its links) and tool, each in the API's order (by name). */
export async function readRegistry(
  client: GraphQLClient,
  onPage: PageProgress = () => {},
): Promise<RegistryState | { error: GraphQLError }> {
  const resourceTypes = await listAll<TypeNode>(client, 'resourceTypes', SELECTIONS.resourceType, onPage);
  if ('error' in resourceTypes) return resourceTypes;
  const resources = await listAll<ResourceNode>(client, 'resources', SELECTIONS.resource, onPage);
  if ('error' in resources) return resources;
  const projects = await listAll<ProjectNode>(client, 'projects', SELECTIONS.project, onPage);
  if ('error' in projects) return projects;
  const tools = await listAll<ToolNode>(client, 'tools', SELECTIONS.tool, onPage);
  if ('error' in tools) return tools;
  return {
    resourceTypes: resourceTypes.map(typeState),
    resources: resources.map(resourceState),
    projects: projects.map(projectState),
    tools: tools.map(toolState),
  };
}

/**
 * How many edits the registry has committed (the change log's size): equal
 * before and after a read, nothing changed in between.
 */
export async function committedEdits(client: GraphQLClient): Promise<number | { error: GraphQLError }> {
  const { data, errors } = await client.request<{ changes: { totalCount: number } }>(
    'query Edits { changes(first: 1) { totalCount } }',
  );
  if (errors || !data) return { error: errors?.[0] ?? { message: 'no data in the response' } };
  return data.changes.totalCount;
}

/** Told after each page: the connection, the items read of it so far, and its total. */
export type PageProgress = (connection: string, read: number, total: number) => void;

/** One page of a connection, as listAll asks for it. */
interface Page<T> {
  totalCount: number;
  edges: { node: T }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** Follows a connection's cursors to its end. */
async function listAll<T>(
  client: GraphQLClient,
  connection: string,
  selection: string,
  onPage: PageProgress,
): Promise<T[] | { error: GraphQLError }> {
  const items: T[] = [];
  let after: string | null = null;
  for (;;) {
    const response: GraphQLResponse<Record<string, Page<T>>> = await client.request(
      `query List($after: String) { ${connection}(first: ${PAGE_SIZE}, after: $after) { totalCount edges { node { ${selection} } } pageInfo { hasNextPage endCursor } } }`,
      { after },
    );
    const page = response.data?.[connection];
    if (response.errors || !page) return { error: response.errors?.[0] ?? { message: 'no data in the response' } };
    items.push(...page.edges.map((e) => e.node));
    onPage(connection, items.length, page.totalCount);
    if (!page.pageInfo.hasNextPage || page.pageInfo.endCursor === null) return items;
    after = page.pageInfo.endCursor;
  }
}

/** A slot's outcome on one side of a binding change. */
export interface SlotOutcome {
  status: 'BOUND' | 'DEFERRED' | 'FAILED' | 'UNBOUND_OPTIONAL' | 'ABSENT';
  reason: string | null;
  resourceId: string | null;
  resourceName: string | null;
}

/** What a mutation does (or would do) to bindings, as its payload reports it. */
export interface BindingImpact {
  totalCount: number;
  truncated: boolean;
  complete: boolean;
  changes: {
    toolName: string;
    projectName: string | null;
    slotName: string;
    before: SlotOutcome;
    after: SlotOutcome;
  }[];
}

/** What every mutation's payload is read for. */
export interface ChangePayload {
  registryVersion: number;
  dryRun: boolean;
  impact: BindingImpact;
}

const OUTCOME = 'status reason resourceId resourceName';
const PAYLOAD = `registryVersion dryRun impact { totalCount truncated complete changes { toolName projectName slotName before { ${OUTCOME} } after { ${OUTCOME} } } }`;

/** The mutation that registers each kind of entry, and its input type. */
const REGISTER: Record<EntryKind, { operation: string; inputType: string }> = {
  resourceType: { operation: 'registerResourceType', inputType: 'RegisterResourceTypeInput' },
  resource: { operation: 'registerResource', inputType: 'RegisterResourceInput' },
  project: { operation: 'createProject', inputType: 'CreateProjectInput' },
  link: { operation: 'linkResource', inputType: 'LinkResourceInput' },
  tool: { operation: 'registerTool', inputType: 'RegisterToolInput' },
};

/** The mutation that updates each kind of entry, and its input type. */
const UPDATE: Record<EntryKind, { operation: string; inputType: string }> = {
  resourceType: { operation: 'updateResourceType', inputType: 'UpdateResourceTypeInput' },
  resource: { operation: 'updateResource', inputType: 'UpdateResourceInput' },
  project: { operation: 'updateProject', inputType: 'UpdateProjectInput' },
  link: { operation: 'updateLink', inputType: 'UpdateLinkInput' },
  tool: { operation: 'updateTool', inputType: 'UpdateToolInput' },
};

/** What registerBatch says of a batch that registered. */
export interface BatchPayload {
  registryVersion: number;
  impact: BindingImpact;
}

/** The most entries the server takes in one registerBatch. */
export const BATCH_ENTRIES = 1_000;

/**
 * Registers entries in one transaction (registerBatch), all or none. A
 * failing entry's error carries its index (`extensions.entry`). `key` names
 * the batch; with `after`, it runs only right after the batch of that key.
 */
export async function registerBatch(
  client: GraphQLClient,
  entries: readonly Entry[],
  order: { readonly key?: string; readonly after?: string } = {},
): Promise<{ payload: BatchPayload } | { error: GraphQLError }> {
  const { data, errors } = await client.request<{ registerBatch: BatchPayload | null }>(
    `mutation Batch($i: RegisterBatchInput!) { registerBatch(input: $i) { registryVersion impact { totalCount truncated complete changes { toolName projectName slotName before { ${OUTCOME} } after { ${OUTCOME} } } } } }`,
    { i: { entries: entries.map((entry) => ({ [entry.kind]: entry.input })), ...order } },
  );
  const payload = data?.registerBatch;
  if (errors || !payload) return { error: errors?.[0] ?? { message: 'no data in the response' } };
  return { payload };
}

/** Registers an entry (with dryRun, only checks it and computes its impact). */
export function register(client: GraphQLClient, entry: Entry, dryRun: boolean) {
  return change(client, REGISTER[entry.kind], entry.input, dryRun);
}

/** Sends an update that makes the registry match an entry (with dryRun, only checks it and computes its impact). */
export function update(client: GraphQLClient, command: UpdateCommand, dryRun: boolean) {
  return change(client, UPDATE[command.kind], command.input, dryRun);
}

async function change(
  client: GraphQLClient,
  { operation, inputType }: { operation: string; inputType: string },
  input: object,
  dryRun: boolean,
): Promise<{ payload: ChangePayload } | { error: GraphQLError }> {
  const { data, errors } = await client.request<Record<string, ChangePayload | null>>(
    `mutation Change($i: ${inputType}!, $dryRun: Boolean!) { ${operation}(input: $i, dryRun: $dryRun) { ${PAYLOAD} } }`,
    { i: input, dryRun },
  );
  const payload = data?.[operation];
  if (errors || !payload) return { error: errors?.[0] ?? { message: 'no data in the response' } };
  return { payload };
}
