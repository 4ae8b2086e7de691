import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { encodeCursor } from '../../src/graphql/pagination';
import { startServer, type TestServer } from '../support/server';

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describeEachBackend('reverse lookups', (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(backend);
    const r = registryOf(server);
    await r.type('root');
    await r.type('mid', ['root']);
    await r.type('leaf', ['mid']);
    await r.type('other');
    for (let i = 0; i < 6; i++) await r.resource(`res/root-${i}`, 'root');
    await r.resource('res/mid', 'mid');
    await r.resource('res/leaf', 'leaf');
    await r.resource('res/other', 'other');
    await r.project('p1');
    await r.project('p2');
    await r.link('p1', 'res/leaf', 'leafy');
    await r.link('p2', 'res/leaf');
    await r.tool('t/a', [{ name: 's1', resourceType: 'root', binding: 'STATIC', staticResource: 'res/leaf' }]);
    await r.tool('t/b', [
      { name: 'x', resourceType: 'mid', binding: 'STATIC', staticResource: 'res/leaf' },
      { name: 'y', resourceType: 'mid', binding: 'STATIC', staticResource: 'res/mid' },
    ]);
  });
  after(() => server.close());

  it('Resource.usedBy lists static bindings and project links with aliases', async () => {
    const d = await server.data(
      `{ resource(ref: "res/leaf") { usedBy { staticBindings { tool { name } slotName } links { project { name } alias } } } }`,
    );
    const usedBy = d.resource.usedBy;
    expect(usedBy.staticBindings.map((b: any) => [b.tool.name, b.slotName]).sort()).to.deep.equal([
      ['t/a', 's1'],
      ['t/b', 'x'],
    ]);
    expect(usedBy.links.map((l: any) => [l.project.name, l.alias]).sort()).to.deep.equal([
      ['p1', 'leafy'],
      ['p2', null],
    ]);
    const unused = await server.data(
      `{ resource(ref: "res/other") { usedBy { staticBindings { slotName } links { alias } } } }`,
    );
    expect(unused.resource.usedBy).to.deep.equal({ staticBindings: [], links: [] });
  });

  it('ResourceType.compatibleResources pages the resources of the type and every sub-type, by name', async () => {
    const d = await server.data(
      `{ resourceType(ref: "mid") { compatibleResources { totalCount edges { node { name } } } } }`,
    );
    expect(d.resourceType.compatibleResources.totalCount).to.equal(2);
    expect(d.resourceType.compatibleResources.edges.map((e: any) => e.node.name)).to.deep.equal([
      'res/leaf',
      'res/mid',
    ]);
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: any = await server.data(
        `query($after: String) { resourceType(ref: "root") { compatibleResources(first: 3, after: $after) { totalCount edges { node { name } } pageInfo { hasNextPage endCursor } } } }`,
        { after },
      );
      const conn = page.resourceType.compatibleResources;
      expect(conn.totalCount).to.equal(8);
      seen.push(...conn.edges.map((e: any) => e.node.name));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    expect(seen).to.deep.equal(['res/leaf', 'res/mid', ...Array.from({ length: 6 }, (_, i) => `res/root-${i}`)]);
    const leaf = await server.data(`{ resourceType(ref: "leaf") { compatibleResources { totalCount } } }`);
    expect(leaf.resourceType.compatibleResources.totalCount).to.equal(1);
  });

  it('ResourceType.compatibleResources answers every window alike, for broad sets of types (walked by name) and single types (by the type index)', async () => {
    // Every type's expected list, from the whole registry: its resources and its sub-types', by name.
    const all: any = await server.data(
      `{ resourceTypes(first: 100) { edges { node { name ancestors { name } } } } resources(first: 100) { edges { node { name type { name } } } } }`,
    );
    const resources: { name: string; type: string }[] = all.resources.edges.map(({ node: r }: any) => ({
      name: r.name,
      type: r.type.name,
    }));
    const query = `query($type: String!, $first: Int, $after: String, $last: Int, $before: String) {
      resourceType(ref: $type) { compatibleResources(first: $first, after: $after, last: $last, before: $before) {
        totalCount edges { node { name } } pageInfo { hasNextPage hasPreviousPage } } } }`;
    let checked = 0;
    for (const { node: type } of all.resourceTypes.edges) {
      const set = new Set(
        all.resourceTypes.edges
          .map((e: any) => e.node)
          .filter((t: any) => t.name === type.name || t.ancestors.some((a: any) => a.name === type.name))
          .map((t: any) => t.name),
      );
      const expected = resources
        .filter((r) => set.has(r.type))
        .map((r) => r.name)
        .sort(byteOrder);
      if (expected.length === 0) continue;
      const mid = expected[Math.floor(expected.length / 2)];
      const windows = [
        { first: 2, want: expected.slice(0, 2), next: expected.length > 2, previous: false },
        {
          first: 2,
          after: encodeCursor('resources', mid),
          want: expected.filter((n) => n > mid).slice(0, 2),
          next: expected.filter((n) => n > mid).length > 2,
          previous: true,
        },
        { last: 2, want: expected.slice(-2), next: false, previous: expected.length > 2 },
        {
          last: 2,
          before: encodeCursor('resources', mid),
          want: expected.filter((n) => n < mid).slice(-2),
          next: true,
          previous: expected.filter((n) => n < mid).length > 2,
        },
      ];
      for (const { want, next, previous, ...args } of windows) {
        const d = await server.data(query, { type: type.name, ...args });
        const conn = d.resourceType.compatibleResources;
        const label = `${type.name} ${JSON.stringify(args)}`;
        expect(
          conn.edges.map((e: any) => e.node.name),
          label,
        ).to.deep.equal(want);
        expect(conn.totalCount, label).to.equal(expected.length);
        expect(conn.pageInfo, label).to.deep.equal({ hasNextPage: next, hasPreviousPage: previous });
        checked++;
      }
    }
    expect(checked).to.be.at.least(12);
  });

  it('keeps statement counts fixed when a dashboard asks usedBy, compatibleResources and bindingsIn for many rows', async () => {
    const r = registryOf(server);
    for (let i = 0; i < 12; i++) {
      await r.type(`row-type-${String(i).padStart(2, '0')}`, ['root']);
      await r.resource(`row/res-${i}`, `row-type-${String(i).padStart(2, '0')}`);
      await r.link('p1', `row/res-${i}`);
      await r.tool(`row/tool-${String(i).padStart(2, '0')}`, [
        { name: 'ctx', resourceType: 'root', required: false },
        { name: 'fixed', resourceType: 'root', binding: 'STATIC', staticResource: `row/res-${i}` },
      ]);
    }
    // Past the response cache, with no record or page part kept: everything the page shows is read.
    const count = async (query: string, first: number) => {
      await server.data(query, { first });
      server.app.versioning.clearRecordCache();
      const before = server.statements();
      await server.data(query, { first }, { 'cache-control': 'no-cache' });
      return server.statements() - before;
    };
    const resources = `query($first: Int) { resources(first: $first) { edges { node { name usedBy { staticBindings { tool { name } slotName } links { project { name } alias } } } } } }`;
    const types = `query($first: Int) { resourceTypes(first: $first) { edges { node { name compatibleResources(first: 3) { totalCount edges { node { name } } } } } } }`;
    const tools = `query($first: Int) { tools(first: $first) { edges { node { name bindingsIn(project: "p1") { ok slots { status resource { name } candidates { ref } } } } } } }`;
    for (const query of [resources, types, tools]) {
      const few = await count(query, 2);
      const many = await count(query, 14);
      expect(few, query).to.equal(many);
      expect(many, query).to.be.at.most(8);
    }
  });
});
