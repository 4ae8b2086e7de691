import type { SlotResolution } from './binding-resolution';
import { FAILURE_REASONS, type FailureReason } from './errors';

/** How a tool stands in a project, at a glance. */
export const CELL_STATUSES = ['READY', 'DEFERRED', 'OPTIONAL_UNBOUND', 'FAILED'] as const;
export type CellStatus = (typeof CELL_STATUSES)[number];

/** One tool in one project: its status, how many slots fail, and why. */
export interface MatrixCell {
  readonly projectId: string;
  readonly toolId: string;
  readonly status: CellStatus;
  readonly failedSlots: number;
  /** The distinct failure reasons, in the order of FAILURE_REASONS. */
  readonly reasons: FailureReason[];
}

/**
 * Rule: a cell is FAILED when any slot fails; else DEFERRED when a PARAMETER
 * slot waits for its param (everything else is bound); else OPTIONAL_UNBOUND
 * when an optional slot found nothing; else READY.
 */
export function cellOf(projectId: string, toolId: string, slots: readonly SlotResolution[]): MatrixCell {
  // One pass, allocating nothing but the cell (a matrix page is a thousand of them): most cells have no failure.
  let failedSlots = 0;
  let deferred = false;
  let unbound = false;
  let reasons: FailureReason[] = NO_REASONS;
  for (const slot of slots) {
    if (slot.status === 'FAILED') {
      failedSlots++;
      if (slot.reason && !reasons.includes(slot.reason)) reasons = [...reasons, slot.reason];
    } else if (slot.status === 'DEFERRED') deferred = true;
    else if (slot.status === 'UNBOUND_OPTIONAL') unbound = true;
  }
  if (reasons.length > 1) reasons.sort((a, b) => FAILURE_REASONS.indexOf(a) - FAILURE_REASONS.indexOf(b));
  const status: CellStatus =
    failedSlots > 0 ? 'FAILED' : deferred ? 'DEFERRED' : unbound ? 'OPTIONAL_UNBOUND' : 'READY';
  return { projectId, toolId, status, failedSlots, reasons };
}

/** The reasons of a cell with no failure: one shared empty list, never changed (a cell's list is replaced, not pushed to). */
const NO_REASONS: FailureReason[] = [];
