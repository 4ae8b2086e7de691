import { CELL_STATUSES, type CellStatus } from './binding-matrix';
import { CellTable, STATUS_OF_WEIGHT } from './cell-table';
import type { LinkedResource, ResourceInfo, SlotDefinition } from './model';
import { compareNames, type TypeHierarchy } from './type-hierarchy';

/** How many pairs of each cell status. */
export type StatusCounts = Record<CellStatus, number>;

/** No pairs yet. */
export function noCounts(): StatusCounts {
  return { READY: 0, DEFERRED: 0, OPTIONAL_UNBOUND: 0, FAILED: 0 };
}

/**
 * Counts the cell statuses of every (tool, project) pair of a registry,
 * resolved without params, in total and per tool and per project, without
 * resolving every pair slot by slot: each project's cells are read from a
 * CellTable of every tool (see there why that is cheap, and why its outcomes
 * are resolveSlot's).
 *
 * Feed it one project at a time (so a caller can pause between them), then
 * read the counts. The tests hold it equal to cellOf over resolveSlots, pair
 * by pair.
 */
export class CellCounter {
  private readonly table: CellTable;
  /** Counts by weight: per tool and per project, 4 apiece. */
  private readonly toolCounts: Uint32Array;
  private readonly projectCounts: number[] = [];

  constructor(
    tools: readonly { readonly slots: readonly SlotDefinition[] }[],
    hierarchy: TypeHierarchy,
    staticResources: ReadonlyMap<string, ResourceInfo>,
  ) {
    this.table = new CellTable(tools, hierarchy, staticResources);
    this.toolCounts = new Uint32Array(tools.length * 4);
  }

  /** Counts every tool's cell in one more project. */
  addProject(links: readonly LinkedResource[]): void {
    const { table, toolCounts } = this;
    table.setProject(links);
    const project = [0, 0, 0, 0];
    for (let t = 0; t < table.tools; t++) {
      const weight = table.weight(t);
      toolCounts[t * 4 + weight] += 1;
      project[weight] += 1;
    }
    this.projectCounts.push(...project);
  }

  /** The counts of every pair fed so far. */
  counts(): { total: StatusCounts; byTool: StatusCounts[]; byProject: StatusCounts[] } {
    const total = noCounts();
    const read = (from: ArrayLike<number>, n: number) =>
      Array.from({ length: n }, (_, i) => {
        const counts = noCounts();
        for (let w = 0; w < 4; w++) counts[STATUS_OF_WEIGHT[w]] = from[i * 4 + w];
        return counts;
      });
    const byProject = read(this.projectCounts, this.projectCounts.length / 4);
    for (const counts of byProject) for (const status of CELL_STATUSES) total[status] += counts[status];
    return { total, byTool: read(this.toolCounts, this.table.tools), byProject };
  }
}

/** Counts cells by status. */
export function countStatuses(cells: Iterable<{ readonly status: CellStatus }>): StatusCounts {
  const counts = noCounts();
  for (const cell of cells) counts[cell.status] += 1;
  return counts;
}

/** Rule for "failing first": the most failed pairs first, then the most optional-unbound, then by name. */
export function failingFirst(a: { counts: StatusCounts; name: string }, b: { counts: StatusCounts; name: string }) {
  return (
    b.counts.FAILED - a.counts.FAILED ||
    b.counts.OPTIONAL_UNBOUND - a.counts.OPTIONAL_UNBOUND ||
    compareNames(a.name, b.name)
  );
}

/** Rule for "failing first" among cells: FAILED (most failed slots first), then OPTIONAL_UNBOUND, DEFERRED, READY. */
export const ATTENTION: Readonly<Record<CellStatus, number>> = {
  FAILED: 0,
  OPTIONAL_UNBOUND: 1,
  DEFERRED: 2,
  READY: 3,
};
