import { expect } from 'chai';
import { newId } from '../../src/application/ids';
import { fittingLinksKey, RegistryVersioning } from '../../src/application/versioning';
import { Database } from '../../src/persistence/database';
import { sqlite } from '../support/backends';
import { AccessCache } from '../../src/application/versioning/access-cache';
import { ChangeIndex } from '../../src/application/versioning/change-index';
import { HierarchyCache } from '../../src/application/versioning/hierarchy-cache';
import { AccessReads } from '../../src/application/versioning/access-reads';
import { ReadSession } from '../../src/application/versioning/read-session';
import { RecordCache } from '../../src/application/versioning/record-cache';
import type { RegistryClock } from '../../src/application/versioning/registry-clock';
import { RegistryReader } from '../../src/persistence/registry-reader';

/**
 * The registry version rule: a request reads the version once, before any
 * registry data. The session is the only way to the reader, and every way
 * through it pins the version first. (That nothing else imports the reader is
 * checked by dependency-cruiser: see architecture.test.ts.)
 */
describe('the read session (the only way to read the registry)', () => {
  /** A reader whose every method fails loudly unless the version was pinned first; every call is logged. */
  function guardedReader(log: string[], pinned: () => boolean): RegistryReader {
    const methods = Object.getOwnPropertyNames(RegistryReader.prototype).filter((n) => n !== 'constructor');
    const fake: Record<string, unknown> = {};
    for (const name of methods) {
      fake[name] = async (...args: unknown[]) => {
        if (!pinned()) throw new Error(`registry read '${name}' before the version was pinned`);
        log.push(`read:${name}`);
        if (name === 'allTypes') return [{ id: 'T', name: 't', description: null, parentIds: [] }];
        if (name === 'resourcePagesByTypeSets') {
          const sets = args[0] as { key: string }[];
          return new Map(sets.map((s) => [s.key, { items: [], totalCount: 0, hasNextPage: false }]));
        }
        if (name.startsWith('page')) return { items: [], totalCount: 0, hasNextPage: false };
        if (name === 'registryState') return { version: 1, typesVersion: 1 };
        if (name === 'slotsWithStaticResources') return { slots: [], staticResources: [] };
        if (name === 'toolsWithSlotsByRefs') return { tools: [], slots: [], staticResources: [] };
        if (name === 'renamedFrom') return 'T';
        return [];
      };
    }
    return fake as unknown as RegistryReader;
  }

  function setUp() {
    const log: string[] = [];
    let pins = 0;
    const clock: RegistryClock = {
      current: async () => {
        pins += 1;
        log.push('pin');
        return { version: 7, typesVersion: 3 };
      },
      committed: () => undefined,
    };
    const reader = guardedReader(log, () => pins > 0);
    const changes = new ChangeIndex(0, () => Promise.resolve([]));
    const session = new ReadSession(reader, {
      clock,
      hierarchy: new HierarchyCache(),
      records: new RecordCache(),
      names: null,
      changes,
      access: new AccessCache(reader, changes),
    });
    return { log, session, reader, pins: () => pins };
  }

  const window = { size: 5, fromEnd: false, after: null, before: null };
  const page = { ...window, nameContains: null };
  /** Every read the session offers, and how to make it. */
  const READS: Record<string, (s: ReadSession) => Promise<unknown>> = {
    hierarchy: (s) => s.hierarchy(),
    pageTools: (s) => s.pageTools(page),
    pageProjects: (s) => s.pageProjects(page),
    pageTypes: (s) => s.pageTypes(page),
    pageResources: (s) => s.pageResources(page, null),
    resourceById: (s) => s.resourceById.load('R'),
    resourceByRef: (s) => s.resourceByRef.load('r/x'),
    toolById: (s) => s.toolById.load('T'),
    toolByRef: (s) => s.toolByRef.load('t/x'),
    projectById: (s) => s.projectById.load('P'),
    projectByRef: (s) => s.projectByRef.load('p/x'),
    slotsByToolId: (s) => s.slotsByToolId.load('T'),
    linksByProjectId: (s) => s.linksByProjectId.load('P'),
    fittingLinks: (s) => s.fittingLinks.load(fittingLinksKey('P', 'TY')),
    staticSlotsByResourceId: (s) => s.staticSlotsByResourceId.load('R'),
    linksByResourceId: (s) => s.linksByResourceId.load('R'),
    changeById: (s) => s.changeById.load('C'),
    compatibleResources: (s) => s.compatibleResources.load({ typeId: 'T', window }),
    pageChanges: (s) =>
      s.pageChanges({ kind: null, ref: null, actor: null, sinceVersion: null, accessNamespaces: null }, window),
    grantsOf: (s) => s.access.grantsOf(['user:alice']),
    apiTokenByDigest: (s) => s.access.apiTokenByDigest('00'),
    pageGrants: (s) =>
      s.access.pageGrants({ namespace: null, principal: null, visible: { namespaces: null, principals: [] } }, window),
    grantsByIds: (s) => s.access.grantsByIds(['G']),
    apiTokensByIds: (s) => s.access.apiTokensByIds(['K']),
    pageApiTokens: (s) => s.access.pageApiTokens({ namespaces: null, principals: [] }, window),
    apiTokenByRef: (s) => s.access.apiTokenByRef('ci'),
    nameCandidates: (s) => s.nameCandidates('tool', 'acme/lint'),
    renamedFrom: (s) => s.renamedFrom('TOOL', 'acme/lint'),
    changesAfter: (s) => s.changesAfter({ version: 1, seq: 0 }, 5, 10),
    changeHeadsAfter: (s) => s.changeHeadsAfter({ version: 1, seq: 0 }, 5, 10),
    recordsOf: (s) =>
      s.recordsOf(
        { items: [{ id: 'T', name: 't/x' }], totalCount: 1, hasNextPage: false, hasPreviousPage: false },
        s.toolById,
      ),
  };
  /** Members that read nothing by themselves, and the session's internals. */
  const NOT_READS = [
    'constructor',
    'pinnedVersion',
    'pinnedNow',
    'currentVersion',
    'reset',
    'loadedHierarchy',
    'loadedSlots',
    'loadedResource',
    // Grants and tokens: a sub-object whose reads are listed above (s.access.…) and checked below.
    'access',
    'dependencies',
    'unchangedSince',
    // A fork pins and reads through the same loaders; freshness pins, then asks the change index in memory.
    'fork',
    'recordDependencies',
    'freshness',
  ];
  const INTERNALS = ['read', 'pageRead', 'loaderOf', 'refLoader'];

  it('offers no member this test does not know, so a new read cannot slip past the checks below', () => {
    const members = Object.getOwnPropertyNames(ReadSession.prototype);
    expect(members.filter((m) => !(m in READS) && !NOT_READS.includes(m) && !INTERNALS.includes(m))).to.deep.equal([]);
    // Its access reads too: each is one of READS, or the kept token's lookup, which reads only when pinned without a read.
    const access = Object.getOwnPropertyNames(AccessReads.prototype);
    expect(access.filter((m) => !(m in READS) && !['constructor', 'apiTokenByDigestNow'].includes(m))).to.deep.equal(
      [],
    );
  });

  it('answers loadedSlots and loadedResource only with what its loaders have read (and recorded), reading nothing', async () => {
    const { log, session } = setUp();
    expect(session.loadedSlots('T')).to.equal(undefined);
    expect(session.loadedResource('R')).to.equal(undefined);
    expect(log).to.deep.equal([]);
    await Promise.all([session.slotsByToolId.load('T'), session.resourceById.load('R')]);
    expect(session.loadedSlots('T')).to.deep.equal([]);
    expect(session.loadedResource('R')).to.equal(null);
    expect(session.dependencies()).to.include.members(['tool:T', 'resource:R']);
    session.reset();
    expect(session.loadedSlots('T')).to.equal(undefined);
  });

  for (const [name, make] of Object.entries(READS)) {
    it(`${name}: pins the registry version before it reads`, async () => {
      const { log, session } = setUp();
      await make(session);
      expect(log[0]).to.equal('pin');
      expect(log.filter((e) => e.startsWith('read:')).length).to.be.greaterThan(0);
      expect(session.pinnedVersion()).to.equal(7);
    });
  }

  it('pins once per request, however many reads it makes', async () => {
    const { session, pins } = setUp();
    for (const make of Object.values(READS)) await make(session);
    expect(pins()).to.equal(1);
  });

  it('pins again after a write in the same request (reset), so the request reads its own change', async () => {
    const { session, pins } = setUp();
    await session.toolById.load('T');
    session.reset();
    expect(session.pinnedVersion()).to.equal(undefined);
    await session.toolById.load('T');
    expect(pins()).to.equal(2);
  });

  it('has read nothing, and pinned nothing, until asked', () => {
    const { log, session } = setUp();
    expect(session.pinnedVersion()).to.equal(undefined);
    expect(log).to.deep.equal([]);
  });

  it('cannot be made to hand out its reader, not even through a cast', () => {
    const { session, reader } = setUp();
    const anySession = session as unknown as Record<string, unknown>;
    expect(anySession.reader).to.equal(undefined);
    for (const key of Object.keys(session)) expect(anySession[key]).to.not.equal(reader);
  });

  it('a reader used without pinning fails loudly (the guard this test relies on works)', async () => {
    const log: string[] = [];
    const reader = guardedReader(log, () => false);
    let error: Error | null = null;
    try {
      await reader.toolsByIds(['T']);
    } catch (e) {
      error = e as Error;
    }
    expect(error?.message).to.equal("registry read 'toolsByIds' before the version was pinned");
  });
});

describe('RegistryVersioning.write (every write moves the version in its own transaction)', () => {
  let db: Database;
  let versioning: RegistryVersioning;
  before(async () => {
    db = await Database.open(await sqlite.freshDatabase());
    await db.migrate();
    versioning = await RegistryVersioning.open(db);
  });
  after(() => db.close());

  const type = (name: string) => ({ id: newId(), name, description: null, parentIds: [] });

  it('moves the version on every write, and the types version only when the edits change types', async () => {
    const start = await versioning.current();
    const typed = await versioning.write(({ writer }) => writer.insertType(type('t-one')));
    expect(typed.state).to.deep.equal({ version: start.version + 1, typesVersion: start.typesVersion + 1 });
    expect(typed.edits.map((e) => e.kind)).to.deep.equal(['RESOURCE_TYPE']);
    const project = await versioning.write(({ writer }) =>
      writer.insertProject({ id: newId(), name: 'p-one', description: null }),
    );
    expect(project.state).to.deep.equal({ version: start.version + 2, typesVersion: start.typesVersion + 1 });
    // The clock has followed, and the database agrees.
    expect(await versioning.current()).to.deep.equal(project.state);
    const [row] = await db.read<{ version: number; types_version: number }>(
      'SELECT version, types_version FROM registry_state',
    );
    expect({ version: row.version, typesVersion: row.types_version }).to.deep.equal(project.state);
  });

  it('a dry run computes everything, stores nothing and leaves the version where it was', async () => {
    const before = await versioning.current();
    const outcome = await versioning.write(({ writer }) => writer.insertType(type('t-dry')), { dryRun: true });
    expect(outcome.dryRun).to.equal(true);
    expect(outcome.edits.map((e) => e.kind)).to.deep.equal(['RESOURCE_TYPE']);
    expect(outcome.state).to.deep.equal(before);
    expect(await versioning.current()).to.deep.equal(before);
    expect(await db.read("SELECT id FROM resource_type WHERE name = 't-dry'")).to.deep.equal([]);
  });

  it('a failed write moves nothing', async () => {
    const before = await versioning.current();
    let failed = false;
    try {
      await versioning.write(async ({ writer }) => {
        await writer.insertType(type('t-failed'));
        throw new Error('refused');
      });
    } catch {
      failed = true;
    }
    expect(failed).to.equal(true);
    expect(await versioning.current()).to.deep.equal(before);
    expect(await db.read("SELECT id FROM resource_type WHERE name = 't-failed'")).to.deep.equal([]);
  });
});
