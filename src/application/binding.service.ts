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
import type { ResourceInfo } from '../core/model';
import type { ProjectRecord, ToolRecord } from '../persistence/records';
import { allNow, isPromise, loaded, loadManyNow, loadNow, type ReadSession } from './versioning';
import { requireWellFormedRef } from './registry-writes';

/** The static resources or params of a resolution that has none. */
const NOTHING: ReadonlyMap<string, never> = new Map<string, never>();

/** An invocation param: the resource (ref) for a PARAMETER slot. */
export interface BindingParam {
  readonly slot: string;
  readonly resource: string;
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
  /** resolveBindings: every slot's result, or BINDING_RESOLUTION_FAILED listing every failing slot. */
  async resolve(
    toolRef: string,
    projectRef: string,
    params: readonly BindingParam[],
    session: ReadSession,
  ): Promise<BindingOutcome[]> {
    const summary = summarize((await this.explain(toolRef, projectRef, params, session)).slots);
    if (!summary.ok) throw new BindingResolutionError(summary.problems);
    return summary.results;
  }

  /** Resolves every slot and keeps the full account of each (what explainBindings shows). */
  async explain(
    toolRef: string,
    projectRef: string,
    params: readonly BindingParam[],
    session: ReadSession,
  ): Promise<ToolResolution> {
    requireWellFormedRef('tool', toolRef);
    requireWellFormedRef('project', projectRef);
    const sizeProblem = checkListSize(params.length, LIMITS.params);
    if (sizeProblem) throw new BadInputError([{ field: 'params', message: `params ${sizeProblem}` }]);
    params.forEach((p, i) => requireWellFormedRef(`params[${i}].resource`, p.resource));

    // Pinned first, so that what the record cache holds at that version answers at once, without a batch or a wait.
    await session.currentVersion();
    const loads = allNow([loadNow(session.toolByRef, toolRef), loadNow(session.projectByRef, projectRef)] as const);
    const [tool, project] = isPromise(loads) ? await loads : loads;
    if (!tool) throw new NotFoundError('tool', toolRef);
    if (!project) throw new NotFoundError('project', projectRef);
    return this.explainFor(tool, project, params, session);
  }

  /** Tool.bindingsIn: the explanation for a tool already loaded (a dashboard asks this for many tools at once). */
  async explainIn(tool: ToolRecord, projectRef: string, session: ReadSession): Promise<ToolResolution> {
    requireWellFormedRef('project', projectRef);
    const project = await session.projectByRef.load(projectRef);
    if (!project) throw new NotFoundError('project', projectRef);
    return this.explainFor(tool, project, [], session);
  }

  private async explainFor(
    tool: ToolRecord,
    project: ProjectRecord,
    params: readonly BindingParam[],
    session: ReadSession,
  ): Promise<ToolResolution> {
    const slotsNow = loadNow(session.slotsByToolId, tool.id);
    const slots = isPromise(slotsNow) ? await slotsNow : slotsNow;
    const paramProblems = checkParams(tool.name, slots, params);
    if (paramProblems.length > 0) throw new BadInputError(paramProblems);

    const staticIds: string[] = [];
    for (const slot of slots) if (slot.staticResourceId) staticIds.push(slot.staticResourceId);
    // Each read answers at once when the record cache holds it at the pinned version; the rest are waited for together.
    const reads = allNow([
      session.loadedHierarchy() ?? session.hierarchy(),
      loadNow(session.linksByProjectId, project.id),
      loadManyNow(session.resourceById, staticIds),
      loadManyNow(
        session.resourceByRef,
        params.map((p) => p.resource),
      ),
    ] as const);
    const [hierarchy, links, staticResources, paramResources] = isPromise(reads) ? await reads : reads;

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
}
