import { expect } from 'chai';
import fc from 'fast-check';
import { cellOf } from '../../src/core/binding-matrix';
import { resolveSlots } from '../../src/core/binding-resolution';
import { CellTable } from '../../src/core/cell-table';
import type { LinkedResource, ResourceInfo, SlotDefinition } from '../../src/core/model';
import { hierarchyOf, link, resource, slot } from '../support/core-fixtures';

// Deep enough that a slot's fitting types are found through ancestors at several depths, and a type with two parents.
const hierarchy = hierarchyOf({
  root: [],
  mid: ['root'],
  leaf: ['mid'],
  side: ['root'],
  both: ['mid', 'side'],
  lone: [],
});
const TYPES = ['root', 'mid', 'leaf', 'side', 'both', 'lone'];
const NAMES = ['repo', 'src', 'out'];
const pool = TYPES.flatMap((type, t) => NAMES.map((name) => resource(`r${t}/${name}`, type)));
const every = new Map(pool.map((r) => [r.id, r]));

/** Every cell as cellOf gives it over resolveSlots, pair by pair: what the table must equal. */
function reference(
  tools: readonly { slots: readonly SlotDefinition[] }[],
  projects: readonly (readonly LinkedResource[])[],
  statics: ReadonlyMap<string, ResourceInfo>,
) {
  return projects.flatMap((links, p) =>
    tools.map((tool, t) =>
      cellOf(
        `p${p}`,
        `t${t}`,
        resolveSlots(tool.slots, {
          projectName: `p${p}`,
          hierarchy,
          links,
          staticResources: statics,
          params: new Map(),
        }),
      ),
    ),
  );
}

function tabled(
  tools: readonly { slots: readonly SlotDefinition[] }[],
  projects: readonly (readonly LinkedResource[])[],
  statics: ReadonlyMap<string, ResourceInfo>,
) {
  const table = new CellTable(tools, hierarchy, statics);
  return projects.flatMap((links, p) => {
    table.setProject(links);
    return tools.map((_, t) => {
      const cell = table.cell(t, `p${p}`, `t${t}`);
      // The weight a count reads is the cell's status.
      expect(['READY', 'OPTIONAL_UNBOUND', 'DEFERRED', 'FAILED'][table.weight(t)]).to.equal(cell.status);
      return cell;
    });
  });
}

describe('the cells of many tools in many projects (CellTable)', () => {
  it('counts every failing slot and lists each reason once, in the order of FAILURE_REASONS', () => {
    const tools = [
      {
        slots: [
          slot('missing', 'lone'),
          slot('config', 'lone', { binding: 'STATIC', staticResourceId: 'nowhere/config' }),
          slot('repo', 'root'),
          slot('other', 'lone', { required: false }),
          slot('out', 'root', { binding: 'PARAMETER' }),
        ],
      },
    ];
    // Both links fit 'root' (through one and two ancestors), and neither is aliased or short-named 'repo': ambiguous.
    const projects = [[link(every.get('r1/src')!), link(every.get('r2/out')!)], []];
    const cells = tabled(tools, projects, every);
    expect(cells).to.deep.equal(reference(tools, projects, every));
    expect(cells[0]).to.deep.equal({
      projectId: 'p0',
      toolId: 't0',
      status: 'FAILED',
      failedSlots: 3,
      reasons: ['NO_MATCH', 'AMBIGUOUS', 'NOT_FOUND'],
    });
    expect(cells[1].reasons).to.deep.equal(['NO_MATCH', 'NOT_FOUND']);
  });

  it('takes a link through any of its type’s ancestors, and a cell is the worst of its slots', () => {
    const tools = [
      { slots: [slot('src', 'root')] },
      { slots: [slot('src', 'side'), slot('out', 'mid', { binding: 'PARAMETER' })] },
      { slots: [slot('cache', 'leaf', { required: false })] },
    ];
    const projects = [[link(every.get('r4/src')!)]];
    const cells = tabled(tools, projects, every);
    expect(cells).to.deep.equal(reference(tools, projects, every));
    expect(cells.map((c) => c.status)).to.deep.equal(['READY', 'DEFERRED', 'OPTIONAL_UNBOUND']);
  });

  it('equals cellOf over resolveSlots, pair by pair, on generated registries', () => {
    const slotArb = fc.record({
      name: fc.constantFrom(...NAMES, 'cache'),
      type: fc.constantFrom(...TYPES),
      binding: fc.constantFrom('CONTEXTUAL', 'CONTEXTUAL', 'STATIC', 'PARAMETER'),
      required: fc.boolean(),
      res: fc.nat(),
      registered: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(slotArb, { selector: (s) => s.name, maxLength: 4 }), { maxLength: 6 }),
        fc.array(
          fc.uniqueArray(
            fc.record({ at: fc.nat(pool.length - 1), alias: fc.option(fc.constantFrom(...NAMES, 'cache')) }),
            { selector: (l) => l.at, maxLength: 8 },
          ),
          { maxLength: 5 },
        ),
        (toolSpecs, projectSpecs) => {
          const tools = toolSpecs.map((specs) => ({
            slots: specs.map((s) =>
              slot(s.name, s.type, {
                binding: s.binding,
                required: s.required,
                staticResourceId:
                  s.binding !== 'STATIC' ? null : s.registered ? pool[s.res % pool.length].id : 'nowhere/x',
              }),
            ),
          }));
          // Aliases are unique within a project.
          const projects = projectSpecs.map((links) => {
            const seen = new Set<string>();
            return links.map((l) => {
              const alias = l.alias !== null && !seen.has(l.alias) ? l.alias : null;
              if (alias) seen.add(alias);
              return link(pool[l.at], alias);
            });
          });
          expect(tabled(tools, projects, every)).to.deep.equal(reference(tools, projects, every));
        },
      ),
      { numRuns: 500 },
    );
  });
});
