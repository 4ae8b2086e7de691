import { expect } from 'chai';
import fc from 'fast-check';
import { describeEachBackend } from '../support/backends';
import { databaseDigest } from '../support/digest';
import { propertyCases } from '../support/property';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

// --- generators: valid values from small pools (so names collide), and hostile ones ---------------
const hostile = fc.oneof(
  fc.constant(''),
  fc.constant('01ARZ3NDEKTSV4RRFFQ69G5FAV'),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom(
    'a\u0000b',
    'tab\there',
    'new\nline',
    '\u007f',
    '\ud800',
    'é/ü',
    ' x',
    'x/',
    '/x',
    'a//b',
    'UPPER',
    '-x',
    '_x',
    '9x',
  ),
  fc.constantFrom(
    'a'.repeat(64),
    'a'.repeat(65),
    'a'.repeat(100),
    'a'.repeat(101),
    'a'.repeat(200),
    'a'.repeat(201),
    'x'.repeat(5000),
  ),
);
const typeName = fc.oneof(fc.constantFrom('t-root', 't-mid', 't-leaf', 't-other', 't-new', 'ghost-type'), hostile);
const resourceName = fc.oneof(
  fc.constantFrom('r/root', 'r/mid', 'r/leaf', 'r/other', 'r/new', 'x/repo', 'ghost/none'),
  hostile,
);
const projectName = fc.oneof(fc.constantFrom('p1', 'p2', 'p-new', 'ghost'), hostile);
const toolName = fc.oneof(fc.constantFrom('tool/a', 'tool/b', 'tool/new'), hostile);
const slotName = fc.oneof(fc.constantFrom('repo', 'config', 'out', '_x'), hostile);
const description = fc.option(fc.oneof(fc.string({ maxLength: 30 }), hostile), { nil: null });
const slotInput = fc.record(
  {
    name: slotName,
    resourceType: typeName,
    access: fc.constantFrom('READ_ONLY', 'READ_WRITE', 'WRITE_ONLY'),
    binding: fc.constantFrom('CONTEXTUAL', 'STATIC', 'PARAMETER'),
    staticResource: fc.option(resourceName, { nil: null }),
    required: fc.boolean(),
  },
  { requiredKeys: ['name', 'resourceType'] },
);
const slotList = fc.oneof(
  fc.array(slotInput, { maxLength: 4 }),
  fc.constant([]),
  fc.array(slotInput, { minLength: 65, maxLength: 66 }),
);

/** One mutation call: the document and its variables (some with fields left out on purpose). */
const mutation = fc.oneof(
  fc
    .record({
      name: typeName,
      description,
      parentTypes: fc.option(
        fc.oneof(fc.array(typeName, { maxLength: 3 }), fc.array(typeName, { minLength: 33, maxLength: 34 })),
        { nil: null },
      ),
    })
    .map((i) => ({
      query: 'mutation($i: RegisterResourceTypeInput!) { registerResourceType(input: $i) { resourceType { id } } }',
      variables: { i },
    })),
  fc.record({ name: resourceName, type: typeName, description }, { requiredKeys: ['name'] }).map((i) => ({
    query: 'mutation($i: RegisterResourceInput!) { registerResource(input: $i) { resource { id } } }',
    variables: { i },
  })),
  fc.record({ name: projectName, description }).map((i) => ({
    query: 'mutation($i: CreateProjectInput!) { createProject(input: $i) { project { id } } }',
    variables: { i },
  })),
  fc.record({ project: projectName, resource: resourceName, alias: fc.option(slotName, { nil: null }) }).map((i) => ({
    query: 'mutation($i: LinkResourceInput!) { linkResource(input: $i) { project { id } } }',
    variables: { i },
  })),
  fc.record({ project: projectName, resource: resourceName }).map((i) => ({
    query: 'mutation($i: UnlinkResourceInput!) { unlinkResource(input: $i) { project { id } } }',
    variables: { i },
  })),
  fc.record({ name: toolName, description, resourceSlots: slotList }, { requiredKeys: ['name'] }).map((i) => ({
    query: 'mutation($i: RegisterToolInput!) { registerTool(input: $i) { tool { id } } }',
    variables: { i },
  })),
  fc.record({ name: toolName, description, resourceSlots: slotList }).map((i) => ({
    query: 'mutation($i: UpdateToolInput!) { updateTool(input: $i) { tool { id } } }',
    variables: { i },
  })),
  toolName.map((ref) => ({
    query: 'mutation($r: String!) { unregisterTool(ref: $r) { deletedId } }',
    variables: { r: ref },
  })),
  resourceName.map((ref) => ({
    query: 'mutation($r: String!) { deleteResource(ref: $r) { deletedId } }',
    variables: { r: ref },
  })),
  typeName.map((ref) => ({
    query: 'mutation($r: String!) { deleteResourceType(ref: $r) { deletedId } }',
    variables: { r: ref },
  })),
  projectName.map((ref) => ({
    query: 'mutation($r: String!) { deleteProject(ref: $r) { deletedId } }',
    variables: { r: ref },
  })),
);

describeEachBackend('bad input never breaks the registry (property-based)', (backend) => {
  let server: TestServer;
  const cases = backend.name === 'sqlite' ? propertyCases(1200, 42) : propertyCases(1000, 42);
  const runs = cases.numRuns;

  before(async () => {
    server = await startServer(backend);
    const r = registryOf(server);
    await r.type('t-root');
    await r.type('t-mid', ['t-root']);
    await r.type('t-leaf', ['t-mid']);
    await r.type('t-other');
    for (const [name, type] of [
      ['r/root', 't-root'],
      ['r/mid', 't-mid'],
      ['r/leaf', 't-leaf'],
      ['r/other', 't-other'],
      ['x/repo', 't-leaf'],
    ])
      await r.resource(name, type);
    await r.project('p1');
    await r.project('p2');
    await r.link('p1', 'r/leaf', 'repo');
    await r.tool('tool/a', [{ name: 'config', resourceType: 't-root', binding: 'STATIC', staticResource: 'r/mid' }]);
  });
  after(() => server.close());

  // Every table, the change log and the version row included: a rejected call stores, versions and logs nothing.
  const digest = () => databaseDigest(server);

  it(`survives generated mutations: no 5xx, no stack, rejected calls change nothing (${cases.label})`, async function () {
    this.timeout(300_000);
    let before = await digest();
    const tally: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(mutation, async ({ query, variables }) => {
        const response = await fetch(server.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query, variables }),
        });
        const text = await response.text();
        expect(response.status, text).to.be.below(500);
        expect(text).to.not.match(/\n\s+at |stacktrace|SQLITE_|QueryFailedError|violates|node_modules/);
        const body = JSON.parse(text);
        const code: string = body.errors?.[0]?.extensions?.code ?? 'OK';
        tally[code] = (tally[code] ?? 0) + 1;
        expect(code, text).to.not.equal('INTERNAL_SERVER_ERROR');
        const after = await digest();
        if (code !== 'OK')
          expect(
            after,
            `rejected (${code}) but the database changed: ${query} ${JSON.stringify(variables).slice(0, 300)}`,
          ).to.equal(before);
        before = after;
      }),
      { numRuns: runs, seed: cases.seed, endOnFailure: true },
    );
    // The generator must have exercised both outcomes, and several kinds of refusal.
    expect(tally.OK ?? 0, JSON.stringify(tally)).to.be.greaterThan(20);
    expect(Object.keys(tally).length, JSON.stringify(tally)).to.be.at.least(5);
  });

  it('keeps the invariants: every static binding points at an existing, compatible resource; no type is its own ancestor', async () => {
    const d = await server.data(`{
      tools(first: 100) { edges { node { name resourceSlots { binding resourceType { name } staticResource { name type { name ancestors { name } } } } } } }
      resourceTypes(first: 100) { edges { node { name ancestors { name } } } }
    }`);
    for (const { node: tool } of d.tools.edges) {
      for (const slot of tool.resourceSlots) {
        if (slot.binding !== 'STATIC') {
          expect(slot.staticResource, tool.name).to.equal(null);
          continue;
        }
        expect(slot.staticResource, tool.name).to.not.equal(null);
        const reach = [
          slot.staticResource.type.name,
          ...slot.staticResource.type.ancestors.map((t: { name: string }) => t.name),
        ];
        expect(reach, tool.name).to.include(slot.resourceType.name);
      }
    }
    for (const { node: type } of d.resourceTypes.edges)
      expect(type.ancestors.map((t: { name: string }) => t.name)).to.not.include(type.name);
  });
});
