import {
  compareChanges,
  diffTool,
  outcomeOf,
  mayChangeBindings,
  scopeOfEdit,
  type BindingChange,
  type IdentifiedChange,
  type ImpactScope,
  type SlotOutcome,
  type ToolSide,
} from '../core/binding-impact';
import { resolveSlot, type ParamValue } from '../core/binding-resolution';
import type { LinkedResource, ResourceInfo, SlotDefinition } from '../core/model';
import type { SlotRecord } from '../persistence/records';
import type { RegistryEdit } from '../core/registry-edit';
import type { TypeHierarchy } from '../core/type-hierarchy';
import type { WriteReader } from './versioning';

/** Limits on the impact a mutation reports and computes. */
export const IMPACT_LIMITS = {
  /** Changes listed in a payload's `impact.changes`. */
  listed: 200,
  /** (tool, project) pairs resolved on each side of a mutation; beyond, the impact is marked incomplete. */
  pairs: 20_000,
  /** Changes kept in memory, and stored with the change log, per mutation. */
  kept: 1_000,
} as const;

/** How much a mutation does to bindings. */
export interface ImpactSummary {
  /** Every change found (all of them, unless `complete` is false). */
  readonly totalCount: number;
  /** True when more than IMPACT_LIMITS.listed changes were found: a payload lists fewer than `totalCount`. */
  readonly truncated: boolean;
  /** False when the work cap was reached: pairs beyond it were not examined. */
  readonly complete: boolean;
}

/** What a mutation does to bindings. */
export interface BindingImpact extends ImpactSummary {
  /** At most IMPACT_LIMITS.listed changes, ordered by tool name, project name, slot name, each with its id. */
  readonly changes: readonly IdentifiedChange[];
}

/** The impact, with each change's edit (its index among the mutation's edits). */
export interface TrackedImpact {
  readonly impact: ImpactSummary;
  /** The first IMPACT_LIMITS.kept changes, in order, with the edit each is attributed to. */
  readonly kept: readonly { readonly change: BindingChange; readonly edit: number }[];
  /** How many changes each edit caused, among the pairs examined. */
  readonly countByEdit: readonly number[];
  /** False for an edit some of whose pairs were left unexamined at the cap: its count is then a lower bound. */
  readonly completeByEdit: readonly boolean[];
}

/** A tool being followed: the projects it is examined in, and its "before" side. */
interface Tracked {
  readonly id: string;
  name: string;
  /** The edit that first reached the tool (its project-independent changes are that edit's). */
  readonly firstEdit: number;
  /** Also in every project that links nothing its slots accept (a `tool` scope). */
  everywhere: boolean;
  /** Examined projects: name, and the edit that first reached the pair. */
  readonly projects: Map<string, { name: string; edit: number }>;
  readonly before: {
    slots: SlotDefinition[];
    unlinked: ReadonlyMap<string, SlotOutcome>;
    inProject: Map<string, ReadonlyMap<string, SlotOutcome>>;
  };
}

/**
 * Follows one mutation inside its transaction: before each edit is made, the
 * (tool, project) pairs the edit can reach (core/binding-impact.ts's scopes,
 * found from what changed) are resolved as they stand, unless an earlier
 * edit already reached them; at the end the same pairs are resolved again,
 * and every slot whose outcome differs is a change. Pairs whose tool or
 * project the mutation created or deleted are not listed.
 */
export class ImpactTracker {
  private readonly tools = new Map<string, Tracked>();
  /** Slots and static resources as read before the edits, reused after them when no edit can have changed them. */
  private readonly slotsRead = new Map<string, SlotRecord[]>();
  private readonly staticRead = new Map<string, ResourceInfo>();
  /** Each examined project's links as read before the edits, reused after them when no edit can have changed them. */
  private readonly linksRead = new Map<string, LinkedResource[]>();
  /** By slot type: the tools with a CONTEXTUAL slot of it (toolsAccepting). */
  private readonly toolsByType = new Map<string, Promise<{ id: string; name: string }[]>>();
  private edits = 0;
  private pairs = 0;
  /** The edits some of whose pairs were left unexamined at the cap. */
  private readonly cut = new Set<number>();
  private current: TypeHierarchy | null = null;

  constructor(
    private readonly reader: WriteReader,
    private readonly hierarchyBefore: () => Promise<TypeHierarchy>,
  ) {}

  /** The type hierarchy as this transaction has left it so far. */
  async hierarchy(): Promise<TypeHierarchy> {
    return (this.current ??= await this.hierarchyBefore());
  }

  /**
   * Before an edit is made: takes the "before" of every pair it can reach that no earlier edit reached. Every
   * type edit (a new or deleted type too) moves the hierarchy on, so later edits and steps see it.
   */
  async beforeEdit(edit: RegistryEdit): Promise<void> {
    const index = this.edits++;
    if (!mayChangeBindings(edit) && edit.kind !== 'RESOURCE_TYPE') return;
    const before = await this.hierarchy();
    const after = edit.kind === 'RESOURCE_TYPE' ? before.with((edit.before ?? edit.after)!.id, edit.after) : before;
    if (mayChangeBindings(edit)) {
      for (const scope of scopeOfEdit(edit, before, after)) await this.reach(scope, index, before, after);
    }
    this.current = after;
  }

  /**
   * Before edits made together (each then still comes to beforeEdit): reads at once the tools their scopes
   * reach, by type. Only edits that leave the hierarchy as it is (no type edit) are looked at.
   */
  async beforeEdits(edits: readonly RegistryEdit[]): Promise<void> {
    if (edits.some((edit) => edit.kind === 'RESOURCE_TYPE')) return;
    const hierarchy = await this.hierarchy();
    const types = new Set<string>();
    for (const edit of edits) {
      for (const scope of scopeOfEdit(edit, hierarchy, hierarchy)) {
        if ('slotTypes' in scope) for (const type of scope.slotTypes) types.add(type);
      }
    }
    if (types.size > 0) await this.toolsAccepting([...types]);
  }

  /** After every edit: resolves the followed pairs again and lists what changed. */
  async finish(edits: readonly RegistryEdit[]): Promise<TrackedImpact> {
    const created = new Set<string>();
    const deleted = new Set<string>();
    for (const edit of edits) {
      if (edit.kind !== 'TOOL' && edit.kind !== 'PROJECT') continue;
      if (!edit.before && edit.after) created.add(edit.after.id);
      if (edit.before && !edit.after) deleted.add(edit.before.id);
    }
    const tools = [...this.tools.values()].filter((t) => !deleted.has(t.id) && !created.has(t.id));
    for (const tool of tools) {
      for (const id of [...tool.projects.keys()]) if (deleted.has(id) || created.has(id)) tool.projects.delete(id);
    }
    const afterSides =
      tools.length === 0
        ? null
        : await this.resolve(
            new Map(tools.map((t) => [t.id, new Set(t.projects.keys())])),
            await this.hierarchy(),
            // Only a tool edit changes slots, and only a resource edit changes what a static resource is; a
            // project's links change by a link edit, and what they carry of each resource by a resource edit.
            {
              slots: !edits.some((e) => e.kind === 'TOOL'),
              staticResources: !edits.some((e) => e.kind === 'RESOURCE'),
              links: !edits.some((e) => e.kind === 'LINK' || e.kind === 'RESOURCE' || e.kind === 'PROJECT'),
            },
          );
    // A tool's name now: as its edit left it (a rename), else as it was found.
    const names = new Map<string, string>();
    for (const edit of edits) if (edit.kind === 'TOOL' && edit.after) names.set(edit.after.id, edit.after.name);

    let unlinkedProjects: Map<string, string> | null = null;
    const found: { change: BindingChange; edit: number }[] = [];
    const countByEdit = new Array<number>(this.edits).fill(0);
    let total = 0;
    for (const tool of tools) {
      // Each tool's "after" side is worked out here and dropped once diffed: 20,000 pairs' outcomes are never all held twice.
      const after = afterSides!.sideOf(tool.id);
      const examined = new Map([...tool.projects].map(([id, p]) => [id, p.name]));
      let unlinked = new Map<string, string>();
      if (tool.everywhere && unlinkedDiffers(tool.before, after)) {
        unlinkedProjects ??= new Map((await this.reader.allProjects()).map((p) => [p.id, p.name]));
        unlinked = new Map(
          [...unlinkedProjects].filter(([id]) => !examined.has(id) && !created.has(id) && !deleted.has(id)),
        );
      }
      const name = names.get(tool.id) ?? tool.name;
      for (const change of diffTool({ id: tool.id, name }, tool.before, after, { examined, unlinked })) {
        const edit =
          change.projectId === null ? tool.firstEdit : (tool.projects.get(change.projectId)?.edit ?? tool.firstEdit);
        countByEdit[edit] += 1;
        total += 1;
        found.push({ change, edit });
      }
      // Only the first IMPACT_LIMITS.kept in order are kept: trimmed as it goes, so a large impact holds few changes.
      if (found.length >= 4 * IMPACT_LIMITS.kept) keepFirst(found, IMPACT_LIMITS.kept);
    }
    keepFirst(found, IMPACT_LIMITS.kept);
    const kept = found;
    return {
      impact: {
        totalCount: total,
        truncated: total > IMPACT_LIMITS.listed,
        complete: this.cut.size === 0,
      },
      kept,
      countByEdit,
      completeByEdit: countByEdit.map((_, edit) => !this.cut.has(edit)),
    };
  }

  /** Follows the pairs of one scope, taking the "before" of those not yet followed. */
  private async reach(scope: ImpactScope, edit: number, before: TypeHierarchy, after: TypeHierarchy): Promise<void> {
    const { tools, projects, everywhere } = await this.pairsOf(scope, before, after);
    const fresh = new Map<string, Set<string>>();
    for (const tool of tools) {
      let tracked = this.tools.get(tool.id);
      if (!tracked) {
        tracked = {
          id: tool.id,
          name: tool.name,
          firstEdit: edit,
          everywhere,
          projects: new Map(),
          before: emptySide(),
        };
        this.tools.set(tool.id, tracked);
        fresh.set(tool.id, new Set());
      }
      tracked.everywhere ||= everywhere;
      for (const project of projects) {
        if (tracked.projects.has(project.id)) continue;
        if (this.pairs >= IMPACT_LIMITS.pairs) {
          this.cut.add(edit);
          break;
        }
        this.pairs += 1;
        tracked.projects.set(project.id, { name: project.name, edit });
        (fresh.get(tool.id) ?? fresh.set(tool.id, new Set()).get(tool.id)!).add(project.id);
      }
    }
    if (fresh.size === 0) return;
    const sides = await this.resolve(fresh, before, { slots: true, staticResources: true, links: false });
    for (const [toolId, projectIds] of fresh) {
      const tracked = this.tools.get(toolId)!;
      const side = sides.sideOf(toolId);
      // Each side is worked out afresh at each call, so its maps are kept as they are, not copied.
      if (tracked.before.slots.length === 0 && tracked.before.unlinked.size === 0) {
        tracked.before.slots = [...side.slots];
        tracked.before.unlinked = side.unlinked;
      }
      for (const projectId of projectIds) {
        const outcomes = side.inProject.get(projectId);
        if (outcomes) tracked.before.inProject.set(projectId, outcomes);
      }
    }
  }

  /** The tools with a contextual slot of one of the types (each type read once in a mutation). */
  private async toolsAccepting(slotTypes: readonly string[]): Promise<{ id: string; name: string }[]> {
    // Read by type, and kept by type for the transaction: the edits of a batch reach the same few hundred types
    // in many combinations, and each type is read once, with the others missing at that moment.
    const missing = slotTypes.filter((type) => !this.toolsByType.has(type));
    if (missing.length > 0) {
      const read = this.reader.toolsWithContextualSlotsOf(missing).then((rows) => {
        const byType = new Map<string, { id: string; name: string }[]>(missing.map((type) => [type, []]));
        for (const { typeId, id, name } of rows) byType.get(typeId)?.push({ id, name });
        return byType;
      });
      for (const type of missing)
        this.toolsByType.set(
          type,
          read.then((byType) => byType.get(type)!),
        );
    }
    const tools = new Map<string, { id: string; name: string }>();
    for (const type of slotTypes) for (const tool of await this.toolsByType.get(type)!) tools.set(tool.id, tool);
    return [...tools.values()];
  }

  /** The tools and projects a scope pairs. */
  private async pairsOf(
    scope: ImpactScope,
    before: TypeHierarchy,
    after: TypeHierarchy,
  ): Promise<{ tools: { id: string; name: string }[]; projects: { id: string; name: string }[]; everywhere: boolean }> {
    switch (scope.kind) {
      case 'projects':
        return {
          tools: await this.toolsAccepting(scope.slotTypes),
          projects: [...scope.projects],
          everywhere: false,
        };
      case 'linkersOfResource':
        return {
          tools: await this.toolsAccepting(scope.slotTypes),
          projects: (await this.reader.linkingProjects(scope.resourceId)).map((l) => l.project),
          everywhere: false,
        };
      case 'linkersOfTypes':
        return {
          tools: await this.toolsAccepting(scope.slotTypes),
          projects: await this.reader.projectsLinkingTypes(scope.resourceTypes),
          everywhere: false,
        };
      case 'tool': {
        // Only projects linking a resource some contextual slot accepts can differ from the unlinked outcome.
        const accepted = new Set<string>();
        for (const hierarchy of [before, after]) {
          for (const typeId of scope.slotTypes) {
            accepted.add(typeId);
            for (const t of hierarchy.descendantsOf(typeId)) accepted.add(t.id);
          }
        }
        return {
          tools: [scope.tool],
          projects: await this.reader.projectsLinkingTypes([...accepted]),
          everywhere: true,
        };
      }
      case 'staticBindersOfResource':
        return { tools: await this.reader.staticBinders([scope.resourceId], []), projects: [], everywhere: false };
      case 'staticBindersOfTypes':
        return { tools: await this.reader.staticBinders([], scope.resourceTypes), projects: [], everywhere: false };
    }
  }

  /**
   * Reads what the tools' sides need as the transaction stands, and gives
   * each tool's side on demand (its slots, unlinked outcomes and outcomes in
   * its projects), worked out anew at each call.
   */
  private async resolve(
    projectsOf: ReadonlyMap<string, ReadonlySet<string>>,
    hierarchy: TypeHierarchy,
    reuse: { slots: boolean; staticResources: boolean; links: boolean },
  ): Promise<{ sideOf(toolId: string): ToolSide & { slots: SlotDefinition[] } }> {
    const projectIds = new Set([...projectsOf.values()].flatMap((ids) => [...ids]));
    const toolIds = [...projectsOf.keys()];
    // Slots read once serve every later resolution, until the tool edit (after which `reuse.slots` is false).
    const unread = reuse.slots ? toolIds.filter((id) => !this.slotsRead.has(id)) : toolIds;
    // The same for links: a re-parented type leaves every link as it was, and reading them again (up to every
    // link of the registry) would hold a second copy of them while the first is still garbage to collect.
    const linksUnread = reuse.links ? [...projectIds].filter((id) => !this.linksRead.has(id)) : [...projectIds];
    const [fresh, links] = await Promise.all([
      this.reader.slotsByToolIds(unread),
      this.reader.linksByProjectIds(linksUnread),
    ]);
    const freshIds = new Set(unread);
    const slots = [
      ...toolIds.filter((id) => !freshIds.has(id)).flatMap((id) => this.slotsRead.get(id) ?? []),
      ...fresh,
    ];
    for (const id of unread) this.slotsRead.set(id, []);
    const slotsOf = new Map<string, SlotRecord[]>();
    for (const slot of slots) {
      const list = slotsOf.get(slot.toolId) ?? [];
      list.push(slot);
      slotsOf.set(slot.toolId, list);
    }
    for (const [id, list] of slotsOf) this.slotsRead.set(id, list);
    const staticIds = [...new Set(slots.flatMap((s) => (s.staticResourceId ? [s.staticResourceId] : [])))];
    const missing = reuse.staticResources ? staticIds.filter((id) => !this.staticRead.has(id)) : staticIds;
    for (const resource of await this.reader.resourcesByIds(missing)) this.staticRead.set(resource.id, resource);
    const staticResources: ReadonlyMap<string, ResourceInfo> = this.staticRead;
    const linksOf = this.linksRead;
    for (const id of linksUnread) linksOf.set(id, []);
    for (const link of links) linksOf.get(link.projectId)!.push(link);
    const sideOf = (toolId: string): ToolSide & { slots: SlotDefinition[] } => {
      const toolProjects = projectsOf.get(toolId) ?? new Set<string>();
      const toolSlots = slotsOf.get(toolId) ?? [];
      const outcomes = (projectName: string, projectLinks: readonly LinkedResource[]) => {
        const context = { projectName, hierarchy, links: projectLinks, staticResources, params: NO_PARAMS };
        const bySlot = new Map<string, SlotOutcome>();
        for (const slot of toolSlots) bySlot.set(slot.name, outcomeOf(resolveSlot(slot, context)));
        return bySlot;
      };
      const inProject = new Map<string, Map<string, SlotOutcome>>();
      for (const projectId of toolProjects) inProject.set(projectId, outcomes(projectId, linksOf.get(projectId) ?? []));
      return { slots: toolSlots, unlinked: outcomes('', []), inProject };
    };
    return { sideOf };
  }
}

/** Sorts the changes and keeps the first `count` of them, in place. */
function keepFirst(found: { change: BindingChange; edit: number }[], count: number): void {
  found.sort((a, b) => compareChanges(a.change, b.change));
  if (found.length > count) found.length = count;
}

/** An impact resolves without params (a PARAMETER slot is deferred). */
const NO_PARAMS: ReadonlyMap<string, ParamValue> = new Map();

function emptySide(): Tracked['before'] {
  return { slots: [], unlinked: new Map(), inProject: new Map() };
}

/** True when some slot's outcome in a project that links nothing compatible differs between the sides. */
function unlinkedDiffers(before: ToolSide, after: ToolSide): boolean {
  const names = new Set([...before.slots.map((s) => s.name), ...after.slots.map((s) => s.name)]);
  for (const name of names) {
    const b = before.unlinked.get(name);
    const a = after.unlinked.get(name);
    if (!b || !a || b.status !== a.status || b.reason !== a.reason || b.resourceId !== a.resourceId) return true;
  }
  return false;
}
