import { CELL_STATUSES, type CellStatus } from './binding-matrix';
import { resolveSlot, type ResolutionContext, type SlotStatus } from './binding-resolution';
import type { LinkedResource, ResourceInfo, SlotDefinition } from './model';
import { compareNames, type TypeHierarchy } from './type-hierarchy';

/** How many pairs of each cell status. */
export type StatusCounts = Record<CellStatus, number>;

/** No pairs yet. */
export function noCounts(): StatusCounts {
  return { READY: 0, DEFERRED: 0, OPTIONAL_UNBOUND: 0, FAILED: 0 };
}

/**
 * A slot's weight in its cell, so that a cell is the heaviest of its slots:
 * this is cellOf's rule (FAILED before DEFERRED before OPTIONAL_UNBOUND
 * before READY), written as an order.
 */
const WEIGHT: Record<SlotStatus, number> = { BOUND: 0, UNBOUND_OPTIONAL: 1, DEFERRED: 2, FAILED: 3 };
const CELL_OF_WEIGHT: readonly CellStatus[] = ['READY', 'OPTIONAL_UNBOUND', 'DEFERRED', 'FAILED'];
const FAILED = WEIGHT.FAILED;

/**
 * Counts the cell statuses of every (tool, project) pair of a registry,
 * resolved without params, in total and per tool and per project, without
 * resolving every pair slot by slot. The rules stay binding-resolution's:
 * every slot outcome here is resolveSlot's. Three facts about them make the
 * count cheap:
 *
 * - a STATIC or PARAMETER slot does not depend on the project: it is
 *   resolved once per tool;
 * - a CONTEXTUAL slot's outcome depends only on its name, type and
 *   `required`, and on the project's links whose type fits it: so within a
 *   project it is resolved once per distinct (name, type, required) among all
 *   tools, with only those links;
 * - a slot whose type no link of the project fits is resolved once per
 *   distinct slot, with no links, and that outcome holds in every such project.
 *
 * Feed it one project at a time (so a caller can pause between them), then
 * read the counts. The tests hold it equal to cellOf over resolveSlots, pair
 * by pair.
 */
export class CellCounter {
  /** Per tool: the weight of its project-independent slots, and its contextual slots' keys (keys[from[t]..from[t+1]]). */
  private readonly baseWeight: Uint8Array;
  private readonly keys: Uint32Array;
  private readonly from: Uint32Array;
  /** Per distinct contextual slot: a slot standing for it, and its weight where nothing fits it. */
  private readonly keySlots: SlotDefinition[] = [];
  private readonly unfitWeight: Uint8Array;
  /** Distinct contextual slots by type id. */
  private readonly keysByType = new Map<string, number[]>();
  private readonly weights: Uint8Array;
  /** Counts by weight: per tool and per project, 4 apiece. */
  private readonly toolCounts: Uint32Array;
  private readonly projectCounts: number[] = [];

  constructor(
    tools: readonly { readonly slots: readonly SlotDefinition[] }[],
    private readonly hierarchy: TypeHierarchy,
    private readonly staticResources: ReadonlyMap<string, ResourceInfo>,
  ) {
    const keyOf = new Map<string, number>();
    const none = this.context([]);
    this.baseWeight = new Uint8Array(tools.length);
    const keys: number[] = [];
    this.from = new Uint32Array(tools.length + 1);
    tools.forEach((tool, t) => {
      this.from[t] = keys.length;
      for (const slot of tool.slots) {
        if (slot.binding !== 'CONTEXTUAL') {
          // Rule: STATIC and PARAMETER slots resolve the same in every project.
          this.baseWeight[t] = Math.max(this.baseWeight[t], WEIGHT[resolveSlot(slot, none).status]);
          continue;
        }
        const id = `${slot.typeId}\u0000${slot.required ? 1 : 0}\u0000${slot.name}`;
        let key = keyOf.get(id);
        if (key === undefined) {
          key = this.keySlots.length;
          keyOf.set(id, key);
          this.keySlots.push(slot);
          const ofType = this.keysByType.get(slot.typeId);
          if (ofType) ofType.push(key);
          else this.keysByType.set(slot.typeId, [key]);
        }
        keys.push(key);
      }
      // A tool whose own slots already fail fails everywhere: its contextual slots need not be read.
      if (this.baseWeight[t] === FAILED) keys.length = this.from[t];
    });
    this.from[tools.length] = keys.length;
    this.keys = Uint32Array.from(keys);
    this.unfitWeight = Uint8Array.from(this.keySlots, (slot) => WEIGHT[resolveSlot(slot, none).status]);
    this.weights = new Uint8Array(this.keySlots.length);
    this.toolCounts = new Uint32Array(tools.length * 4);
  }

  /** Counts every tool's cell in one more project. */
  addProject(links: readonly LinkedResource[]): void {
    this.weigh(links);
    this.projectCounts.push(...this.tally());
  }

  /** Sets `weights`: each distinct contextual slot's weight in a project with these links. */
  private weigh(links: readonly LinkedResource[]): void {
    const weights = this.weights;
    weights.set(this.unfitWeight);
    // The links each slot type's slots can take: those of the type or a sub-type (typesFitting, seen from the link).
    const fitting = new Map<string, LinkedResource[]>();
    for (const link of links) {
      const typeId = link.resource.typeId;
      this.addFitting(fitting, typeId, link);
      for (const type of this.hierarchy.ancestorsOf(typeId)) this.addFitting(fitting, type.id, link);
    }
    for (const [type, candidates] of fitting) {
      const context = this.context(candidates);
      for (const key of this.keysByType.get(type)!)
        weights[key] = WEIGHT[resolveSlot(this.keySlots[key], context).status];
    }
  }

  private addFitting(fitting: Map<string, LinkedResource[]>, type: string, link: LinkedResource): void {
    if (!this.keysByType.has(type)) return;
    const list = fitting.get(type);
    if (list) list.push(link);
    else fitting.set(type, [link]);
  }

  /** Each tool's cell from `weights` (the heaviest of its slots), counted per tool; returns the project's counts by weight. */
  private tally(): number[] {
    const project = [0, 0, 0, 0];
    const { keys, from, baseWeight, toolCounts, weights } = this;
    for (let t = 0; t < baseWeight.length; t++) {
      let weight = baseWeight[t];
      for (let i = from[t], end = from[t + 1]; i < end && weight < FAILED; i++) {
        const w = weights[keys[i]];
        if (w > weight) weight = w;
      }
      toolCounts[t * 4 + weight] += 1;
      project[weight] += 1;
    }
    return project;
  }

  /** The counts of every pair fed so far. */
  counts(): { total: StatusCounts; byTool: StatusCounts[]; byProject: StatusCounts[] } {
    const total = noCounts();
    const read = (from: ArrayLike<number>, n: number) =>
      Array.from({ length: n }, (_, i) => {
        const counts = noCounts();
        for (let w = 0; w < 4; w++) counts[CELL_OF_WEIGHT[w]] = from[i * 4 + w];
        return counts;
      });
    const byProject = read(this.projectCounts, this.projectCounts.length / 4);
    for (const counts of byProject) for (const status of CELL_STATUSES) total[status] += counts[status];
    return { total, byTool: read(this.toolCounts, this.baseWeight.length), byProject };
  }

  private context(links: readonly LinkedResource[]): ResolutionContext {
    return {
      projectName: '',
      hierarchy: this.hierarchy,
      links,
      staticResources: this.staticResources,
      params: new Map(),
    };
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
