import { expect } from 'chai';
import { requirePostgres } from '../support/backends';
import { gqlAt, twoServersOnOnePostgres, type ServerProcess } from '../support/process-server';
import { honouringBackpressure } from '../support/backpressure';

const REGISTER = `mutation($i: RegisterToolInput!) { registerTool(input: $i) { tool { id } } }`;
const slots = [
  { name: 'repo', resourceType: 'git-checkout' },
  { name: 'config', resourceType: 'git-checkout', binding: 'STATIC', staticResource: 'acme/app-repo' },
];

/** Two real server processes on two ports, one PostgreSQL database. */
describe('two instances on one PostgreSQL (real processes)', function () {
  this.timeout(120_000);
  let a: ServerProcess;
  let b: ServerProcess;
  const ok = async (server: ServerProcess, query: string, variables?: Record<string, unknown>) => {
    const { body } = await gqlAt(server.url, query, variables);
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };

  before(async function () {
    await requirePostgres(this);
    [a, b] = await twoServersOnOnePostgres();
    await ok(a, `mutation { registerResourceType(input: { name: "git-checkout" }) { resourceType { id } } }`);
    await ok(
      b,
      `mutation { registerResource(input: { name: "acme/app-repo", type: "git-checkout" }) { resource { id } } }`,
    );
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
  });

  it('listen on two different ports', () => {
    expect(a.url).to.not.equal(b.url);
  });

  it('100 concurrent registrations of one name, split across both: exactly one succeeds, 99 CONFLICT', async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        honouringBackpressure(() =>
          gqlAt((i % 2 ? a : b).url, REGISTER, { i: { name: 'shared/contended', resourceSlots: slots } }),
        ),
      ),
    );
    const codes = results.map(({ status, body }) =>
      status === 200 ? (body.errors?.[0].extensions?.code ?? 'OK') : `HTTP ${status}`,
    );
    expect(
      codes.filter((c) => c === 'OK'),
      codes.join(','),
    ).to.have.length(1);
    expect(codes.filter((c) => c === 'CONFLICT')).to.have.length(99);
    for (const server of [a, b]) {
      const d = await ok(
        server,
        `{ tools(filter: { nameContains: "shared/contended" }) { totalCount edges { node { resourceSlots { name } } } } }`,
      );
      expect(d.tools.totalCount).to.equal(1);
      expect(d.tools.edges[0].node.resourceSlots).to.have.length(2);
    }
  });

  it('100 concurrent registrations of distinct names, split across both: all succeed, and each instance sees all at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        honouringBackpressure(() =>
          gqlAt((i % 2 ? a : b).url, REGISTER, { i: { name: `shared/t${i}`, resourceSlots: slots } }),
        ),
      ),
    );
    expect(results.filter(({ status, body }) => status === 200 && !body.errors)).to.have.length(100);
    for (const server of [a, b]) {
      const d = await ok(server, `{ tools(first: 100, filter: { nameContains: "shared/t" }) { totalCount } }`);
      expect(d.tools.totalCount).to.equal(100);
    }
  });

  it("each instance reads the other's writes at once: no stale cache between instances", async () => {
    await ok(a, `mutation { createProject(input: { name: "cross" }) { project { id } } }`);
    expect((await ok(b, `{ project(ref: "cross") { name } }`)).project).to.deep.equal({ name: 'cross' });
    await ok(
      b,
      `mutation { linkResource(input: { project: "cross", resource: "acme/app-repo", alias: "repo" }) { project { id } } }`,
    );
    expect(
      (await ok(a, `{ project(ref: "cross") { resources { alias resource { name } } } }`)).project.resources,
    ).to.deep.equal([{ alias: 'repo', resource: { name: 'acme/app-repo' } }]);
    await ok(a, `mutation { deleteProject(ref: "cross", force: true) { deletedId } }`);
    expect((await ok(b, `{ project(ref: "cross") { name } }`)).project).to.equal(null);
  });

  it("a cached answer on one instance is not served after the other instance's write", async () => {
    const query = `{ tools(filter: { nameContains: "cached/" }) { totalCount } }`;
    const count = async (server: ServerProcess) => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
      return {
        cache: response.headers.get('x-registry-cache'),
        count: ((await response.json()) as any).data.tools.totalCount,
      };
    };
    await count(b);
    expect(await count(b)).to.deep.equal({ cache: 'hit', count: 0 });
    await ok(a, REGISTER, { i: { name: 'cached/new', resourceSlots: slots } });
    expect(await count(b)).to.deep.equal({ cache: 'miss', count: 1 });
  });

  it('a new sub-type registered on instance A is used at once by resolution on instance B', async () => {
    await ok(a, `mutation { registerResourceType(input: { name: "vcs" }) { resourceType { id } } }`);
    await ok(a, `mutation { createProject(input: { name: "hier" }) { project { id } } }`);
    await ok(
      a,
      `mutation { registerTool(input: { name: "needs-vcs", resourceSlots: [{ name: "src", resourceType: "vcs", required: false }] }) { tool { id } } }`,
    );
    // B resolves first, so its type hierarchy is cached without the sub-type.
    const before = await ok(
      b,
      `{ resolveBindings(tool: "needs-vcs", project: "hier") { resource { name } } resourceType(ref: "vcs") { subtypes { name } } }`,
    );
    expect(before).to.deep.equal({ resolveBindings: [{ resource: null }], resourceType: { subtypes: [] } });
    // A adds a sub-type of vcs, a resource of it, and links it.
    await ok(
      a,
      `mutation { registerResourceType(input: { name: "hg-checkout", parentTypes: ["vcs"] }) { resourceType { id } } }`,
    );
    await ok(
      a,
      `mutation { registerResource(input: { name: "acme/hg-repo", type: "hg-checkout" }) { resource { id } } }`,
    );
    await ok(a, `mutation { linkResource(input: { project: "hier", resource: "acme/hg-repo" }) { project { id } } }`);
    // B must bind it at once: the resource's type reaches vcs only through the new sub-type.
    const after = await ok(
      b,
      `{ resolveBindings(tool: "needs-vcs", project: "hier") { resource { name type { name ancestors { name } } } } resourceType(ref: "vcs") { subtypes { name } } }`,
    );
    expect(after).to.deep.equal({
      resolveBindings: [
        { resource: { name: 'acme/hg-repo', type: { name: 'hg-checkout', ancestors: [{ name: 'vcs' }] } } },
      ],
      resourceType: { subtypes: [{ name: 'hg-checkout' }] },
    });
  });
});
