import { BadInputError, BindingResolutionError, NotFoundError } from '../core/errors';
import { checkListSize, LIMITS } from '../core/grammar';
import {
  checkParams,
  resolveSlots,
  summarize,
  type BindingOutcome,
  type ParamValue,
  type SlotResolution,
} from '../core/binding-resolution';
import type { LinkedResource, ResourceInfo } from '../core/model';
import type { ProjectRecord, SlotRecord, ToolRecord } from '../persistence/records';
import type { TypeHierarchy } from '../core/type-hierarchy';
import { allNow } from '../jsutils/all-now';
import { thenNow } from '../jsutils/then-now';
import { fittingLinksKey, loaded, loadManyNow, loadNow, type ReadSession } from './versioning';
import { requireWellFormedRef } from './registry-writes';

/** The static resources or params of a resolution that has none. */
const NOTHING: ReadonlyMap<string, never> = new Map<string, never>();

/** An invocation param: the resource (ref) for a PARAMETER slot. */
export interface BindingParam {
  readonly slot: string;
  readonly resource: string;
}

/** resolveBindings' answer: every slot's result, and the tool and project they are of. */
export interface ResolvedBindings {
  readonly toolId: string;
  readonly projectId: string;
  readonly outcomes: BindingOutcome[];
}

/** Every slot's resolution for one tool in one project. */
export interface ToolResolution {
  readonly tool: ToolRecord;
  readonly project: ProjectRecord;
  readonly slots: SlotResolution[];
}

/**
 * Binding resolution over stored data. It loads what the core needs (tool,
 * slots, project links, named resources, hierarchy) through the request's
 * session, then lets the pure core decide.
 */
export class BindingService {
  /**
   * resolveBindings: every slot's result, or BINDING_RESOLUTION_FAILED listing
   * every failing slot. A plain value when everything it reads is in memory at the
   * pinned version (the record cache's, on a clock that keeps the version in
   * memory): then no promise is made and nothing waits, and the caller
   * gets a plain value. Otherwise a promise. A failure is
   * the same error either way: thrown on the plain path, a rejection otherwise.
   */
  resolve(
    toolRef: string,
    projectRef: string,
    params: readonly BindingParam[],
    session: ReadSession,
  ): ResolvedBindings | Promise<ResolvedBindings> {
    return thenNow(this.explainNow(toolRef, projectRef, params, session, 'decisions'), (decided) => {
      const summary = summarize(decided.slots);
      if (summary.ok) return { toolId: decided.tool.id, projectId: decided.project.id, outcomes: summary.results };
      // The same decisions again, at the same pinned version, from every link: a failure's words name the links
      // that did not fit, and an alias held by one of them.
      return thenNow(this.explainNow(toolRef, projectRef, params, session, 'accounts'), outcomesOf);
    });
  }

  /** Resolves every slot and keeps the full account of each (what explainBindings shows). */
  async explain(
    toolRef: string,
    projectRef: string,
    params: readonly BindingParam[],
    session: ReadSession,
  ): Promise<ToolResolution> {
    return this.explainNow(toolRef, projectRef, params, session, 'accounts');
  }

  /** `explain`, as a plain value when nothing needs a wait (see `resolve`). */
  private explainNow(
    toolRef: string,
    projectRef: string,
    params: readonly BindingParam[],
    session: ReadSession,
    reading: Reading,
  ): ToolResolution | Promise<ToolResolution> {
    requireWellFormedRef('tool', toolRef);
    requireWellFormedRef('project', projectRef);
    const sizeProblem = checkListSize(params.length, LIMITS.params);
    if (sizeProblem) throw new BadInputError([{ field: 'params', message: `params ${sizeProblem}` }]);
    params.forEach((p, i) => requireWellFormedRef(`params[${i}].resource`, p.resource));

    // Pinned first, so that what the record cache holds at that version answers at once, without a batch or a wait.
    if (!session.pinnedNow())
      return session.currentVersion().then(() => this.explainPinned(toolRef, projectRef, params, session, reading));
    return this.explainPinned(toolRef, projectRef, params, session, reading);
  }

  private explainPinned(
    toolRef: string,
    projectRef: string,
    params: readonly BindingParam[],
    session: ReadSession,
    reading: Reading,
  ): ToolResolution | Promise<ToolResolution> {
    const loads = allNow([loadNow(session.toolByRef, toolRef), loadNow(session.projectByRef, projectRef)] as const);
    return thenNow(loads, ([tool, project]) => {
      if (!tool) throw new NotFoundError('tool', toolRef);
      if (!project) throw new NotFoundError('project', projectRef);
      return this.explainFor(tool, project, params, session, reading);
    });
  }

  /** Tool.bindingsIn: the explanation for a tool already loaded (a dashboard asks this for many tools at once). */
  async explainIn(tool: ToolRecord, projectRef: string, session: ReadSession): Promise<ToolResolution> {
    requireWellFormedRef('project', projectRef);
    const project = await session.projectByRef.load(projectRef);
    if (!project) throw new NotFoundError('project', projectRef);
    return this.explainFor(tool, project, [], session, 'accounts');
  }

  private explainFor(
    tool: ToolRecord,
    project: ProjectRecord,
    params: readonly BindingParam[],
    session: ReadSession,
    reading: Reading,
  ): ToolResolution | Promise<ToolResolution> {
    return thenNow(loadNow(session.slotsByToolId, tool.id), (slots) =>
      this.explainWithSlots(tool, project, slots, params, session, reading),
    );
  }

  private explainWithSlots(
    tool: ToolRecord,
    project: ProjectRecord,
    slots: readonly SlotRecord[],
    params: readonly BindingParam[],
    session: ReadSession,
    reading: Reading,
  ): ToolResolution | Promise<ToolResolution> {
    const paramProblems = checkParams(tool.name, slots, params);
    if (paramProblems.length > 0) throw new BadInputError(paramProblems);

    const staticIds: string[] = [];
    for (const slot of slots) if (slot.staticResourceId) staticIds.push(slot.staticResourceId);
    // Each read answers at once when the record cache holds it at the pinned version; the rest are waited for together.
    const reads = allNow([
      session.loadedHierarchy() ?? session.hierarchy(),
      reading === 'accounts' ? loadNow(session.linksByProjectId, project.id) : fittingLinks(project, slots, session),
      loadManyNow(session.resourceById, staticIds),
      loadManyNow(
        session.resourceByRef,
        params.map((p) => p.resource),
      ),
    ] as const);
    return thenNow(reads, (read) => resolveWith(tool, project, slots, params, read));
  }
}

/**
 * What a resolution reads of the project's links. `decisions`: only the links
 * that fit a contextual slot's type, since a decision reads no other (the
 * core's rule: candidates are the links whose type fits), which is what a
 * resolve that binds needs, and what the record cache then keeps (see
 * FittingLinks). `accounts`: every link, since an account also names those
 * that do not fit (explainBindings, and the words of a failure).
 */
type Reading = 'decisions' | 'accounts';

/** A resolution's outcomes, or BINDING_RESOLUTION_FAILED listing every failing slot. */
function outcomesOf(explained: ToolResolution): ResolvedBindings {
  const summary = summarize(explained.slots);
  if (!summary.ok) throw new BindingResolutionError(summary.problems);
  return { toolId: explained.tool.id, projectId: explained.project.id, outcomes: summary.results };
}

/** The links that fit each contextual slot's type (none read when the tool has no contextual slot). */
function fittingLinks(
  project: ProjectRecord,
  slots: readonly SlotRecord[],
  session: ReadSession,
): readonly LinkedResource[] | Promise<readonly LinkedResource[]> {
  const keys: string[] = [];
  for (const slot of slots) {
    if (slot.binding !== 'CONTEXTUAL') continue;
    const key = fittingLinksKey(project.id, slot.typeId);
    if (!keys.includes(key)) keys.push(key);
  }
  if (keys.length === 0) return NO_LINKS;
  return thenNow(loadManyNow(session.fittingLinks, keys), (lists) => {
    if (lists.length === 1) return loaded(lists[0])?.links ?? NO_LINKS;
    // Slots of several types: each link once (a link fitting two of them is in both lists).
    const seen = new Set<string>();
    const links: LinkedResource[] = [];
    for (const list of lists) {
      for (const link of loaded(list)?.links ?? NO_LINKS) {
        if (seen.has(link.resource.id)) continue;
        seen.add(link.resource.id);
        links.push(link);
      }
    }
    return links;
  });
}

const NO_LINKS: readonly LinkedResource[] = [];

/** Lets the core resolve every slot from what was read. */
function resolveWith(
  tool: ToolRecord,
  project: ProjectRecord,
  slots: readonly SlotRecord[],
  params: readonly BindingParam[],
  [hierarchy, links, staticResources, paramResources]: readonly [
    TypeHierarchy,
    readonly LinkedResource[],
    readonly (ResourceInfo | null | Error)[],
    readonly (ResourceInfo | null | Error)[],
  ],
): ToolResolution {
  // Most tools have no static slot and most invocations no params: one shared empty map then.
  let staticById: ReadonlyMap<string, ResourceInfo> = NOTHING;
  if (staticResources.length > 0) {
    const byId = new Map<string, ResourceInfo>();
    for (const entry of staticResources) {
      const resource = loaded(entry);
      if (resource) byId.set(resource.id, resource);
    }
    staticById = byId;
  }
  let paramBySlot: ReadonlyMap<string, ParamValue> = NOTHING;
  if (params.length > 0) {
    const bySlot = new Map<string, ParamValue>();
    params.forEach((p, i) => bySlot.set(p.slot, { ref: p.resource, resource: loaded(paramResources[i]) }));
    paramBySlot = bySlot;
  }

  const resolutions = resolveSlots(slots, {
    projectName: project.name,
    hierarchy,
    links,
    staticResources: staticById,
    params: paramBySlot,
  });
  return { tool, project, slots: resolutions };
}
