import { registryOf } from './registry-fixtures';
import type { TestServer } from './server';

/**
 * A realistic session of a client app against the registry, the same for
 * every client library under test: it resolves and explains bindings, pages
 * the tools, projects and resources connections, refetches by node id, reads
 * what uses a resource, the binding matrix and the change log (each with two
 * selections, as two views of an app would ask), previews and makes changes
 * whose impact it shows (one that unlinks, one that drops a slot: lists
 * shrink), then asks everything again.
 */

/** How the session talks to the server: through the client under test. */
export interface ClientUnderTest {
  query(document: string, variables?: Record<string, unknown>): Promise<any>;
  mutate(document: string, variables?: Record<string, unknown>): Promise<any>;
}

/** The registry the session works on. */
export async function buildSessionRegistry(server: TestServer): Promise<void> {
  const r = registryOf(server);
  await r.type('vcs');
  await r.type('database');
  await r.type('git', ['vcs']);
  await r.resource('ac/repo', 'git');
  await r.resource('ac/other', 'vcs');
  await r.resource('ac/db', 'database');
  await r.resource('ac/out', 'database');
  await r.project('ac');
  await r.project('bc');
  await r.link('ac', 'ac/repo', 'code');
  await r.link('ac', 'ac/db');
  await r.link('ac', 'ac/other');
  await r.link('bc', 'ac/other');
  await r.tool('ac/tool', [
    { name: 'code', resourceType: 'vcs' },
    { name: 'db', resourceType: 'database' },
    { name: 'static', resourceType: 'database', binding: 'STATIC', staticResource: 'ac/db' },
    { name: 'out', resourceType: 'database', binding: 'PARAMETER' },
  ]);
  await r.tool('ac/lint', [{ name: 'code', resourceType: 'vcs', required: false }]);
  await r.tool('bc/tool', [{ name: 'repo', resourceType: 'git' }]);
}

const SLOT = `id name binding required resourceType { id name } staticResource { id name }`;
const OUTCOME = `status reason resourceId resourceName`;
const CHANGE = `id toolId toolName projectId projectName slotName before { ${OUTCOME} } after { ${OUTCOME} }`;
const IMPACT = `impact { totalCount truncated complete changes { ${CHANGE} } }`;

export const OPERATIONS = {
  resolve: `query Resolve($params: [BindingParamInput!]) {
    resolveBindings(tool: "ac/tool", project: "ac", params: $params) {
      id slotName bindingMode resourceId resource { id name } deferred access } }`,
  explain: `query Explain { explainBindings(tool: "ac/tool", project: "ac") { id ok tool { id name } project { id name }
    slots { id slotName bindingMode status reason how message fix resource { id name }
      candidates { id ref alias accepted rejection typeChain message resource { id name } } } } }`,
  explainBrief: `query ExplainBrief { explainBindings(tool: "ac/tool", project: "ac") { id ok slots { id slotName status } } }`,
  bindingsIn: `query BindingsIn { tool(ref: "ac/tool") { id name bindingsIn(project: "ac") { id ok slots { id status how } } } }`,
  tools: `query Tools($after: String) { tools(first: 2, after: $after) { totalCount
    edges { cursor node { id name resourceSlots { ${SLOT} } } } pageInfo { hasNextPage endCursor } } }`,
  projects: `query Projects($after: String) { projects(first: 1, after: $after) { totalCount
    edges { cursor node { id name resources { id alias resource { id name } } } } pageInfo { hasNextPage endCursor } } }`,
  resources: `query Resources($after: String) { resources(first: 2, after: $after) { totalCount
    edges { cursor node { id name shortName type { id name ancestors { id name } }
      usedBy { id links { id alias project { id name } } staticBindings { id slotName tool { id name } } } } }
    pageInfo { hasNextPage endCursor } } }`,
  node: `query Node($id: ID!) { node(id: $id) { id ... on Tool { name resourceSlots { id name required } } } }`,
  usedByLinks: `query UsedByLinks { resource(ref: "ac/other") { id usedBy { id links { id alias project { id } } } } }`,
  usedByStatic: `query UsedByStatic { resource(ref: "ac/db") { id usedBy { id staticBindings { id slotName tool { id } } } } }`,
  matrix: `query Matrix { bindingMatrix { projects { totalCount nodes { id name } pageInfo { hasNextPage endCursor } }
    tools { totalCount nodes { id name } pageInfo { hasNextPage endCursor } } cells { id projectId toolId status failedSlots reasons } } }`,
  matrixCells: `query MatrixCells { bindingMatrix { cells { id status } } }`,
  changes: `query Changes { changes(last: 2) { totalCount edges { cursor node { id version at actor operation kind entityName
    summary impactCount impactComplete bindingChanges { ${CHANGE} } } } pageInfo { hasPreviousPage startCursor } } }`,
  changesBrief: `query ChangesBrief { changes(last: 4) { edges { node { id bindingChanges { id slotName after { status } } } } } }`,
  validate: `query Validate { validateTool(input: { name: "new/tool", resourceSlots: [
      { name: "a", resourceType: "nope" }, { name: "b", resourceType: "vcs", binding: STATIC } ] }) { slot field message } }`,
  previewLink: `mutation PreviewLink { linkResource(input: { project: "bc", resource: "ac/repo" }, dryRun: true) {
    dryRun registryVersion ${IMPACT} } }`,
  unlink: `mutation Unlink { unlinkResource(input: { project: "ac", resource: "ac/repo" }) { registryVersion
    project { id name resources { id alias resource { id name } } } ${IMPACT} } }`,
  dropSlot: `mutation DropSlot { updateTool(input: { ref: "ac/tool", name: "ac/tool", resourceSlots: [
      { name: "code", resourceType: "vcs" }, { name: "db", resourceType: "database" },
      { name: "out", resourceType: "database", binding: PARAMETER } ] }) { registryVersion
    tool { id name resourceSlots { ${SLOT} } } ${IMPACT} } }`,
  unlinkOther: `mutation UnlinkOther { unlinkResource(input: { project: "bc", resource: "ac/other" }) { registryVersion
    project { id resources { id alias } } ${IMPACT} } }`,
} as const;

/** What the session saw, for the tests to check beyond the warnings. */
export interface SessionSummary {
  /** Tool names over every page of `tools`, as the last page's answer showed them. */
  readonly lastToolsPage: string[];
  readonly explanationId: string;
  readonly unlinkImpactIds: string[];
  readonly loggedChangeIds: string[];
}

/** Every query the session reads, with the variables of each page it asks. */
async function readEverything(client: ClientUnderTest): Promise<{ lastToolsPage: string[] }> {
  await client.query(OPERATIONS.resolve, { params: null });
  await client.query(OPERATIONS.resolve, { params: [{ slot: 'out', resource: 'ac/out' }] });
  await client.query(OPERATIONS.explain);
  await client.query(OPERATIONS.explainBrief);
  await client.query(OPERATIONS.bindingsIn);
  let lastToolsPage: string[] = [];
  for (const [name, document] of [
    ['tools', OPERATIONS.tools],
    ['projects', OPERATIONS.projects],
    ['resources', OPERATIONS.resources],
  ] as const) {
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const data: any = await client.query(document, { after });
      const connection = data[name];
      if (name === 'tools') lastToolsPage = connection.edges.map((e: any) => e.node.name);
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
  }
  const tool = (await client.query(OPERATIONS.bindingsIn)).tool;
  await client.query(OPERATIONS.node, { id: tool.id });
  await client.query(OPERATIONS.usedByLinks);
  await client.query(OPERATIONS.usedByStatic);
  await client.query(OPERATIONS.matrix);
  await client.query(OPERATIONS.matrixCells);
  await client.query(OPERATIONS.changes);
  await client.query(OPERATIONS.changesBrief);
  await client.query(OPERATIONS.validate);
  return { lastToolsPage };
}

/** Runs the session: everything read, then previewed and changed, then everything read again. */
export async function runSession(client: ClientUnderTest): Promise<SessionSummary> {
  await readEverything(client);
  const explanationId = (await client.query(OPERATIONS.explainBrief)).explainBindings.id;
  await client.mutate(OPERATIONS.previewLink);
  const unlink = (await client.mutate(OPERATIONS.unlink)).unlinkResource;
  const log = (await client.query(OPERATIONS.changes)).changes;
  await readEverything(client);
  await client.mutate(OPERATIONS.dropSlot);
  await client.mutate(OPERATIONS.unlinkOther);
  const { lastToolsPage } = await readEverything(client);
  return {
    lastToolsPage,
    explanationId,
    unlinkImpactIds: unlink.impact.changes.map((c: any) => c.id),
    loggedChangeIds: log.edges.flatMap((e: any) => e.node.bindingChanges.map((c: any) => c.id)),
  };
}
