import { expect } from 'chai';
import { ChangeIndex } from '../../src/application/versioning/change-index';
import { DEPENDS, keysTouchedBy } from '../../src/application/versioning/dependencies';
import type { ChangePosition, ChangeRecord } from '../../src/persistence/records';

/** A change-log entry about a tool, as the log holds it. */
function toolEntry(version: number, seq: number, id: string, name: string): ChangeRecord {
  return {
    id: `C${version}-${seq}`,
    version,
    seq,
    at: '2026-11-30T00:00:00.000Z',
    actor: 'test',
    operation: 'updateTool',
    kind: 'TOOL',
    entityId: id,
    entityName: name,
    previousName: null,
    relatedId: null,
    relatedName: null,
    summary: '',
    impactCount: 0,
    impactComplete: true,
    bindingChanges: [],
    namespace: null,
  };
}

/** A log double: entries by position, and every read it was asked for. */
function log(entries: ChangeRecord[]) {
  const reads: { after: ChangePosition; upTo: number; limit: number }[] = [];
  const read = async (after: ChangePosition, upTo: number, limit: number) => {
    reads.push({ after, upTo, limit });
    return entries
      .filter((e) => e.version > after.version || (e.version === after.version && e.seq > after.seq))
      .filter((e) => e.version <= upTo)
      .slice(0, limit);
  };
  return { read, reads };
}

describe('ChangeIndex: which write last touched what an answer read', () => {
  it('answers synchronously only once caught up: before, it vouches for nothing; caughtUpTo reads the rest of the log', async () => {
    const { read, reads } = log([toolEntry(3, 0, 'T1', 'one')]);
    const index = new ChangeIndex(2, read);
    const t2 = [DEPENDS.thing('tool', 'T2')];
    expect(index.unchangedSinceKnown(2, t2, 3)).to.equal(false); // not caught up to 3
    expect(index.caughtUpTo(2)).to.equal(undefined);
    await index.caughtUpTo(3);
    expect(reads).to.have.length(1);
    expect(index.caughtUpTo(3)).to.equal(undefined);
    expect(index.unchangedSinceKnown(2, t2, 3)).to.equal(true);
    expect(index.unchangedSinceKnown(2, [DEPENDS.thing('tool', 'T1')], 3)).to.equal(false);
    expect(index.unchangedSinceKnown(3, [DEPENDS.thing('tool', 'T1')], 3)).to.equal(true);
    expect(index.unchangedSinceKnown(4, t2, 3)).to.equal(false); // from a version after the current one
  });

  const A = DEPENDS.thing('tool', 'A');
  const B = DEPENDS.thing('tool', 'B');

  it("says an answer holds until a write touches one of its keys, from this process's commits, without reading", async () => {
    const { read, reads } = log([]);
    const index = new ChangeIndex(10, read);
    index.committed(11, [A]);
    index.committed(12, [B]);
    expect(await index.unchangedSince(10, [A], 12)).to.equal(false);
    expect(await index.unchangedSince(11, [A], 12)).to.equal(true);
    expect(await index.unchangedSince(11, [A, B], 12)).to.equal(false);
    expect(await index.unchangedSince(12, [A, B], 12)).to.equal(true);
    expect(await index.unchangedSince(10, [DEPENDS.types], 12)).to.equal(true);
    // An answer from a version the index has not reached yet is not vouched for.
    expect(await index.unchangedSince(13, [A], 12)).to.equal(false);
    expect(reads).to.deep.equal([]);
  });

  it("learns other instances' writes from the change log, once for all requests, then combines them with its own", async () => {
    const { read, reads } = log([toolEntry(11, 0, 'A', 'a'), toolEntry(11, 1, 'X', 'x'), toolEntry(13, 0, 'Y', 'y')]);
    const index = new ChangeIndex(10, read);
    // This process committed 12; 11 and 13 came from elsewhere.
    index.committed(12, [B]);
    expect(index.knownVersion).to.equal(10);
    const answers = await Promise.all([
      index.unchangedSince(10, [A], 13),
      index.unchangedSince(11, [A, DEPENDS.name('tool', 'a')], 13),
      index.unchangedSince(11, [B], 13),
      index.unchangedSince(12, [DEPENDS.thing('tool', 'Y')], 13),
    ]);
    expect(answers).to.deep.equal([false, true, false, false]);
    expect(reads).to.have.length(1);
    expect(reads[0]).to.deep.include({ upTo: 13 });
    expect(index.knownVersion).to.equal(13);
    // Caught up: nothing more to read.
    expect(await index.unchangedSince(13, [A], 13)).to.equal(true);
    expect(reads).to.have.length(1);
  });

  it('reads a long gap page by page, starting each page after the last entry read', async () => {
    const entries = Array.from({ length: 2_500 }, (_, i) => toolEntry(11 + Math.floor(i / 2), i % 2, `T${i}`, `t${i}`));
    const { read, reads } = log(entries);
    const index = new ChangeIndex(10, read);
    const last = entries[entries.length - 1].version;
    expect(await index.unchangedSince(10, [DEPENDS.thing('tool', 'T2499')], last)).to.equal(false);
    expect(await index.unchangedSince(last - 1, [DEPENDS.thing('tool', 'T0')], last)).to.equal(true);
    expect(reads.map((r) => r.after)).to.deep.equal([
      { version: 10, seq: Number.MAX_SAFE_INTEGER },
      { version: entries[999].version, seq: entries[999].seq },
      { version: entries[1999].version, seq: entries[1999].seq },
    ]);
  });

  it('forgets the oldest keys past its size, and then vouches for no answer older than what it forgot', async () => {
    const index = new ChangeIndex(0, log([]).read, 3);
    index.committed(1, ['k1']);
    index.committed(2, ['k2']);
    index.committed(3, ['k3']);
    index.committed(4, ['k4']); // k1 is forgotten: it last changed at 1
    expect(await index.unchangedSince(0, ['never-touched'], 4)).to.equal(false);
    expect(await index.unchangedSince(1, ['never-touched'], 4)).to.equal(true);
    expect(await index.unchangedSince(3, ['k4'], 4)).to.equal(false);
  });

  it('derives the same keys from an edit and from its change-log entry: every kind touches the log and what it names', () => {
    expect(
      keysTouchedBy({ kind: 'RESOURCE_TYPE', id: 'T', name: 't', previousName: null, relatedId: null }),
    ).to.deep.equal([DEPENDS.types, DEPENDS.changes]);
    expect(
      keysTouchedBy({ kind: 'RESOURCE', id: 'R', name: 'new/name', previousName: 'old/name', relatedId: null }),
    ).to.include.members([
      DEPENDS.thing('resource', 'R'),
      DEPENDS.name('resource', 'new/name'),
      DEPENDS.name('resource', 'old/name'),
      DEPENDS.list('resource'),
    ]);
    expect(keysTouchedBy({ kind: 'LINK', id: 'P', name: 'p', previousName: null, relatedId: 'R' })).to.include.members([
      DEPENDS.thing('project', 'P'),
      DEPENDS.linksOf('R'),
      DEPENDS.links,
    ]);
    expect(keysTouchedBy({ kind: 'TOOL', id: 'T', name: 't', previousName: null, relatedId: null })).to.include(
      DEPENDS.staticBindings,
    );
  });
});
