import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { databaseDigest } from '../support/digest';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

const IMPACT = `impact { totalCount changes { toolName projectName slotName
  before { status reason resourceName } after { status reason resourceName } } }`;

describeEachBackend('everything can be edited', (backend) => {
  let server: TestServer;
  let digest: () => Promise<string>;
  const code = async (query: string, variables?: Record<string, unknown>) =>
    (await server.gql(query, variables)).body.errors?.[0]?.extensions?.code ?? 'OK';
  /** Runs a refused mutation and checks it stored nothing. */
  async function refused(query: string, variables?: Record<string, unknown>) {
    const before = await digest();
    const { body } = await server.gql(query, variables);
    expect(await digest(), `refused, yet changed: ${query}`).to.equal(before);
    return body.errors![0];
  }

  beforeEach(async () => {
    server = await startServer(backend);
    digest = () => databaseDigest(server);
    const r = registryOf(server);
    await r.type('vcs');
    await r.type('git-checkout', ['vcs']);
    await r.type('fs-directory');
    await r.resource('x/src', 'git-checkout');
    await r.resource('y/other', 'git-checkout');
    await r.resource('local/config', 'fs-directory');
    await r.project('shop');
    await r.link('shop', 'x/src');
    await r.link('shop', 'y/other');
    await r.tool('acme/lint', [
      { name: 'repo', resourceType: 'git-checkout' },
      { name: 'config', resourceType: 'fs-directory', binding: 'STATIC', staticResource: 'local/config' },
    ]);
  });
  afterEach(() => server.close());

  describe('updateResource', () => {
    const UPDATE = `mutation($i: UpdateResourceInput!, $dry: Boolean) { updateResource(input: $i, dryRun: $dry) {
      resource { id name shortName description type { name } createdAt updatedAt } dryRun ${IMPACT} } }`;

    it('renames, keeping the id; the new short name can decide a tie; the old name is NOT_FOUND, naming the new one', async () => {
      const old = (await server.data(`{ resource(ref: "x/src") { id createdAt updatedAt } }`)).resource;
      const d = await server.data(UPDATE, { i: { ref: 'x/src', name: 'x/repo' } });
      expect(d.updateResource.resource).to.deep.include({ id: old.id, name: 'x/repo', shortName: 'repo' });
      expect(d.updateResource.resource.createdAt).to.equal(old.createdAt);
      expect(d.updateResource.resource.updatedAt >= old.updatedAt).to.equal(true);
      // acme/lint's repo slot was ambiguous between x/src and y/other; now x/repo's short name picks it.
      expect(d.updateResource.impact).to.deep.equal({
        totalCount: 1,
        changes: [
          {
            toolName: 'acme/lint',
            projectName: 'shop',
            slotName: 'repo',
            before: { status: 'FAILED', reason: 'AMBIGUOUS', resourceName: null },
            after: { status: 'BOUND', reason: null, resourceName: 'x/repo' },
          },
        ],
      });
      const { body } = await server.gql(
        `mutation { updateResource(input: { ref: "x/src", description: "d" }) { dryRun } }`,
      );
      expect(body.errors?.[0].message).to.equal("no resource 'x/src' is registered; it was renamed to 'x/repo'");
      expect(body.errors?.[0].extensions).to.deep.equal({ code: 'NOT_FOUND', renamedTo: 'x/repo' });
      expect((await server.data(`{ resource(ref: "${old.id}") { name } }`)).resource.name).to.equal('x/repo');
    });

    it('refuses a name another resource has, ignoring case, and a malformed one', async () => {
      const taken = await refused(UPDATE, { i: { ref: 'x/src', name: 'Y/Other' } });
      expect(taken.extensions?.code).to.equal('CONFLICT');
      expect(taken.message).to.equal(
        "a resource named 'y/other' already exists; names that differ only by case are the same name",
      );
      expect((await refused(UPDATE, { i: { ref: 'x/src', name: 'bad name' } })).extensions?.code).to.equal(
        'BAD_USER_INPUT',
      );
      // Renaming to its own name in another case is allowed: it is the same resource.
      expect(await code(UPDATE, { i: { ref: 'x/src', name: 'X/Src' } })).to.equal('OK');
    });

    it('sets and clears the description; what is left out stays', async () => {
      await server.data(UPDATE, { i: { ref: 'x/src', description: 'the source' } });
      expect(
        (await server.data(UPDATE, { i: { ref: 'x/src', name: 'x/src2' } })).updateResource.resource,
      ).to.deep.include({ description: 'the source', type: { name: 'git-checkout' } });
      const cleared = await server.data(UPDATE, { i: { ref: 'x/src2', description: null } });
      expect(cleared.updateResource.resource.description).to.equal(null);
    });

    it('changes the type, unless a static slot binding it would no longer accept it (CONFLICT listing the slot)', async () => {
      const conflict = await refused(UPDATE, { i: { ref: 'local/config', type: 'vcs' } });
      expect(conflict.extensions).to.deep.equal({
        code: 'CONFLICT',
        usedBy: [{ kind: 'TOOL', name: 'acme/lint', detail: "slot 'config'" }],
      });
      // y/other becoming a vcs leaves x/src the only git-checkout in shop: the repo slot binds it.
      const d = await server.data(UPDATE, { i: { ref: 'y/other', type: 'vcs' } });
      expect(d.updateResource.resource.type.name).to.equal('vcs');
      expect(d.updateResource.impact.changes).to.deep.equal([
        {
          toolName: 'acme/lint',
          projectName: 'shop',
          slotName: 'repo',
          before: { status: 'FAILED', reason: 'AMBIGUOUS', resourceName: null },
          after: { status: 'BOUND', reason: null, resourceName: 'x/src' },
        },
      ]);
    });

    it('is NOT_FOUND for an unknown ref, suggesting close names', async () => {
      const error = await refused(UPDATE, { i: { ref: 'x/srx', name: 'x/new' } });
      expect(error.extensions).to.deep.equal({ code: 'NOT_FOUND', suggestions: ['x/src'] });
      expect(error.message).to.equal("no resource 'x/srx' is registered; did you mean 'x/src'?");
    });

    it('previews with dryRun: the impact, and nothing stored', async () => {
      const before = await digest();
      const d = await server.data(UPDATE, { i: { ref: 'x/src', name: 'x/repo' }, dry: true });
      expect(d.updateResource).to.deep.include({ dryRun: true, resource: null });
      expect(d.updateResource.impact.totalCount).to.equal(1);
      expect(await digest()).to.equal(before);
    });
  });

  describe('updateResourceType', () => {
    const UPDATE = `mutation($i: UpdateResourceTypeInput!) { updateResourceType(input: $i) {
      resourceType { id name description parentTypes { name } ancestors { name } } ${IMPACT} } }`;

    it('renames, keeping the id: resources and slots keep their type', async () => {
      const id = (await server.data(`{ resourceType(ref: "git-checkout") { id } }`)).resourceType.id;
      const d = await server.data(UPDATE, { i: { ref: 'git-checkout', name: 'git-tree', description: 'a tree' } });
      expect(d.updateResourceType.resourceType).to.deep.include({ id, name: 'git-tree', description: 'a tree' });
      expect(d.updateResourceType.impact.totalCount).to.equal(0);
      expect((await server.data(`{ resource(ref: "x/src") { type { name } } }`)).resource.type.name).to.equal(
        'git-tree',
      );
      const error = await refused(UPDATE, { i: { ref: 'git-checkout', description: 'x' } });
      expect(error.extensions).to.deep.equal({ code: 'NOT_FOUND', renamedTo: 'git-tree' });
    });

    it('refuses a name another type has (CONFLICT), a parent that is itself, and a cycle (BAD_USER_INPUT)', async () => {
      expect((await refused(UPDATE, { i: { ref: 'vcs', name: 'fs-directory' } })).extensions?.code).to.equal(
        'CONFLICT',
      );
      expect((await refused(UPDATE, { i: { ref: 'vcs', parentTypes: ['vcs'] } })).extensions?.code).to.equal(
        'BAD_USER_INPUT',
      );
      const cycle = await refused(UPDATE, { i: { ref: 'vcs', parentTypes: ['git-checkout'] } });
      expect(cycle.extensions).to.deep.equal({
        code: 'BAD_USER_INPUT',
        problems: [
          { field: 'input.parentTypes', message: "these parents would make 'vcs' its own ancestor (a cycle)" },
        ],
      });
      expect((await refused(UPDATE, { i: { ref: 'vcs', parentTypes: ['nope'] } })).extensions?.code).to.equal(
        'NOT_FOUND',
      );
    });

    it('re-parents, reporting the impact: a resource of the type can now fill slots of the new parent', async () => {
      await registryOf(server).tool('acme/sync', [{ name: 'dir', resourceType: 'fs-directory', required: true }]);
      // git-checkout gains fs-directory as a parent: shop's two git-checkouts now both fill acme/sync's dir slot.
      const d = await server.data(UPDATE, { i: { ref: 'git-checkout', parentTypes: ['vcs', 'fs-directory'] } });
      expect(d.updateResourceType.resourceType.ancestors.map((t: any) => t.name)).to.deep.equal([
        'vcs',
        'fs-directory',
      ]);
      expect(d.updateResourceType.impact.changes).to.deep.equal([
        {
          toolName: 'acme/sync',
          projectName: 'shop',
          slotName: 'dir',
          before: { status: 'FAILED', reason: 'NO_MATCH', resourceName: null },
          after: { status: 'FAILED', reason: 'AMBIGUOUS', resourceName: null },
        },
      ]);
    });

    it('refuses new parents that would leave a static binding with a resource that no longer fits', async () => {
      await registryOf(server).tool('acme/pin', [
        { name: 'src', resourceType: 'vcs', binding: 'STATIC', staticResource: 'x/src' },
      ]);
      const conflict = await refused(UPDATE, { i: { ref: 'git-checkout', parentTypes: [] } });
      expect(conflict.extensions).to.deep.equal({
        code: 'CONFLICT',
        usedBy: [{ kind: 'TOOL', name: 'acme/pin', detail: "slot 'src' binds 'x/src'" }],
      });
    });
  });

  describe('updateProject', () => {
    const UPDATE = `mutation($i: UpdateProjectInput!) { updateProject(input: $i) { project { id name description } } }`;

    it('renames and describes, keeping the id and the links; a taken name (ignoring case) is CONFLICT', async () => {
      const id = (await server.data(`{ project(ref: "shop") { id } }`)).project.id;
      const d = await server.data(UPDATE, { i: { ref: 'shop', name: 'store', description: 'the store' } });
      expect(d.updateProject.project).to.deep.equal({ id, name: 'store', description: 'the store' });
      expect(
        (await server.data(`{ project(ref: "store") { resources { resource { name } } } }`)).project.resources,
      ).to.have.length(2);
      await registryOf(server).project('other');
      expect((await refused(UPDATE, { i: { ref: 'other', name: 'STORE' } })).extensions?.code).to.equal('CONFLICT');
    });
  });

  describe('updateLink', () => {
    const UPDATE = `mutation($i: UpdateLinkInput!) { updateLink(input: $i) {
      project { resources { alias resource { name } } } ${IMPACT} } }`;

    it('sets an alias in one step, reporting that it settles a tie; clearing it undoes that', async () => {
      const set = await server.data(UPDATE, { i: { project: 'shop', resource: 'y/other', alias: 'repo' } });
      expect(set.updateLink.project.resources).to.deep.include({ alias: 'repo', resource: { name: 'y/other' } });
      expect(set.updateLink.impact.changes).to.deep.equal([
        {
          toolName: 'acme/lint',
          projectName: 'shop',
          slotName: 'repo',
          before: { status: 'FAILED', reason: 'AMBIGUOUS', resourceName: null },
          after: { status: 'BOUND', reason: null, resourceName: 'y/other' },
        },
      ]);
      const cleared = await server.data(UPDATE, { i: { project: 'shop', resource: 'y/other', alias: null } });
      expect(cleared.updateLink.impact.changes[0].after).to.deep.equal({
        status: 'FAILED',
        reason: 'AMBIGUOUS',
        resourceName: null,
      });
    });

    it("refuses another link's alias (CONFLICT) and a resource that is not linked (NOT_FOUND)", async () => {
      await server.data(UPDATE, { i: { project: 'shop', resource: 'y/other', alias: 'repo' } });
      const clash = await refused(UPDATE, { i: { project: 'shop', resource: 'x/src', alias: 'repo' } });
      expect(clash.extensions?.code).to.equal('CONFLICT');
      expect(clash.message).to.equal("alias 'repo' is already used in project 'shop' by resource 'y/other'");
      const unlinked = await refused(UPDATE, { i: { project: 'shop', resource: 'local/config', alias: 'cfg' } });
      expect(unlinked.extensions?.code).to.equal('NOT_FOUND');
    });
  });

  describe('updateTool', () => {
    const UPDATE = `mutation($i: UpdateToolInput!) { updateTool(input: $i) { tool { id name resourceSlots { name } } ${IMPACT} } }`;

    it('renames a tool named by ref, keeping its id; the old name is NOT_FOUND, naming the new one', async () => {
      const id = (await server.data(`{ tool(ref: "acme/lint") { id } }`)).tool.id;
      const d = await server.data(UPDATE, {
        i: { ref: 'acme/lint', name: 'acme/check', resourceSlots: [{ name: 'repo', resourceType: 'git-checkout' }] },
      });
      expect(d.updateTool.tool).to.deep.include({ id, name: 'acme/check' });
      // The static config slot is gone: ABSENT after, with no project (it does not depend on one).
      expect(d.updateTool.impact.changes).to.deep.equal([
        {
          toolName: 'acme/check',
          projectName: null,
          slotName: 'config',
          before: { status: 'BOUND', reason: null, resourceName: 'local/config' },
          after: { status: 'ABSENT', reason: null, resourceName: null },
        },
      ]);
      const { body } = await server.gql(`{ resolveBindings(tool: "acme/lint", project: "shop") { slotName } }`);
      expect(body.errors?.[0].extensions).to.deep.equal({ code: 'NOT_FOUND', renamedTo: 'acme/check' });
    });

    it('refuses a new name another tool has, ignoring case', async () => {
      await registryOf(server).tool('acme/other', []);
      const error = await refused(UPDATE, { i: { ref: 'acme/other', name: 'ACME/lint', resourceSlots: [] } });
      expect(error.extensions?.code).to.equal('CONFLICT');
    });

    it('reports a new required slot as failing in every project (ABSENT before)', async () => {
      await registryOf(server).project('empty');
      const d = await server.data(UPDATE, {
        i: {
          name: 'acme/lint',
          resourceSlots: [
            { name: 'repo', resourceType: 'git-checkout' },
            { name: 'config', resourceType: 'fs-directory', binding: 'STATIC', staticResource: 'local/config' },
            { name: 'out', resourceType: 'fs-directory' },
          ],
        },
      });
      expect(
        d.updateTool.impact.changes.map((c: any) => [c.projectName, c.slotName, c.before.status, c.after.reason]),
      ).to.deep.equal([
        ['empty', 'out', 'ABSENT', 'NO_MATCH'],
        ['shop', 'out', 'ABSENT', 'NO_MATCH'],
      ]);
    });
  });

  it('every update logs one entry naming the operation, and none when refused', async () => {
    const before = (await server.data(`{ changes(first: 1) { totalCount } }`)).changes.totalCount;
    await server.data(`mutation { updateProject(input: { ref: "shop", description: "x" }) { dryRun } }`);
    await server.gql(`mutation { updateProject(input: { ref: "nope", description: "x" }) { dryRun } }`);
    await server.data(`mutation { updateProject(input: { ref: "shop", description: "y" }, dryRun: true) { dryRun } }`);
    const log = await server.data(
      `{ changes(filter: { sinceVersion: 0, kind: PROJECT }) { totalCount edges { node { operation summary } } } }`,
    );
    expect((await server.data(`{ changes(first: 1) { totalCount } }`)).changes.totalCount).to.equal(before + 1);
    expect(log.changes.edges.at(-1).node).to.deep.equal({
      operation: 'updateProject',
      summary: 'updated project shop: changed its description',
    });
  });

  describe('updates that change nothing', () => {
    /** The registry's version now, and how many entries the change log holds. */
    const logState = async () => {
      const log = (await server.data(`{ changes(last: 1) { totalCount edges { node { version } } } }`)).changes;
      return { version: log.edges[0].node.version as number, entries: log.totalCount as number };
    };
    const LINT_SLOTS = `[{ name: "repo", resourceType: "git-checkout" },
      { name: "config", resourceType: "fs-directory", binding: STATIC, staticResource: "local/config" }]`;
    const NO_OPS: [string, string][] = [
      [
        'updateResource',
        `updateResource(input: { ref: "x/src" }) { registryVersion dryRun resource { name updatedAt } }`,
      ],
      [
        'updateResource',
        `updateResource(input: { ref: "x/src", name: "x/src", type: "git-checkout", description: null }) {
          registryVersion dryRun resource { name updatedAt } }`,
      ],
      [
        'updateLink',
        `updateLink(input: { project: "shop", resource: "x/src", alias: null }) {
          registryVersion dryRun project { name updatedAt } }`,
      ],
      [
        'updateProject',
        `updateProject(input: { ref: "shop", name: "shop" }) { registryVersion dryRun project { name updatedAt } }`,
      ],
      [
        'updateResourceType',
        `updateResourceType(input: { ref: "git-checkout", name: "git-checkout", parentTypes: ["vcs"] }) {
          registryVersion dryRun resourceType { name updatedAt } }`,
      ],
      [
        'updateTool',
        `updateTool(input: { ref: "acme/lint", name: "acme/lint", resourceSlots: ${LINT_SLOTS} }) {
          registryVersion dryRun tool { name updatedAt } }`,
      ],
    ];

    it('commit nothing (no version, no change-log entry, no event) and return the current version and the thing as stored', async () => {
      const heard: number[] = [];
      const stop = server.app.services.writes.listen((change) => void heard.push(change.version));
      try {
        const before = await logState();
        for (const [field, mutation] of NO_OPS) {
          const payload = (await server.data(`mutation { ${mutation} }`))[field];
          const { registryVersion, dryRun, ...stored } = payload;
          expect({ registryVersion, dryRun }, mutation).to.deep.equal({
            registryVersion: before.version,
            dryRun: false,
          });
          const thing = Object.values(stored)[0] as { name: string; updatedAt: string } | null;
          expect(thing, `${field} returns the thing as it is`).to.not.equal(null);
        }
        expect(await logState()).to.deep.equal(before);
        expect(heard, 'no committed change was announced').to.deep.equal([]);
      } finally {
        stop();
      }
    });

    it('leave updatedAt as it was, and setting an alias to the one it has changes nothing either', async () => {
      const resource = async () => (await server.data(`{ resource(ref: "x/src") { updatedAt } }`)).resource.updatedAt;
      const was = await resource();
      await server.data(`mutation { ${NO_OPS[0][1]} }`);
      expect(await resource()).to.equal(was);
      const ALIAS = `mutation { updateLink(input: { project: "shop", resource: "x/src", alias: "src" }) { registryVersion } }`;
      const set = (await server.data(ALIAS)).updateLink.registryVersion;
      expect(set).to.equal((await logState()).version);
      expect((await server.data(ALIAS)).updateLink.registryVersion, 'the same alias again').to.equal(set);
      expect((await logState()).version).to.equal(set);
    });

    it('an update that changes anything still commits it', async () => {
      const before = await logState();
      await server.data(
        `mutation { updateResource(input: { ref: "x/src", description: "now described" }) { dryRun } }`,
      );
      expect(await logState()).to.deep.equal({ version: before.version + 1, entries: before.entries + 1 });
    });
  });
});
