import { expect } from 'chai';
import fc from 'fast-check';
import { ChangeIndex } from '../../src/application/versioning/change-index';
import { DEPENDS } from '../../src/application/versioning/dependencies';
import { NameIndexes } from '../../src/application/versioning/name-index';
import type { RegistryEdit } from '../../src/core/registry-edit';
import type { NamedItem, Page, PageRequest } from '../../src/persistence/records';

/** The page a keyset statement answers, worked out the plain way: filter, sort, slice. */
function expectedPage(all: readonly NamedItem[], request: PageRequest): Page<NamedItem> {
  const sorted = [...all].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const inWindow = sorted.filter(
    (item) =>
      (request.after === null || item.name > request.after) && (request.before === null || item.name < request.before),
  );
  const counted = request.count !== false;
  if (!request.fromEnd) {
    const rows = inWindow.slice(0, request.size + 1);
    return {
      items: rows.slice(0, request.size),
      totalCount: counted ? sorted.length : -1,
      hasNextPage: rows.length > request.size,
      hasPreviousPage: counted && request.after !== null && sorted.some((i) => i.name <= request.after!),
    };
  }
  const rows = inWindow.slice(Math.max(0, inWindow.length - request.size - 1));
  return {
    items: rows.slice(Math.max(0, rows.length - request.size)),
    totalCount: counted ? sorted.length : -1,
    hasNextPage: counted && request.before !== null && sorted.some((i) => i.name >= request.before!),
    hasPreviousPage: rows.length > request.size,
  };
}

const name = fc.stringMatching(/^[a-c]{1,3}(\/[a-c]{1,2})?$/);

describe('NameIndexes (every name of a kind, kept for pages with no filter)', () => {
  it('answers every window as the keyset statements do', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(name, { maxLength: 30 }),
        fc.record({
          size: fc.integer({ min: 1, max: 6 }),
          fromEnd: fc.boolean(),
          after: fc.option(name, { nil: null }),
          before: fc.option(name, { nil: null }),
          count: fc.boolean(),
        }),
        async (names, window) => {
          const items = names.map((n, i) => ({ id: `id-${i}`, name: n }));
          const indexes = new NameIndexes(new ChangeIndex(1, async () => [], 100));
          const request: PageRequest = { ...window, nameContains: null };
          const page = await indexes.page('tool', request, 1, async () =>
            [...items].sort((a, b) => (a.name < b.name ? -1 : 1)),
          );
          expect(page).to.deep.equal(expectedPage(items, request));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('applies this process’s edits in order, reads the list once, and reads it again after a write it missed', async () => {
    const changes = new ChangeIndex(1, async () => []);
    const indexes = new NameIndexes(changes);
    let reads = 0;
    let stored = [
      { id: 'A', name: 'a' },
      { id: 'C', name: 'c' },
    ];
    const readAll = async () => {
      reads += 1;
      return stored;
    };
    const page = (version: number) =>
      indexes
        .page('tool', { size: 10, fromEnd: false, after: null, before: null, nameContains: null }, version, readAll)
        .then((p) => p.items.map((i) => i.name));
    expect(await page(1)).to.deep.equal(['a', 'c']);
    const tool = (id: string, n: string) => ({ id, name: n, description: null, slots: [] });
    const edits: RegistryEdit[] = [
      { kind: 'TOOL', before: null, after: tool('B', 'b') },
      { kind: 'TOOL', before: tool('C', 'c'), after: tool('C', 'aa') },
      { kind: 'PROJECT', before: null, after: { id: 'P', name: 'p', description: null } },
    ];
    changes.committed(2, [DEPENDS.list('tool')]);
    indexes.committed(2, edits);
    expect(await page(2)).to.deep.equal(['a', 'aa', 'b']);
    changes.committed(3, [DEPENDS.list('tool')]);
    indexes.committed(3, [{ kind: 'TOOL', before: tool('A', 'a'), after: null }]);
    expect(await page(3)).to.deep.equal(['aa', 'b']);
    expect(reads).to.equal(1);
    // A write of another kind moves the version without touching the list.
    changes.committed(4, [DEPENDS.list('project')]);
    expect(await page(4)).to.deep.equal(['aa', 'b']);
    expect(reads).to.equal(1);
    // A write this process did not make (another instance's) touching tools: the list is read again.
    changes.committed(6, [DEPENDS.list('tool')]);
    changes.committed(5, [DEPENDS.list('resource')]);
    indexes.committed(6, [{ kind: 'TOOL', before: null, after: tool('Z', 'z') }]);
    stored = [{ id: 'Q', name: 'q' }];
    expect(await page(6)).to.deep.equal(['q']);
    expect(reads).to.equal(2);
  });
});
