import { expect } from 'chai';
import { AccessCache } from '../../src/application/versioning/access-cache';
import { ChangeIndex } from '../../src/application/versioning/change-index';
import { HierarchyCache } from '../../src/application/versioning/hierarchy-cache';
import { ReadSession } from '../../src/application/versioning/read-session';
import { approximateBytes, RecordCache } from '../../src/application/versioning/record-cache';
import { LocalClock, SharedDatabaseClock } from '../../src/application/versioning/registry-clock';
import type { ResourceInfo, TypeNode } from '../../src/core/model';
import type { RegistryReader } from '../../src/persistence/registry-reader';

const caches = (reader: RegistryReader) => {
  const changes = new ChangeIndex(0, () => Promise.resolve([]));
  return {
    hierarchy: new HierarchyCache(),
    records: new RecordCache(),
    names: null,
    clock: new SharedDatabaseClock(reader),
    changes,
    access: new AccessCache(reader, changes),
  };
};

/** For sessions that read no grants or tokens. */
const unusedAccess = null as unknown as AccessCache;

/** A reader double that records every batch it is asked for. */
function spyReader() {
  const batches: Record<string, string[][]> = {};
  const record = (name: string, keys: readonly string[]) => (batches[name] ??= []).push([...keys]);
  const resource = (id: string): ResourceInfo => ({
    id,
    name: `n/${id}`,
    shortName: id,
    typeId: 'T',
    description: null,
  });
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
    slotsWithStaticResources: async (ids: readonly string[]) => {
      record('slots', ids);
      // A tool named static-… has one slot, binding resource "fixed" statically.
      const slots = ids.map((toolId) => ({
        toolId,
        ordinal: 0,
        name: 's',
        typeId: 'T',
        access: 'READ_ONLY',
        binding: toolId.startsWith('static-') ? 'STATIC' : 'CONTEXTUAL',
        staticResourceId: toolId.startsWith('static-') ? 'fixed' : null,
        required: true,
      }));
      return { slots, staticResources: slots.some((x) => x.staticResourceId) ? [resource('fixed')] : [] };
    },
  } as unknown as RegistryReader;
  return { reader, batches, bumpTypes: () => (typesVersion += 1), bumpVersion: () => (typesVersion += 1) };
}

describe('ReadSession', () => {
  it('batches lookups made in one tick into one call, answering in key order with null for a miss', async () => {
    const { reader, batches } = spyReader();
    const loaders = new ReadSession(reader, caches(reader));
    const found = await Promise.all(['b', 'missing', 'a', 'b'].map((id) => loaders.resourceById.load(id)));
    expect(batches.resourcesByIds).to.deep.equal([['b', 'missing', 'a']]);
    expect(found.map((r) => r?.id ?? null)).to.deep.equal(['b', null, 'a', 'b']);
  });

  it("answers loads of the resources static slots bind with what the slots' batch read, reading nothing more", async () => {
    const { reader, batches } = spyReader();
    const session = new ReadSession(reader, caches(reader));
    const [slots] = await Promise.all(['static-1', 'static-2'].map((id) => session.slotsByToolId.load(id)));
    expect(session.loadedResource('fixed')?.id, 'known at once').to.equal('fixed');
    const [fixed, other] = await session.resourceById.loadMany([slots[0].staticResourceId!, 'other']);
    expect([fixed, other].map((r) => (r instanceof Error ? 'error' : (r?.id ?? null)))).to.deep.equal([
      'fixed',
      'other',
    ]);
    expect(batches.slots).to.deep.equal([['static-1', 'static-2']]);
    expect(batches.resourcesByIds, 'only the resource the slots did not bind').to.deep.equal([['other']]);
  });

  it('groups slots by tool in one batch', async () => {
    const { reader, batches } = spyReader();
    const loaders = new ReadSession(reader, caches(reader));
    const slots = await Promise.all(['t1', 't2'].map((id) => loaders.slotsByToolId.load(id)));
    expect(batches.slots).to.deep.equal([['t1', 't2']]);
    expect(slots.map((s) => s.map((x) => x.toolId))).to.deep.equal([['t1'], ['t2']]);
  });

  it('reads the registry state once per request, and loads types only when their version moves', async () => {
    const { reader, batches, bumpTypes } = spyReader();
    const cache = new HierarchyCache();
    const first = new ReadSession(reader, {
      hierarchy: cache,
      records: new RecordCache(),
      names: null,
      clock: new SharedDatabaseClock(reader),
      changes: new ChangeIndex(0, () => Promise.resolve([])),
      access: unusedAccess,
    });
    await Promise.all([first.hierarchy(), first.hierarchy(), first.currentVersion()]);
    const second = new ReadSession(reader, {
      hierarchy: cache,
      records: new RecordCache(),
      names: null,
      clock: new SharedDatabaseClock(reader),
      changes: new ChangeIndex(0, () => Promise.resolve([])),
      access: unusedAccess,
    });
    await second.hierarchy();
    expect(batches.state).to.have.length(2);
    expect(batches.types).to.have.length(1);
    bumpTypes();
    await new ReadSession(reader, {
      hierarchy: cache,
      records: new RecordCache(),
      names: null,
      clock: new SharedDatabaseClock(reader),
      changes: new ChangeIndex(0, () => Promise.resolve([])),
      access: unusedAccess,
    }).hierarchy();
    expect(batches.types).to.have.length(2);
  });

  it('forgets what it read after a write (clearAll), and reads the new registry version', async () => {
    const { reader, batches, bumpVersion } = spyReader();
    const shared = caches(reader);
    const loaders = new ReadSession(reader, shared);
    await loaders.resourceById.load('a');
    await loaders.currentVersion();
    shared.changes.committed(bumpVersion(), ['resource:a']); // what a write to resource a does
    loaders.reset();
    await loaders.resourceById.load('a');
    await loaders.currentVersion();
    expect(batches.resourcesByIds).to.have.length(2);
    expect(batches.state).to.have.length(2);
  });

  it('answers later requests at the same registry version from the record cache, misses included', async () => {
    const { reader, batches } = spyReader();
    const shared = caches(reader);
    await new ReadSession(reader, shared).resourceById.loadMany(['a', 'missing']);
    const again = await new ReadSession(reader, shared).resourceById.loadMany(['a', 'missing', 'b']);
    expect(batches.resourcesByIds).to.deep.equal([['a', 'missing'], ['b']]);
    expect(again.map((r) => (r instanceof Error ? 'error' : (r?.id ?? null)))).to.deep.equal(['a', null, 'b']);
  });

  it('keeps records across a registry version a write moved, except those the write touched', async () => {
    const { reader, batches, bumpVersion } = spyReader();
    const shared = caches(reader);
    await new ReadSession(reader, shared).resourceById.loadMany(['a', 'b', 'missing']);
    const version = bumpVersion(); // a write that touched resource b, and one that created resource "missing"
    shared.changes.committed(version, ['resource:b', 'resource:missing', 'resources']);
    const again = await new ReadSession(reader, shared).resourceById.loadMany(['a', 'b', 'missing']);
    expect(batches.resourcesByIds).to.deep.equal([
      ['a', 'b', 'missing'],
      ['b', 'missing'],
    ]);
    expect(again.map((r) => (r instanceof Error ? 'error' : (r?.id ?? null)))).to.deep.equal(['a', 'b', null]);
  });

  it("reads a tool's slots again after a write to that tool, and a name's lookup after a write to that name", async () => {
    const { reader, batches, bumpVersion } = spyReader();
    const shared = caches(reader);
    const first = new ReadSession(reader, shared);
    await Promise.all([first.slotsByToolId.loadMany(['t1', 't2']), first.resourceByRef.loadMany(['n/x', 'n/y'])]);
    shared.changes.committed(bumpVersion(), ['tool:t2', 'resource@n/y']);
    const second = new ReadSession(reader, shared);
    await Promise.all([second.slotsByToolId.loadMany(['t1', 't2']), second.resourceByRef.loadMany(['n/x', 'n/y'])]);
    expect(batches.slots).to.deep.equal([['t1', 't2'], ['t2']]);
    expect(batches.resourcesByRefs).to.deep.equal([['n/x', 'n/y'], ['n/y']]);
  });

  it('reads again what it cannot vouch for: writes of another instance are read from the change log first', async () => {
    const { reader, batches, bumpVersion } = spyReader();
    const logged: { version: number; keys: string }[] = [];
    const shared = {
      ...caches(reader),
      changes: new ChangeIndex(
        1,
        async (after, upTo) =>
          logged
            .filter((e) => e.version > after.version && e.version <= upTo)
            .map((e, seq) => ({
              id: `c${seq}`,
              version: e.version,
              seq,
              kind: 'RESOURCE' as const,
              action: 'UPDATED' as const,
              entityId: e.keys,
              entityName: `n/${e.keys}`,
              previousName: null,
              relatedId: null,
              at: new Date(0),
              actor: null,
              summary: '',
              before: null,
              after: null,
            })) as never,
      ),
    };
    await new ReadSession(reader, shared).resourceById.loadMany(['a', 'b']);
    logged.push({ version: bumpVersion(), keys: 'a' }); // committed elsewhere: this process only sees the version move
    await new ReadSession(reader, shared).resourceById.loadMany(['a', 'b']);
    expect(batches.resourcesByIds).to.deep.equal([['a', 'b'], ['a']]);
  });
});

describe('RecordCache', () => {
  it('keeps an entry known right at a newer version over a value read at an older one', () => {
    const cache = new RecordCache();
    cache.store(5, 'tool', [['t', 'new']]);
    cache.store(4, 'tool', [
      ['t', 'old'],
      ['u', 'old'],
    ]);
    expect(cache.lookup(5, 'tool', ['t'])).to.deep.equal(['new']);
    expect(cache.lookup(4, 'tool', ['t', 'u'])).to.deep.equal([undefined, 'old']);
  });

  it('answers at a later version only what stillRight vouches for, which then counts as right at that version', () => {
    const cache = new RecordCache();
    cache.store(1, 'tool', [
      ['t', 'v1'],
      ['u', 'v1'],
      ['m', null],
    ]);
    const asked: [string, unknown, number][] = [];
    const found = cache.lookup<string>(3, 'tool', ['t', 'u', 'm'], (key, value, since) => {
      asked.push([key, value, since]);
      return key !== 'u';
    });
    expect(found).to.deep.equal(['v1', undefined, null]);
    expect(asked).to.deep.equal([
      ['t', 'v1', 1],
      ['u', 'v1', 1],
      ['m', null, 1],
    ]);
    // t and m now count as right at 3 (not asked again there), u is gone; none is used for an older version.
    expect(cache.lookup(3, 'tool', ['t', 'u', 'm'], () => expect.fail('asked again'))).to.deep.equal([
      'v1',
      undefined,
      null,
    ]);
    expect(cache.lookup(2, 'tool', ['t', 'm'])).to.deep.equal([undefined, undefined]);
    // Without a stillRight, nothing older is vouched for.
    expect(cache.lookup(4, 'tool', ['t'])).to.deep.equal([undefined]);
  });

  it('keeps its entries within a budget of bytes, least recently used out first, misses included', () => {
    const record = (i: number) => ({ id: `T${i}`.padEnd(26, '0'), name: `tool-${i}`, description: 'x'.repeat(200) });
    const one = approximateBytes(record(0));
    expect(one).to.be.within(500, 900);
    const cache = new RecordCache(64 * 1024);
    cache.store(1, 'tool', [['miss', null]]);
    for (let i = 0; i < 1000; i++) {
      cache.store(1, 'tool', [[`t${i}`, record(i)]]);
      if (i % 10 === 0) cache.lookup(1, 'tool', ['t0']); // t0 stays recently used
    }
    expect(cache.bytes).to.be.at.most(64 * 1024);
    expect(cache.size).to.be.within(50, 100);
    const [first, second, last, miss] = cache.lookup<ReturnType<typeof record>>(1, 'tool', [
      't0',
      't1',
      't999',
      'miss',
    ]);
    expect(first?.name).to.equal('tool-0');
    expect(second).to.equal(undefined);
    expect(last?.name).to.equal('tool-999');
    expect(miss).to.equal(undefined); // the oldest, evicted like any other entry
    cache.store(1, 'tool', [['gone', null]]);
    expect(cache.lookup(1, 'tool', ['gone'])).to.deep.equal([null]);
    expect(cache.indexed, 'one indexed slot per entry, after evictions').to.equal(cache.size);
  });

  it('keeps the same key apart in two kinds, and its index in step with evictions, drops, oversize values and clear', () => {
    const cache = new RecordCache(8 * 1024);
    cache.store(1, 'tool', [['k', 'a tool']]);
    cache.store(1, 'project', [['k', 'a project']]);
    expect(cache.lookup(1, 'tool', ['k'])).to.deep.equal(['a tool']);
    expect(cache.entryOf(1, 'project', 'k')?.value).to.equal('a project');
    expect(cache.lookup(1, 'resource', ['k'])).to.deep.equal([undefined]);
    // Dropped when stillRight says no: gone from its kind only.
    expect(cache.lookup(2, 'tool', ['k'], () => false)).to.deep.equal([undefined]);
    expect(cache.lookup(1, 'project', ['k'])).to.deep.equal(['a project']);
    expect([cache.size, cache.indexed]).to.deep.equal([1, 1]);
    // A value over an eighth of the budget is not kept, and the value it would have replaced goes too.
    cache.store(1, 'project', [['k', 'x'.repeat(2048)]]);
    cache.store(1, 'tool', [['big', 'x'.repeat(2048)]]);
    expect(cache.lookup(1, 'project', ['k'])).to.deep.equal([undefined]);
    expect(cache.lookup(1, 'tool', ['big'])).to.deep.equal([undefined]);
    expect([cache.size, cache.indexed]).to.deep.equal([0, 0]);
    expect(cache.size).to.equal(cache.indexed);
    // Many small entries: evictions take their slots with them.
    for (let i = 0; i < 200; i++) cache.store(1, i % 2 ? 'tool' : 'project', [[`key-${i}`, `value-${i}`]]);
    expect(cache.bytes).to.be.at.most(8 * 1024);
    expect(cache.size).to.be.below(200).and.equal(cache.indexed);
    expect(cache.lookup(1, 'project', ['key-198'])).to.deep.equal(['value-198']);
    cache.clear();
    expect([cache.size, cache.indexed]).to.deep.equal([0, 0]);
    expect(cache.lookup(1, 'project', ['key-198'])).to.deep.equal([undefined]);
  });
});

describe('LocalClock', () => {
  it('reads the counters once at start, then advances only with commits', async () => {
    let reads = 0;
    const reader = {
      registryState: async () => (reads++, { version: 3, typesVersion: 1 }),
    } as unknown as RegistryReader;
    const clock = await LocalClock.start(reader);
    expect(await clock.current()).to.deep.equal({ version: 3, typesVersion: 1 });
    clock.committed({ version: 4, typesVersion: 2 });
    clock.committed({ version: 2, typesVersion: 0 });
    expect(await clock.current()).to.deep.equal({ version: 4, typesVersion: 2 });
    expect(clock.currentNow()).to.deep.equal({ version: 4, typesVersion: 2 });
    expect(reads).to.equal(1);
  });
});

describe('ReadSession: pinned at once on a clock that keeps the version in memory', () => {
  it('pins synchronously on a LocalClock, and peeks what the cache holds at once, with no wait', async () => {
    const { reader, batches } = spyReader();
    const shared = { ...caches(reader), clock: await LocalClock.start(reader) };
    await new ReadSession(reader, shared).resourceById.load('T');
    const session = new ReadSession(reader, shared);
    expect(session.pinnedVersion()).to.equal(undefined);
    expect(session.pinnedNow()).to.equal(true);
    expect(session.pinnedVersion()).to.equal(1);
    expect(session.resourceById.peek('T')?.id, 'answered in the same turn').to.equal('T');
    expect(await session.currentVersion()).to.equal(1);
    expect(batches.resourcesByIds).to.have.length(1);
  });

  it('says no on a clock that must read the version (PostgreSQL), and pins nothing', async () => {
    const { reader, batches } = spyReader();
    const session = new ReadSession(reader, caches(reader));
    expect(session.pinnedNow()).to.equal(false);
    expect(session.pinnedVersion()).to.equal(undefined);
    expect(batches.state ?? []).to.have.length(0);
    await session.currentVersion();
    expect(session.pinnedNow(), 'once pinned').to.equal(true);
  });
});

describe('ReadSession: answers at once from the record cache (peek), and forks', () => {
  it('peeks nothing before pinning or before a load, then what the cache holds at the pinned version', async () => {
    const { reader, batches } = spyReader();
    const shared = caches(reader);
    const first = new ReadSession(reader, shared);
    expect(first.resourceById.peek('T'), 'not pinned yet').to.equal(undefined);
    await first.resourceById.load('T');
    const second = new ReadSession(reader, shared);
    await second.currentVersion();
    const peeked = second.resourceById.peek('T');
    expect(peeked?.id).to.equal('T');
    expect(batches.resourcesByIds, 'read once, by the first session').to.have.length(1);
    expect(second.dependencies()).to.include('resource:T');
    expect(second.resourceById.peek('never-loaded')).to.equal(undefined);
  });

  it('a fork shares the loaders (one batch for its loads and its parent’s) and records only its own dependencies', async () => {
    const { reader, batches } = spyReader();
    const session = new ReadSession(reader, caches(reader));
    const fork = await session.fork();
    const other = await session.fork();
    await Promise.all([fork.resourceById.load('A'), other.resourceById.load('B'), session.resourceById.load('C')]);
    expect(batches.resourcesByIds).to.deep.equal([['A', 'B', 'C']]);
    expect(fork.dependencies()).to.deep.equal(['resource:A']);
    expect(other.dependencies()).to.deep.equal(['resource:B']);
    // A key another part loaded first still counts for the fork that asks it.
    await fork.resourceById.load('B');
    expect(fork.dependencies()).to.have.members(['resource:A', 'resource:B']);
    expect(session.dependencies()).to.deep.equal(['resource:C']);
    session.recordDependencies(fork.dependencies());
    expect(session.dependencies()).to.have.members(['resource:A', 'resource:B', 'resource:C']);
  });
});
