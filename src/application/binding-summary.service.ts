import type { MatrixCell } from '../core/binding-matrix';
import { ATTENTION, CellCounter, failingFirst, type StatusCounts } from '../core/binding-summary';
import { CellTable } from '../core/cell-table';
import type { LinkedResource, ResourceInfo } from '../core/model';
import { compareNames } from '../core/type-hierarchy';
import type { NamedItem, PageRequest, SlotRecord } from '../persistence/records';
import { DEPENDS } from './versioning/dependencies';
import { loaded, type ReadSession } from './versioning';

/** A tool or a project with the counts of its cells. */
export interface SummaryItem {
  readonly id: string;
  readonly name: string;
  readonly counts: StatusCounts;
}

/** How every tool stands in every project, counted, at one registry version. */
export interface RegistrySummary {
  readonly version: number;
  readonly total: StatusCounts;
  /** In name order. */
  readonly tools: readonly SummaryItem[];
  readonly projects: readonly SummaryItem[];
  /** The same, failing first (core/binding-summary's failingFirst). */
  readonly toolsFailingFirst: readonly SummaryItem[];
  readonly projectsFailingFirst: readonly SummaryItem[];
}

/** One cell, with the names of its tool and project. */
export interface NamedCell extends MatrixCell {
  readonly toolName: string;
  readonly projectName: string;
}

/** Every tool or project, by name. */
const EVERY: PageRequest = {
  size: Number.MAX_SAFE_INTEGER,
  fromEnd: false,
  after: null,
  before: null,
  nameContains: null,
};

/** The first tool or project: a page whose total is the count. */
const ONE: PageRequest = { ...EVERY, size: 1 };

/**
 * What a summary reads, whole: every tool and its slots, every project and its
 * links, the types and the static resources. Any write changes one of these.
 */
const SUMMARY_DEPENDS = [
  DEPENDS.list('tool'),
  DEPENDS.list('project'),
  DEPENDS.list('resource'),
  DEPENDS.links,
  DEPENDS.types,
  DEPENDS.staticBindings,
];

/** Asked between projects: may return a promise to wait for, so a long count lets other requests run. */
export type Pause = () => Promise<void> | undefined;

/**
 * Summaries of the binding matrix: how many pairs are ready, deferred,
 * optional-unbound and failed, in total and per tool and project, and one
 * tool's or project's cells failing first. Every read goes through the
 * request's session in whole-list batches: a fixed number of statements
 * whatever the size of the registry. The counts are kept for the registry
 * version they were made at, so the pages of one summary, and every
 * dashboard, share one count until the next write.
 */
export class BindingSummaryService {
  private kept: RegistrySummary | null = null;

  /** The summary at the session's version (made now, or kept from an earlier request at the same version). */
  async summary(session: ReadSession, pause: Pause = () => undefined): Promise<RegistrySummary> {
    const version = await session.currentVersion();
    session.recordDependencies(SUMMARY_DEPENDS);
    if (this.kept?.version === version) return this.kept;
    const hierarchy = await session.hierarchy();

    const [tools, projects] = await Promise.all([this.allTools(session), this.allProjects(session)]);
    const statics = await this.staticResources(session, tools.slots);
    const counter = new CellCounter(
      tools.slots.map((slots) => ({ slots })),
      hierarchy,
      statics,
    );
    for (const links of projects.links) {
      const wait = pause();
      if (wait) await wait;
      counter.addProject(links);
    }
    const counts = counter.counts();
    const items = (list: readonly NamedItem[], byIndex: StatusCounts[]) =>
      list.map((item, i) => ({ id: item.id, name: item.name, counts: byIndex[i] }));
    const toolItems = items(tools.items, counts.byTool);
    const projectItems = items(projects.items, counts.byProject);
    const summary: RegistrySummary = {
      version,
      total: counts.total,
      tools: toolItems,
      projects: projectItems,
      toolsFailingFirst: [...toolItems].sort(failingFirst),
      projectsFailingFirst: [...projectItems].sort(failingFirst),
    };
    if (!this.kept || this.kept.version < version) this.kept = summary;
    return summary;
  }

  /** How many tools or projects there are (from the kept name index). */
  async count(kind: 'tool' | 'project', session: ReadSession): Promise<number> {
    const page = kind === 'tool' ? session.pageTools(ONE) : session.pageProjects(ONE);
    return (await page).totalCount;
  }

  /** One tool's cell in every project, failing first (then by project name). */
  async cellsOfTool(tool: NamedItem, session: ReadSession, pause: Pause = () => undefined): Promise<NamedCell[]> {
    const [hierarchy, slots, projects] = await Promise.all([
      session.hierarchy(),
      session.slotsByToolId.load(tool.id),
      this.allProjects(session),
    ]);
    const table = new CellTable([{ slots }], hierarchy, await this.staticResources(session, [slots]));
    const cells: NamedCell[] = [];
    for (const [p, project] of projects.items.entries()) {
      if (p % 100 === 0) {
        const wait = pause();
        if (wait) await wait;
      }
      table.setProject(projects.links[p]);
      cells.push({ ...table.cell(0, project.id, tool.id), toolName: tool.name, projectName: project.name });
    }
    return cells.sort((a, b) => byAttention(a, b) || compareNames(a.projectName, b.projectName));
  }

  /** Every tool's cell in one project, failing first (then by tool name). */
  async cellsOfProject(project: NamedItem, session: ReadSession, pause: Pause = () => undefined): Promise<NamedCell[]> {
    const [hierarchy, links, tools] = await Promise.all([
      session.hierarchy(),
      session.linksByProjectId.load(project.id),
      this.allTools(session),
    ]);
    const table = new CellTable(
      tools.slots.map((slots) => ({ slots })),
      hierarchy,
      await this.staticResources(session, tools.slots),
    );
    table.setProject(links);
    const cells: NamedCell[] = [];
    for (const [t, tool] of tools.items.entries()) {
      if (t % 500 === 0) {
        const wait = pause();
        if (wait) await wait;
      }
      cells.push({ ...table.cell(t, project.id, tool.id), toolName: tool.name, projectName: project.name });
    }
    return cells.sort((a, b) => byAttention(a, b) || compareNames(a.toolName, b.toolName));
  }

  private async allTools(session: ReadSession): Promise<{ items: NamedItem[]; slots: SlotRecord[][] }> {
    const page = await session.pageTools(EVERY);
    const lists = await session.slotsByToolId.loadMany(page.items.map((t) => t.id));
    return { items: page.items, slots: lists.map((entry) => loaded(entry) ?? []) };
  }

  private async allProjects(session: ReadSession): Promise<{ items: NamedItem[]; links: LinkedResource[][] }> {
    const page = await session.pageProjects(EVERY);
    const lists = await session.linksByProjectId.loadMany(page.items.map((p) => p.id));
    return { items: page.items, links: lists.map((entry) => loaded(entry) ?? []) };
  }

  /** The resources the slots bind statically, by id (one batch). */
  private async staticResources(
    session: ReadSession,
    slotLists: readonly (readonly SlotRecord[])[],
  ): Promise<Map<string, ResourceInfo>> {
    const ids = new Set<string>();
    for (const slots of slotLists) for (const slot of slots) if (slot.staticResourceId) ids.add(slot.staticResourceId);
    const found = new Map<string, ResourceInfo>();
    for (const entry of await session.resourceById.loadMany([...ids])) {
      const resource = loaded(entry);
      if (resource) found.set(resource.id, resource);
    }
    return found;
  }
}

/** Failing first: by status (core/binding-summary's ATTENTION), the most failed slots first. */
function byAttention(a: MatrixCell, b: MatrixCell): number {
  return ATTENTION[a.status] - ATTENTION[b.status] || b.failedSlots - a.failedSlots;
}
