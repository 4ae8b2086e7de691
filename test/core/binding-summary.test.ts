import { expect } from 'chai';
import fc from 'fast-check';
import { cellOf } from '../../src/core/binding-matrix';
import { resolveSlots } from '../../src/core/binding-resolution';
import { ATTENTION, CellCounter, failingFirst, noCounts, type StatusCounts } from '../../src/core/binding-summary';
import type { LinkedResource, ResourceInfo, SlotDefinition } from '../../src/core/model';
import { hierarchyOf, link, resource, slot } from '../support/core-fixtures';

const hierarchy = hierarchyOf({ 'fs-directory': ['git-checkout'], 'bare-repo': ['git-checkout'], other: [] });
const TYPES = ['git-checkout', 'fs-directory', 'bare-repo', 'other'];
const SHORT = ['repo', 'src', 'out'];

/** The counts cellOf gives, pair by pair: what the counter must equal. */
function reference(
  tools: readonly { slots: readonly SlotDefinition[] }[],
  projects: readonly (readonly LinkedResource[])[],
  statics: ReadonlyMap<string, ResourceInfo>,
) {
  const count = (statuses: string[]) => {
    const counts = noCounts();
    for (const status of statuses) counts[status as keyof StatusCounts] += 1;
    return counts;
  };
  const cells = projects.map((links) =>
    tools.map(
      (tool) =>
        cellOf(
          'p',
          't',
          resolveSlots(tool.slots, { projectName: 'p', hierarchy, links, staticResources: statics, params: new Map() }),
        ).status,
    ),
  );
  return {
    total: count(cells.flat()),
    byTool: tools.map((_, t) => count(cells.map((row) => row[t]))),
    byProject: cells.map(count),
  };
}

function counted(
  tools: readonly { slots: readonly SlotDefinition[] }[],
  projects: readonly (readonly LinkedResource[])[],
  statics: ReadonlyMap<string, ResourceInfo>,
) {
  const counter = new CellCounter(tools, hierarchy, statics);
  for (const links of projects) counter.addProject(links);
  return counter.counts();
}

describe('binding summary (CellCounter)', () => {
  const repo = resource('acme/repo', 'git-checkout');
  const web = resource('acme/web', 'git-checkout');
  const config = resource('local/config', 'fs-directory');
  const statics = new Map([[config.id, config]]);

  it('counts a cell as the worst of its slots, as cellOf does', () => {
    const tools = [
      { slots: [slot('source', 'git-checkout')] },
      { slots: [slot('source', 'git-checkout'), slot('out', 'git-checkout', { binding: 'PARAMETER' })] },
      { slots: [slot('cache', 'fs-directory', { required: false })] },
      { slots: [slot('config', 'fs-directory', { binding: 'STATIC', staticResourceId: config.id })] },
    ];
    // One repository; two (ambiguous for a slot named neither); none.
    const projects = [[link(repo)], [link(repo), link(web)], []];
    const result = counted(tools, projects, statics);
    expect(result).to.deep.equal(reference(tools, projects, statics));
    expect(result.byProject[0]).to.deep.equal({ READY: 2, DEFERRED: 1, OPTIONAL_UNBOUND: 1, FAILED: 0 });
    expect(result.byProject[1]).to.deep.equal({ READY: 1, DEFERRED: 0, OPTIONAL_UNBOUND: 1, FAILED: 2 });
    expect(result.byProject[2]).to.deep.equal({ READY: 1, DEFERRED: 0, OPTIONAL_UNBOUND: 1, FAILED: 2 });
  });

  it('uses the alias, then the short name, to pick among several fitting links', () => {
    const tools = [{ slots: [slot('site', 'git-checkout')] }, { slots: [slot('web', 'git-checkout')] }];
    const projects = [
      [link(repo), link(web, 'site')],
      [link(repo), link(web)],
    ];
    const result = counted(tools, projects, statics);
    expect(result).to.deep.equal(reference(tools, projects, statics));
    // site: bound by alias in the first, ambiguous in the second; web: bound by short name in both.
    expect(result.byTool).to.deep.equal([
      { READY: 1, DEFERRED: 0, OPTIONAL_UNBOUND: 0, FAILED: 1 },
      { READY: 2, DEFERRED: 0, OPTIONAL_UNBOUND: 0, FAILED: 0 },
    ]);
  });

  it('fails a tool whose static slot fails in every project', () => {
    const tools = [{ slots: [slot('config', 'bare-repo', { binding: 'STATIC', staticResourceId: config.id })] }];
    const projects = [[link(repo)], []];
    expect(counted(tools, projects, statics).total).to.deep.equal({
      READY: 0,
      DEFERRED: 0,
      OPTIONAL_UNBOUND: 0,
      FAILED: 2,
    });
  });

  it('equals cellOf over resolveSlots, pair by pair, on generated registries', () => {
    const slotArb = fc.record({
      name: fc.constantFrom(...SHORT, 'cache'),
      type: fc.constantFrom(...TYPES),
      binding: fc.constantFrom('CONTEXTUAL', 'CONTEXTUAL', 'STATIC', 'PARAMETER'),
      required: fc.boolean(),
      res: fc.nat(),
    });
    const resources = TYPES.flatMap((type, i) => SHORT.map((short) => resource(`r${i}/${short}`, type)));
    const all = new Map(resources.map((r) => [r.id, r]));
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(slotArb, { selector: (s) => s.name, maxLength: 3 }), { maxLength: 6 }),
        fc.array(
          fc.uniqueArray(
            fc.record({ res: fc.nat(resources.length - 1), alias: fc.option(fc.constantFrom(...SHORT)) }),
            {
              selector: (l) => l.res,
              maxLength: 5,
            },
          ),
          { maxLength: 6 },
        ),
        (toolSpecs, projectSpecs) => {
          const tools = toolSpecs.map((specs) => ({
            slots: specs.map((s) =>
              slot(s.name, s.type, {
                binding: s.binding,
                required: s.required,
                staticResourceId: s.binding === 'STATIC' ? resources[s.res % resources.length].id : null,
              }),
            ),
          }));
          // Aliases are unique within a project.
          const projects = projectSpecs.map((links) => {
            const seen = new Set<string>();
            return links.map((l) => {
              const alias = l.alias !== null && !seen.has(l.alias) ? l.alias : null;
              if (alias) seen.add(alias);
              return link(resources[l.res], alias);
            });
          });
          expect(counted(tools, projects, all)).to.deep.equal(reference(tools, projects, all));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('failing first', () => {
  const item = (name: string, FAILED: number, OPTIONAL_UNBOUND = 0) => ({
    name,
    counts: { ...noCounts(), FAILED, OPTIONAL_UNBOUND },
  });

  it('puts the most failed first, then the most optional-unbound, then by name', () => {
    const sorted = [item('b', 1), item('a', 1), item('c', 3), item('d', 1, 2), item('e', 0)].sort(failingFirst);
    expect(sorted.map((i) => i.name)).to.deep.equal(['c', 'd', 'a', 'b', 'e']);
  });

  it('ranks cells FAILED, OPTIONAL_UNBOUND, DEFERRED, READY', () => {
    const order = (Object.keys(ATTENTION) as (keyof typeof ATTENTION)[]).sort((a, b) => ATTENTION[a] - ATTENTION[b]);
    expect(order).to.deep.equal(['FAILED', 'OPTIONAL_UNBOUND', 'DEFERRED', 'READY']);
  });
});
