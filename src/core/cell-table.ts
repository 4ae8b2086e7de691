import type { CellStatus, MatrixCell } from './binding-matrix';
import { resolveSlot, type ResolutionContext, type SlotResolution } from './binding-resolution';
import { FAILURE_REASONS, type FailureReason } from './errors';
import type { LinkedResource, ResourceInfo, SlotDefinition } from './model';
import type { TypeHierarchy } from './type-hierarchy';

/**
 * A slot's outcome in a cell, as a small number: its weight for the cell's
 * status (0 BOUND, 1 UNBOUND_OPTIONAL, 2 DEFERRED), or FAILED + the index of
 * its reason in FAILURE_REASONS. A cell is the heaviest of its slots: this is
 * cellOf's rule (FAILED before DEFERRED before OPTIONAL_UNBOUND before READY),
 * written as an order.
 */
const FAILED = 3;
/** A cell's status by its weight (the heaviest of its slots' codes, FAILED at most). */
export const STATUS_OF_WEIGHT: readonly CellStatus[] = ['READY', 'OPTIONAL_UNBOUND', 'DEFERRED', 'FAILED'];
/** The distinct reasons of a cell by the bit mask of their indexes, in the order of FAILURE_REASONS; shared, never changed. */
const REASONS_OF_MASK = Array.from(
  { length: 1 << FAILURE_REASONS.length },
  (_, mask) => Object.freeze(FAILURE_REASONS.filter((_, i) => (mask & (1 << i)) !== 0)) as FailureReason[],
);

/** A slot's code (see FAILED), from its resolution. */
function codeOf(resolution: SlotResolution): number {
  switch (resolution.status) {
    case 'BOUND':
      return 0;
    case 'UNBOUND_OPTIONAL':
      return 1;
    case 'DEFERRED':
      return 2;
    case 'FAILED':
      return FAILED + FAILURE_REASONS.indexOf(resolution.reason!);
  }
}

/** No params: a cell resolves without them. */
const NO_PARAMS = new Map();

/**
 * The cells of a set of tools in one project after another, resolved without
 * params, without resolving every pair slot by slot. The rules stay
 * binding-resolution's: every slot outcome here is resolveSlot's. Three facts
 * about them make a cell cheap:
 *
 * - a STATIC or PARAMETER slot does not depend on the project: it is resolved
 *   once per tool, when the table is made;
 * - a CONTEXTUAL slot's outcome depends only on its name, type and
 *   `required`, and on the project's links whose type fits it: so within a
 *   project it is resolved once per distinct (name, type, required) among all
 *   the tools, with only those links (found from each link's type and its
 *   ancestors, not by testing every link against every slot);
 * - a slot whose type no link of the project fits resolves as it does with
 *   no links at all: that outcome is worked out once, when the table is made.
 *
 * Set a project (`setProject`), then read its cells (`cell`, or just `weight`
 * for a count). The tests hold it equal to cellOf over resolveSlots, pair by
 * pair.
 */
export class CellTable {
  /** Per tool, from its project-independent slots: the heaviest weight below FAILED, how many fail, their reasons' mask. */
  private readonly baseWeight: Uint8Array;
  private readonly baseFailed: Uint16Array;
  private readonly baseMask: Uint8Array;
  /** Per tool: its contextual slots' keys, keys[from[t]..from[t + 1]]. */
  private readonly keys: Uint32Array;
  private readonly from: Uint32Array;
  /** Per distinct contextual slot: a slot standing for it, and its code where nothing fits it. */
  private readonly keySlots: SlotDefinition[] = [];
  private readonly unfitCodes: Uint8Array;
  /** Distinct contextual slots by their type's index (TypeHierarchy.indexOf). */
  private readonly keysByType: (number[] | undefined)[] = [];
  /** By type index: the current project's links that fill its slots, valid where rowOf is the current row. */
  private readonly candidates: LinkedResource[][] = [];
  private readonly rowOf: Uint32Array;
  private row = 0;
  /** Each distinct contextual slot's code in the current project. */
  private readonly codes: Uint8Array;

  constructor(
    tools: readonly { readonly slots: readonly SlotDefinition[] }[],
    private readonly hierarchy: TypeHierarchy,
    private readonly staticResources: ReadonlyMap<string, ResourceInfo>,
  ) {
    const keyOf = new Map<string, number>();
    const none = this.context([]);
    this.baseWeight = new Uint8Array(tools.length);
    this.baseFailed = new Uint16Array(tools.length);
    this.baseMask = new Uint8Array(tools.length);
    const keys: number[] = [];
    this.from = new Uint32Array(tools.length + 1);
    tools.forEach((tool, t) => {
      this.from[t] = keys.length;
      for (const slot of tool.slots) {
        if (slot.binding !== 'CONTEXTUAL') {
          // Rule: STATIC and PARAMETER slots resolve the same in every project.
          const code = codeOf(resolveSlot(slot, none));
          if (code >= FAILED) {
            this.baseFailed[t] += 1;
            this.baseMask[t] |= 1 << (code - FAILED);
          } else if (code > this.baseWeight[t]) this.baseWeight[t] = code;
          continue;
        }
        const id = `${slot.typeId}\u0000${slot.required ? 1 : 0}\u0000${slot.name}`;
        let key = keyOf.get(id);
        if (key === undefined) {
          key = this.keySlots.length;
          keyOf.set(id, key);
          this.keySlots.push(slot);
          // Every stored slot and resource has one of the hierarchy's types (a foreign key); a slot of a type the
          // hierarchy lacked would keep its unfit code.
          const type = hierarchy.indexOf(slot.typeId);
          if (type >= 0) (this.keysByType[type] ??= []).push(key);
        }
        keys.push(key);
      }
    });
    this.from[tools.length] = keys.length;
    this.keys = Uint32Array.from(keys);
    this.unfitCodes = Uint8Array.from(this.keySlots, (slot) => codeOf(resolveSlot(slot, none)));
    this.codes = new Uint8Array(this.keySlots.length);
    this.rowOf = new Uint32Array(hierarchy.size);
  }

  /** How many tools. */
  get tools(): number {
    return this.baseWeight.length;
  }

  /** Resolves every distinct contextual slot in a project with these links: the cells read that project until the next. */
  setProject(links: readonly LinkedResource[]): void {
    const { codes, keysByType, candidates, hierarchy } = this;
    codes.set(this.unfitCodes);
    // The links each slot type's slots can take: those of the type or a sub-type (typesFitting, seen from the link).
    const row = ++this.row;
    const touched: number[] = [];
    for (const link of links) {
      const typeIndex = hierarchy.indexOf(link.resource.typeId);
      if (typeIndex < 0) continue;
      for (const type of hierarchy.slotTypesFilledBy(typeIndex)) {
        if (keysByType[type] === undefined) continue;
        if (this.rowOf[type] !== row) {
          this.rowOf[type] = row;
          candidates[type] = [link];
          touched.push(type);
        } else candidates[type].push(link);
      }
    }
    for (const type of touched) {
      const context = this.context(candidates[type]);
      for (const key of keysByType[type]!) codes[key] = codeOf(resolveSlot(this.keySlots[key], context));
    }
  }

  /** Tool t's cell's weight in the current project (0 READY, 1 OPTIONAL_UNBOUND, 2 DEFERRED, 3 FAILED). */
  weight(t: number): number {
    let weight = this.baseFailed[t] > 0 ? FAILED : this.baseWeight[t];
    const { keys, codes } = this;
    for (let i = this.from[t], end = this.from[t + 1]; i < end && weight < FAILED; i++) {
      const code = codes[keys[i]];
      if (code > weight) weight = code;
    }
    return weight > FAILED ? FAILED : weight;
  }

  /** Tool t's cell in the current project. */
  cell(t: number, projectId: string, toolId: string): MatrixCell {
    let failedSlots = this.baseFailed[t];
    let mask = this.baseMask[t];
    let weight = this.baseWeight[t];
    const { keys, codes } = this;
    for (let i = this.from[t], end = this.from[t + 1]; i < end; i++) {
      const code = codes[keys[i]];
      if (code >= FAILED) {
        failedSlots += 1;
        mask |= 1 << (code - FAILED);
      } else if (code > weight) weight = code;
    }
    const status = failedSlots > 0 ? 'FAILED' : STATUS_OF_WEIGHT[weight];
    return { projectId, toolId, status, failedSlots, reasons: REASONS_OF_MASK[mask] };
  }

  private context(links: readonly LinkedResource[]): ResolutionContext {
    return {
      projectName: '',
      hierarchy: this.hierarchy,
      links,
      staticResources: this.staticResources,
      params: NO_PARAMS,
    };
  }
}
