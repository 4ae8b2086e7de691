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
  const failed = slots.filter((s) => s.status === 'FAILED');
  const reasons = FAILURE_REASONS.filter((reason) => failed.some((s) => s.reason === reason));
  const status: CellStatus =
    failed.length > 0
      ? 'FAILED'
      : slots.some((s) => s.status === 'DEFERRED')
        ? 'DEFERRED'
        : slots.some((s) => s.status === 'UNBOUND_OPTIONAL')
          ? 'OPTIONAL_UNBOUND'
          : 'READY';
  return { projectId, toolId, status, failedSlots: failed.length, reasons };
}
