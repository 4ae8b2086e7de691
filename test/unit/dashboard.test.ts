// The dashboard's pure modules (no DOM): its GraphQL documents against the schema, the newest-first
// change-log search, the matrix page's live updates, the type graph's layout and its pan and zoom, its routes,
// its words (plurals, articles, times) and what the viewer may change.
import { expect } from 'chai';
import fc from 'fast-check';
import { buildSchema, parse, specifiedRules, validate } from 'graphql';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { estimateCost, limitRules, QUERY_LIMITS } from '../../src/engine/admission';
import {
  pageEndingAt,
  readPage,
  smallestVersionBelow,
  type CountAfter,
  type ListChanges,
} from '../../web/dashboard/change-log';
import { cellKey, entryMayChangeMatrix, updateMatrix, type MatrixModel } from '../../web/dashboard/matrix-model';
import {
  changeCountsDocument,
  DOCUMENTS,
  MAX_CAN_PER_REQUEST,
  MAX_COUNTS_PER_REQUEST,
  viewerCanDocument,
  type ChangeEntry,
  type LiveEntry,
  type MatrixQuery,
} from '../../web/dashboard/operations';
import { centreOn, fitView, panBy, transformOf, zoomAt, ZOOM } from '../../web/dashboard/pan-zoom';
import { ALLOWED, CHECKING, namespaceOf, permissionOf, refusalReason, UNKNOWN } from '../../web/dashboard/permissions';
import { EMPTY_MATRIX, formatRoute, legacyRoute, OVERVIEW, parseRoute, type Route } from '../../web/dashboard/route';
import { depths, layoutTypes } from '../../web/dashboard/type-layout';
import { article, describeTime, listOf, plural, relativeTime } from '../../web/dashboard/words';

const schema = buildSchema(readFileSync(join(__dirname, '..', '..', 'schema.graphql'), 'utf8'));

describe('dashboard: GraphQL documents', () => {
  // Variables as the dashboard sends them at their largest.
  const variables: Record<string, Record<string, unknown>> = {
    MATRIX: { projectsFirst: 20, toolsFirst: 50 },
    EXPLAIN: { tool: 't', project: 'p' },
    OVERVIEW: { first: 8 },
    TOOL_LIST: { first: 25, order: 'FAILING_FIRST' },
    PROJECT_LIST: { first: 25, order: 'FAILING_FIRST' },
    TOOL_PAGE: { ref: 't' },
    TOOL_CELLS: { ref: 't', first: 25 },
    PROJECT_PAGE: { ref: 'p' },
    PROJECT_CELLS: { ref: 'p', first: 25 },
    TYPE_PAGE: { ref: 't' },
    RESOURCE: { ref: 'r' },
    SEARCH: { text: 'a', first: 5 },
    LINK_RESOURCE: { project: 'p', resource: 'r', dryRun: true },
    UNLINK_RESOURCE: { project: 'p', resource: 'r', dryRun: true },
    UPDATE_LINK: { project: 'p', resource: 'r', alias: null, dryRun: true },
    DELETE_RESOURCE: { ref: 'r', force: true, dryRun: true },
    UPDATE_PROJECT: { input: { ref: 'p', name: 'q' }, dryRun: true },
    UPDATE_RESOURCE: { input: { ref: 'r', name: 's' }, dryRun: true },
    UPDATE_RESOURCE_TYPE: { input: { ref: 't', name: 'u' }, dryRun: true },
    UPDATE_TOOL: { input: { ref: 't', name: 'u', resourceSlots: [] }, dryRun: true },
    ENTRIES_OF_VERSION: { since: 1 },
    TYPE_RESOURCES: { ref: 't', first: 20 },
    TYPE_TOOLS: { type: 't', first: 20 },
    RESOURCES: { first: 50 },
    CHANGES: { first: 100 },
    VIEWER_CAN: Object.fromEntries(
      [...Array(MAX_CAN_PER_REQUEST).keys()].flatMap((i) => [
        [`o${i}`, 'deleteResource'],
        [`r${i}`, 'acme/r'],
      ]),
    ),
  };

  for (const [name, document] of Object.entries(DOCUMENTS)) {
    it(`${name} is valid against schema.graphql and within the server's limits`, () => {
      const parsed = parse(document, { maxTokens: QUERY_LIMITS.tokens });
      expect(validate(schema, parsed, [...specifiedRules, ...limitRules]).map((e) => e.message)).to.deep.equal([]);
      const cost = estimateCost(schema, parsed, undefined, variables[name] ?? {});
      expect(cost, 'cost').to.be.a('number').and.at.most(QUERY_LIMITS.cost);
    });
  }

  it('counts at most 15 filters a request (the alias limit), and refuses more', () => {
    expect(MAX_COUNTS_PER_REQUEST).to.equal(QUERY_LIMITS.aliases);
    expect(changeCountsDocument(2)).to.include('c1: changes(first: 1, filter: $f1) { totalCount }');
    expect(() => changeCountsDocument(16)).to.throw(RangeError);
    expect(() => changeCountsDocument(0)).to.throw(RangeError);
  });

  it('asks viewer.can at most 15 times a request (the alias limit), and refuses more', () => {
    expect(MAX_CAN_PER_REQUEST).to.equal(QUERY_LIMITS.aliases);
    expect(viewerCanDocument(2)).to.include('c1: can(operation: $o1, ref: $r1)');
    expect(() => viewerCanDocument(16)).to.throw(RangeError);
    expect(() => viewerCanDocument(0)).to.throw(RangeError);
  });
});

/** A change log in memory: the versions of its entries (several entries may share one), oldest first. */
function fakeLog(versions: readonly number[]) {
  const entries: ChangeEntry[] = versions.map((version, i) => ({
    id: `e${i}`,
    version,
    at: '2026-01-01T00:00:00.000Z',
    actor: 'a',
    operation: 'registerTool',
    kind: 'TOOL',
    entityId: `t${i}`,
    entityName: `t${i}`,
    summary: `entry ${i}`,
    impactCount: 0,
    impactComplete: true,
  }));
  const requests = { counts: 0, lists: 0 };
  const countAfter: CountAfter = async (vs) => {
    requests.counts += 1;
    expect(vs.length).to.be.within(1, MAX_COUNTS_PER_REQUEST);
    return vs.map((v) => entries.filter((e) => e.version > v).length);
  };
  const listChanges: ListChanges = async (filter, first, after) => {
    requests.lists += 1;
    const start = after === null ? 0 : Number(after.slice(1)) + 1;
    const matching = entries
      .map((e, i) => ({ e, i }))
      .filter(({ e, i }) => i >= start && e.version > filter.sinceVersion!);
    return {
      edges: matching.slice(0, first).map(({ e, i }) => ({ cursor: `c${i}`, node: e })),
      hasNextPage: matching.length > first,
    };
  };
  return { entries, countAfter, listChanges, requests };
}

/** Sorted versions from 1 up, with gaps (entries another filter matches) and repeats (several entries a mutation). */
const versionsArbitrary = fc
  .array(fc.record({ gap: fc.integer({ min: 1, max: 40 }), repeat: fc.integer({ min: 1, max: 4 }) }), {
    maxLength: 60,
  })
  .map((steps) => {
    const versions: number[] = [];
    let v = 0;
    for (const { gap, repeat } of steps) {
      v += gap;
      for (let i = 0; i < repeat; i++) versions.push(v);
    }
    return versions;
  });

describe('dashboard: the change log, newest first', () => {
  it('pages through every entry exactly once, newest first, never splitting a version', async () => {
    await fc.assert(
      fc.asyncProperty(versionsArbitrary, fc.integer({ min: 1, max: 30 }), async (versions, size) => {
        const log = fakeLog(versions);
        const known = new Map<number, number>();
        const seen: ChangeEntry[] = [];
        let hi: number | null = null;
        for (let pages = 0; ; pages++) {
          expect(pages).to.be.below(versions.length + 2);
          const bounds = await pageEndingAt(log.countAfter, size, hi, known);
          const page = await readPage(log.listChanges, {}, bounds);
          expect(page.truncated).to.equal(false);
          if (bounds.lo > 0) expect(page.entries.length, 'a full page').to.be.at.least(size);
          for (const { entry } of page.entries) {
            expect(entry.version).to.be.above(bounds.lo);
            if (hi !== null) expect(entry.version).to.be.at.most(hi);
          }
          seen.push(...page.entries.map((e) => e.entry));
          if (bounds.lo === 0) break;
          // Pages never split a version: the next page starts below every version of this one.
          expect(
            versions.filter((v) => v === bounds.lo).length === 0 ||
              !page.entries.some((e) => e.entry.version === bounds.lo),
          ).to.equal(true);
          hi = bounds.lo;
        }
        expect(seen.map((e) => e.id)).to.deep.equal([...log.entries].reverse().map((e) => e.id));
      }),
      { numRuns: 150 },
    );
  });

  it("gives each entry the cursor of the one before it, to fetch that entry's binding changes alone", async () => {
    const log = fakeLog([1, 2, 2, 3, 5, 8]);
    const page = await readPage(log.listChanges, {}, { lo: 1, hi: 5 });
    expect(page.entries.map((e) => [e.entry.id, e.after])).to.deep.equal([
      ['e4', 'c3'],
      ['e3', 'c2'],
      ['e2', 'c1'],
      ['e1', null],
    ]);
    expect(page.entries[0].filter).to.deep.equal({ sinceVersion: 1 });
  });

  it('stops reading a page at the cap and says so', async () => {
    const log = fakeLog(Array.from({ length: 250 }, () => 7));
    const page = await readPage(log.listChanges, {}, { lo: 0, hi: null }, 120);
    expect(page.entries).to.have.length(120);
    expect(page.truncated).to.equal(true);
  });

  it('searches below a known upper bound without counting past it', async () => {
    const log = fakeLog([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // f(v) < 5 first at v = 6 (entries 7..10 are after it).
    expect(await smallestVersionBelow(log.countAfter, 5, new Map(), 9)).to.equal(6);
  });
});

describe('dashboard: the matrix page, live', () => {
  const project = (id: string) => ({ id, name: `project ${id}` });
  const tool = (id: string) => ({ id, name: `tool ${id}` });
  const page = (
    projects: string[],
    tools: string[],
    status: (p: string, t: string) => 'READY' | 'FAILED' = () => 'READY',
  ): MatrixQuery['bindingMatrix'] => ({
    projects: {
      totalCount: projects.length,
      nodes: projects.map(project),
      pageInfo: { hasNextPage: false, endCursor: null },
    },
    tools: {
      totalCount: tools.length,
      nodes: tools.map(tool),
      pageInfo: { hasNextPage: false, endCursor: null },
    },
    cells: projects.flatMap((p) =>
      tools.map((t) => {
        const s = status(p, t);
        return {
          projectId: p,
          toolId: t,
          status: s,
          failedSlots: s === 'FAILED' ? 1 : 0,
          reasons: s === 'FAILED' ? ['NO_MATCH' as const] : [],
        };
      }),
    ),
  });

  it('keeps the objects of unchanged rows and cells, and names the cells whose status changed', () => {
    const first = updateMatrix(null, page(['p1', 'p2'], ['t1', 't2'])).model;
    const second = updateMatrix(
      first,
      page(['p1', 'p2'], ['t1', 't2'], (p, t) => (p === 'p2' && t === 't1' ? 'FAILED' : 'READY')),
    );
    expect([...second.changed]).to.deep.equal([cellKey('p2', 't1')]);
    expect(second.model.rows[0]).to.equal(first.rows[0]);
    expect(second.model.rows[1]).not.to.equal(first.rows[1]);
    expect(second.model.rows[1].cells[1]).to.equal(first.rows[1].cells[1]);
    expect(second.model.tools).to.equal(first.tools);

    const same = updateMatrix(
      second.model,
      page(['p1', 'p2'], ['t1', 't2'], (p, t) => (p === 'p2' && t === 't1' ? 'FAILED' : 'READY')),
    );
    expect(same.model.rows).to.equal(second.model.rows);
    expect(same.changed.size).to.equal(0);
  });

  it('adds a new column, keeping the cells of the others, and names the new tools and projects', () => {
    const first = updateMatrix(null, page(['p1'], ['t1', 't3'])).model;
    const next = updateMatrix(first, page(['p1', 'p2'], ['t1', 't2', 't3']));
    expect(next.model.tools.map((t) => t.id)).to.deep.equal(['t1', 't2', 't3']);
    expect([...next.addedTools]).to.deep.equal(['t2']);
    expect([...next.addedProjects]).to.deep.equal(['p2']);
    expect(next.model.rows[0].cells[0]).to.equal(first.rows[0].cells[0]);
    expect(next.model.rows[0].cells[2]).to.equal(first.rows[0].cells[1]);
    expect(next.changed.size).to.equal(0);
  });

  const model: MatrixModel = updateMatrix(null, page(['p1'], ['t1'])).model;
  const entry = (over: Partial<LiveEntry>): LiveEntry => ({
    id: 'x',
    version: 9,
    at: '',
    actor: 'a',
    operation: 'linkResource',
    kind: 'LINK',
    entityId: 'p9',
    entityName: 'p9',
    summary: '',
    impactCount: 0,
    impactComplete: true,
    bindingChanges: [],
    ...over,
  });

  it('asks again only for entries that can change the page', () => {
    const none = { projects: null, tools: null };
    expect(entryMayChangeMatrix(entry({ kind: 'TOOL' }), model, none), 'a tool may join the page').to.equal(true);
    expect(entryMayChangeMatrix(entry({ kind: 'PROJECT' }), model, none)).to.equal(true);
    expect(entryMayChangeMatrix(entry({}), model, none), 'no impact').to.equal(false);
    expect(
      entryMayChangeMatrix(entry({ impactCount: 1, bindingChanges: [{ toolId: 't1', projectId: 'p9' }] }), model, none),
      'another project',
    ).to.equal(false);
    expect(
      entryMayChangeMatrix(entry({ impactCount: 1, bindingChanges: [{ toolId: 't1', projectId: 'p1' }] }), model, none),
    ).to.equal(true);
    expect(
      entryMayChangeMatrix(entry({ impactCount: 1, bindingChanges: [{ toolId: 't1', projectId: null }] }), model, none),
      'a static slot: every project',
    ).to.equal(true);
    expect(
      entryMayChangeMatrix(entry({ impactCount: 3, bindingChanges: [] }), model, none),
      'changes not kept',
    ).to.equal(true);
    expect(
      entryMayChangeMatrix(entry({ impactCount: 0, impactComplete: false }), model, none),
      'pairs left unexamined at the cap',
    ).to.equal(true);
    expect(entryMayChangeMatrix(entry({}), model, { projects: { linksResource: 'r' }, tools: null })).to.equal(true);
    expect(
      entryMayChangeMatrix(entry({ kind: 'RESOURCE_TYPE' }), model, { projects: null, tools: { slotType: 't' } }),
    ).to.equal(true);
  });
});

describe('dashboard: the type graph layout', () => {
  it('draws every parent above its sub-types, several parents allowed, with no overlap in a layer', () => {
    const types = [
      { name: 'vcs', parents: [] },
      { name: 'fs', parents: [] },
      { name: 'git-checkout', parents: ['vcs'] },
      { name: 'fs-directory', parents: ['git-checkout', 'fs'] },
      { name: 'tmp-directory', parents: ['fs-directory', 'vcs'] },
      { name: 'unknown-parent', parents: ['not-drawn'] },
    ];
    expect(Object.fromEntries(depths(types))).to.deep.equal({
      vcs: 0,
      fs: 0,
      'git-checkout': 1,
      'fs-directory': 2,
      'tmp-directory': 3,
      'unknown-parent': 0,
    });
    const layout = layoutTypes(types);
    const at = new Map(layout.nodes.map((n) => [n.name, n]));
    for (const n of layout.nodes)
      for (const p of n.parents) expect(at.get(p)!.y, `${p} above ${n.name}`).to.be.below(n.y);
    expect(layout.edges).to.have.length(5);
    for (const layer of new Set(layout.nodes.map((n) => n.y))) {
      const row = layout.nodes.filter((n) => n.y === layer).sort((a, b) => a.x - b.x);
      for (let i = 1; i < row.length; i++) expect(row[i].x).to.be.at.least(row[i - 1].x + row[i - 1].width);
    }
    for (const n of layout.nodes) expect(n.x + n.width).to.be.at.most(layout.width);
    expect(layoutTypes(types)).to.deep.equal(layout);
  });

  it('lays out a 500-type hierarchy 10 levels deep quickly', () => {
    const types = Array.from({ length: 500 }, (_, i) => ({
      name: `type-${i}`,
      parents: i < 50 ? [] : [`type-${i - 50}`, ...(i % 5 === 0 ? [`type-${i % 50}`] : [])],
    }));
    const started = Date.now();
    const layout = layoutTypes(types);
    expect(Date.now() - started).to.be.below(1000);
    expect(new Set(layout.nodes.map((n) => n.depth)).size).to.equal(10);
  });
});

describe('dashboard: routes', () => {
  const split = (path: string) => path.split(/\?(.*)/s, 2) as [string, string?];
  const roundTrip = (route: Route) => {
    const [path, search] = split(formatRoute(route));
    return parseRoute(path, search ?? '');
  };

  it('reads back every route it writes', () => {
    const routes: Route[] = [
      OVERVIEW,
      EMPTY_MATRIX,
      { view: 'matrix', project: 'shop', links: 'prod/orders-db', tool: 'lint', slotType: 'git-checkout' },
      { view: 'tools', q: '', order: 'attention' },
      { view: 'tools', q: 'lint', order: 'name' },
      { view: 'tool', name: 'acme/lint' },
      { view: 'projects', q: 'shop', order: 'attention' },
      { view: 'project', name: 'team a/shop?&#%' },
      { view: 'resources', q: 'acme' },
      { view: 'resource', name: 'acme/app-repo' },
      { view: 'types' },
      { view: 'type', name: 'fs-directory' },
      { view: 'history', kind: 'LINK', actor: 'alice', ref: 'acme/web repo?&#' },
    ];
    for (const route of routes) expect(roundTrip(route)).to.deep.equal(route);
  });

  it('gives each thing a stable path with its name URL-encoded, and takes the slashes left as they are too', () => {
    expect(formatRoute({ view: 'tool', name: 'acme/lint' })).to.equal('tools/acme%2Flint');
    expect(formatRoute({ view: 'project', name: 'shop' })).to.equal('projects/shop');
    expect(formatRoute({ view: 'resource', name: 'acme/app-repo' })).to.equal('resources/acme%2Fapp-repo');
    expect(formatRoute({ view: 'type', name: 'fs-directory' })).to.equal('types/fs-directory');
    expect(formatRoute(OVERVIEW)).to.equal('');
    expect(parseRoute('tools/acme/lint')).to.deep.equal({ view: 'tool', name: 'acme/lint' });
    expect(parseRoute('resources/acme%2Fapp-repo')).to.deep.equal({ view: 'resource', name: 'acme/app-repo' });
    expect(parseRoute('tools/%E0%A4%A')).to.deep.equal({ view: 'tool', name: '%E0%A4%A' });
  });

  it('falls back to the overview for what it does not know, and to the lists for a kind without a name', () => {
    expect(parseRoute('')).to.deep.equal(OVERVIEW);
    expect(parseRoute('nowhere')).to.deep.equal(OVERVIEW);
    expect(parseRoute('tools/')).to.deep.equal({ view: 'tools', q: '', order: 'attention' });
    expect(parseRoute('types')).to.deep.equal({ view: 'types' });
    expect(parseRoute('history', '?kind=NOPE')).to.deep.equal({ view: 'history', kind: null, actor: '', ref: '' });
  });

  it("takes the earlier dashboard's fragment links (#/resource/x) to the same page", () => {
    expect(legacyRoute('#/resource/acme%2Fapp-repo')).to.deep.equal({ view: 'resource', name: 'acme/app-repo' });
    expect(legacyRoute('#/resource/acme/app-repo')).to.deep.equal({ view: 'resource', name: 'acme/app-repo' });
    expect(legacyRoute('#/matrix?tool=lint')).to.deep.equal({ ...EMPTY_MATRIX, tool: 'lint' });
    expect(legacyRoute('#/types/fs-directory')).to.deep.equal({ view: 'type', name: 'fs-directory' });
    expect(legacyRoute('#/history?kind=TOOL')).to.deep.equal({ view: 'history', kind: 'TOOL', actor: '', ref: '' });
    expect(legacyRoute('#main')).to.equal(null);
    expect(legacyRoute('')).to.equal(null);
  });
});

describe('dashboard: words', () => {
  it('counts with the right plural', () => {
    expect(plural(1, 'binding change')).to.equal('1 binding change');
    expect(plural(2, 'binding change')).to.equal('2 binding changes');
    expect(plural(0, 'entry')).to.equal('0 entries');
    expect(plural(1, 'newer entry')).to.equal('1 newer entry');
    expect(plural(3, 'match')).to.equal('3 matches');
    expect(plural(2, 'key')).to.equal('2 keys');
    expect(plural(12345, 'project')).to.equal('12,345 projects');
    expect(plural(2, 'tool × project pair')).to.equal('2 tool × project pairs');
  });

  it('says "a" or "an" by how the word sounds', () => {
    expect(article('fs-directory')).to.equal('an');
    expect(article('git-checkout')).to.equal('a');
    expect(article('image')).to.equal('an');
    expect(article('bucket')).to.equal('a');
    expect(article('s3-bucket')).to.equal('an');
    expect(article('database')).to.equal('a');
    expect(article('user-home')).to.equal('a');
    expect(article('hour-log')).to.equal('an');
    expect(article('k8s-cluster')).to.equal('a');
    expect(article('x509-cert')).to.equal('an');
  });

  it('joins a list with commas and "and"', () => {
    expect(listOf([])).to.equal('');
    expect(listOf(['a'])).to.equal('a');
    expect(listOf(['a', 'b', 'c'])).to.equal('a, b and c');
  });

  it('shows a time with its time zone, and how long ago it was', () => {
    const now = new Date('2026-12-04T20:40:00Z');
    expect(describeTime('2026-12-04T20:37:00Z', now, 'UTC')).to.deep.equal({
      absolute: '4 Dec 2026, 20:37:00 UTC',
      relative: '3 minutes ago',
    });
    expect(describeTime('2026-12-04T20:37:00Z', now, 'Europe/Paris').absolute).to.equal('4 Dec 2026, 21:37:00 CET');
    expect(relativeTime(new Date('2026-12-04T20:39:50Z'), now)).to.equal('just now');
    expect(relativeTime(new Date('2026-12-03T19:00:00Z'), now)).to.equal('yesterday');
    expect(relativeTime(new Date('2026-09-01T00:00:00Z'), now)).to.equal('3 months ago');
    expect(describeTime('not a time', now)).to.deep.equal({ absolute: 'not a time', relative: '' });
  });
});

describe('dashboard: what the viewer may change', () => {
  const alice = { principal: 'user:alice', signInAvailable: true };

  it("turns viewer.can's answer into a permission: allowed, refused with who and what it needs, or not known", () => {
    expect(permissionOf(true, 'deleteResource', 'globex/db', alice)).to.deep.equal(ALLOWED);
    expect(permissionOf(false, 'deleteResource', 'globex/db', alice)).to.deep.equal({
      allowed: false,
      reason: 'user:alice may not delete this resource: it needs the EDITOR role on the namespace globex.',
    });
    expect(permissionOf(undefined, 'deleteResource', 'globex/db', alice)).to.equal(CHECKING);
    expect(permissionOf(null, 'deleteResource', 'globex/db', alice)).to.equal(UNKNOWN);
  });

  it('names the namespace the server checks: the first segment of a name, else the global scope *', () => {
    expect(namespaceOf('updateLink', 'acme/web')).to.equal('acme');
    expect(namespaceOf('updateProject', 'demo')).to.equal('*');
    expect(namespaceOf('updateResourceType', 'acme/kind')).to.equal('*', 'resource types are global');
    expect(refusalReason('updateProject', 'demo', alice)).to.include('EDITOR role on * (names without a namespace');
  });

  it('says how to get a credential when there is none, with sign-in only where the server offers it', () => {
    const none = refusalReason('linkResource', 'acme/web', { principal: null, signInAvailable: true });
    expect(none).to.match(/^Changing the registry needs you to sign in, or enter a token/);
    expect(none).to.include('the EDITOR role on the namespace acme');
    expect(refusalReason('linkResource', 'acme/web', { principal: null, signInAvailable: false })).to.match(
      /^Changing the registry needs you to enter a token/,
    );
    // Nothing calls a credential "admin": the server's principal says who it is.
    for (const principal of [null, 'token:ci', 'anonymous'])
      expect(refusalReason('updateTool', 'x', { principal, signInAvailable: false })).not.to.match(/admin/i);
  });
});

describe('dashboard: panning and zooming the type graph', () => {
  const point = (v: { dx: number; dy: number; k: number }, x: number, y: number) => [v.k * x + v.dx, v.k * y + v.dy];

  it('zooms around the pointer: the point under it stays put', () => {
    const start = { dx: 30, dy: -20, k: 1 };
    const zoomed = zoomAt(start, 2, 400, 300);
    expect(zoomed.k).to.equal(2);
    // The drawing's point under (400, 300) before is under it after.
    const [x, y] = [(400 - start.dx) / start.k, (300 - start.dy) / start.k];
    expect(point(zoomed, x, y)).to.deep.equal([400, 300]);
    expect(zoomAt(start, 1000, 0, 0).k).to.equal(ZOOM.max);
    expect(zoomAt(start, 0.0001, 0, 0).k).to.equal(ZOOM.min);
  });

  it('pans, fits the whole drawing (never above its size), and centres a point', () => {
    expect(panBy({ dx: 1, dy: 2, k: 3 }, 10, -5)).to.deep.equal({ dx: 11, dy: -3, k: 3 });
    const fit = fitView({ width: 2000, height: 500 }, { width: 1000, height: 500 }, 0);
    expect(fit.k).to.equal(0.5);
    expect(point(fit, 0, 0)[0]).to.equal(0);
    expect(point(fit, 1000, 250)).to.deep.equal([500, 250]);
    expect(fitView({ width: 100, height: 100 }, { width: 1000, height: 500 }).k).to.equal(1);
    expect(point(centreOn(50, 60, { width: 800, height: 600 }, 2), 50, 60)).to.deep.equal([400, 300]);
    expect(transformOf({ dx: 1.234, dy: 5, k: 0.51234 })).to.equal('translate(1.23 5) scale(0.5123)');
  });
});
