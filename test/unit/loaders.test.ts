import { expect } from 'chai';
import { HierarchyCache } from '../../src/application/hierarchy-cache';
import { createLoaders } from '../../src/application/loaders';
import type { ResourceInfo, TypeNode } from '../../src/core/model';
import type { RegistryReader } from '../../src/persistence/registry-store';

/** A reader double that records every batch it is asked for. */
function spyReader() {
  const batches: Record<string, string[][]> = {};
  const record = (name: string, keys: readonly string[]) => (batches[name] ??= []).push([...keys]);
  const resource = (id: string): ResourceInfo => ({ id, name: `n/${id}`, shortName: id, typeId: 'T', description: null });
  let typesVersion = 1;
  const reader = {
    registryState: async () => {
      record('state', []);
      return { version: typesVersion, typesVersion };
    },
    allTypes: async (): Promise<TypeNode[]> => {
      record('types', []);
      return [{ id: 'T', name: 't', description: null, parentIds: [] }];
    },
    resourcesByIds: async (ids: readonly string[]) => {
      record('resourcesByIds', ids);
      return ids.filter((id) => id !== 'missing').map(resource);
    },
    resourcesByRefs: async (refs: readonly string[]) => {
      record('resourcesByRefs', refs);
      return refs.map((ref) => resource(ref.replace('n/', '')));
    },
    slotsByToolIds: async (ids: readonly string[]) => {
      record('slots', ids);
      return ids.map((toolId) => ({ toolId, ordinal: 0, name: 's', typeId: 'T', access: 'READ_ONLY', binding: 'CONTEXTUAL', staticResourceId: null, required: true }));
    },
  } as unknown as RegistryReader;
  return { reader, batches, bumpTypes: () => (typesVersion += 1) };
}

describe('createLoaders', () => {
  it('batches lookups made in one tick into one call, answering in key order with null for a miss', async () => {
    const { reader, batches } = spyReader();
    const loaders = createLoaders(reader, { hierarchy: new HierarchyCache() });
    const found = await Promise.all(['b', 'missing', 'a', 'b'].map((id) => loaders.resourceById.load(id)));
    expect(batches.resourcesByIds).to.deep.equal([['b', 'missing', 'a']]);
    expect(found.map((r) => r?.id ?? null)).to.deep.equal(['b', null, 'a', 'b']);
  });

  it('groups slots by tool in one batch', async () => {
    const { reader, batches } = spyReader();
    const loaders = createLoaders(reader, { hierarchy: new HierarchyCache() });
    const slots = await Promise.all(['t1', 't2'].map((id) => loaders.slotsByToolId.load(id)));
    expect(batches.slots).to.deep.equal([['t1', 't2']]);
    expect(slots.map((s) => s.map((x) => x.toolId))).to.deep.equal([['t1'], ['t2']]);
  });

  it('reads the registry state once per request, and loads types only when their version moves', async () => {
    const { reader, batches, bumpTypes } = spyReader();
    const cache = new HierarchyCache();
    const first = createLoaders(reader, { hierarchy: cache });
    await Promise.all([first.hierarchy(), first.hierarchy(), first.state()]);
    const second = createLoaders(reader, { hierarchy: cache });
    await second.hierarchy();
    expect(batches.state).to.have.length(2);
    expect(batches.types).to.have.length(1);
    bumpTypes();
    await createLoaders(reader, { hierarchy: cache }).hierarchy();
    expect(batches.types).to.have.length(2);
  });

  it('forgets what it read after a write (clearAll)', async () => {
    const { reader, batches } = spyReader();
    const loaders = createLoaders(reader, { hierarchy: new HierarchyCache() });
    await loaders.resourceById.load('a');
    await loaders.state();
    loaders.clearAll();
    await loaders.resourceById.load('a');
    await loaders.state();
    expect(batches.resourcesByIds).to.have.length(2);
    expect(batches.state).to.have.length(2);
  });
});
