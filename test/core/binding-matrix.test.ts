import { expect } from 'chai';
import { cellOf } from '../../src/core/binding-matrix';
import type { SlotResolution } from '../../src/core/binding-resolution';
import type { FailureReason } from '../../src/core/errors';

/** A slot's resolution as cellOf reads it: its status and, for a failure, its reason. */
function slotIn(status: SlotResolution['status'], reason: FailureReason | null = null): SlotResolution {
  return { status, reason } as SlotResolution;
}

describe('a binding matrix cell (cellOf)', () => {
  it('is READY when every slot is bound (or the tool has none)', () => {
    expect(cellOf('p', 't', [slotIn('BOUND'), slotIn('BOUND')])).to.deep.equal({
      projectId: 'p',
      toolId: 't',
      status: 'READY',
      failedSlots: 0,
      reasons: [],
    });
    expect(cellOf('p', 't', []).status).to.equal('READY');
  });

  it('is OPTIONAL_UNBOUND when an optional slot found nothing and nothing waits or fails', () => {
    expect(cellOf('p', 't', [slotIn('BOUND'), slotIn('UNBOUND_OPTIONAL')]).status).to.equal('OPTIONAL_UNBOUND');
  });

  it('is DEFERRED when a PARAMETER slot waits for its param, before an optional slot left unbound', () => {
    expect(cellOf('p', 't', [slotIn('UNBOUND_OPTIONAL'), slotIn('DEFERRED')]).status).to.equal('DEFERRED');
  });

  it('is FAILED when any slot fails, counting the failing slots, whatever the others', () => {
    const cell = cellOf('p', 't', [slotIn('DEFERRED'), slotIn('FAILED', 'NO_MATCH'), slotIn('FAILED', 'NO_MATCH')]);
    expect(cell.status).to.equal('FAILED');
    expect(cell.failedSlots).to.equal(2);
    expect(cell.reasons).to.deep.equal(['NO_MATCH']);
  });

  it('lists each failure reason once, in the order of FAILURE_REASONS, whatever the slots’ order', () => {
    const cell = cellOf('p', 't', [
      slotIn('FAILED', 'NOT_FOUND'),
      slotIn('FAILED', 'AMBIGUOUS'),
      slotIn('FAILED', 'NOT_FOUND'),
      slotIn('FAILED', 'NO_MATCH'),
    ]);
    expect(cell.reasons).to.deep.equal(['NO_MATCH', 'AMBIGUOUS', 'NOT_FOUND']);
    expect(cell.failedSlots).to.equal(4);
  });

  it('gives each cell a list of its own: a later cell’s reasons do not show in an earlier one', () => {
    const ready = cellOf('p', 't', [slotIn('BOUND')]);
    const failed = cellOf('p', 'u', [slotIn('FAILED', 'TYPE_MISMATCH')]);
    expect(ready.reasons).to.deep.equal([]);
    expect(failed.reasons).to.deep.equal(['TYPE_MISMATCH']);
  });
});
