import type { MatrixCell } from '../core/binding-matrix';
import { CellTable } from '../core/cell-table';
import type { ResourceInfo } from '../core/model';
import type { NamedItem, Page, PageRequest, ProjectRecord, ToolRecord } from '../persistence/records';
import type { ProjectService } from './project.service';
import type { ToolService } from './tool.service';
import { loaded, type ReadSession } from './versioning';

/** Which pages of projects and tools a matrix shows. */
export interface MatrixRequest {
  readonly projects: PageRequest;
  readonly linksResource: string | null;
  readonly tools: PageRequest;
  readonly slotType: string | null;
  /** Whether the pages' items must be whole records; false: their ids and names do (read from the name index). */
  readonly projectRecords?: boolean;
  readonly toolRecords?: boolean;
}

/** A page of projects, a page of tools (whole records when asked for), and a cell for every pair of them. */
export interface BindingMatrix {
  readonly projects: Page<ProjectRecord> | Page<NamedItem>;
  readonly tools: Page<ToolRecord> | Page<NamedItem>;
  readonly cells: MatrixCell[];
}

/**
 * The binding matrix: which tools can run in which projects. Both pages, the
 * tools' slots, the projects' links and the static resources are each read
 * in one batch (through the request's session), and every cell is resolved
 * in memory by the core (a CellTable), without params: a fixed number of statements
 * whatever the size of the pages.
 */
export class MatrixService {
  constructor(
    private readonly projects: ProjectService,
    private readonly tools: ToolService,
  ) {}

  /**
   * `pause`, asked after each row, may return a promise to wait for before the
   * next one: a long matrix lets the server serve other requests meanwhile.
   */
  async matrix(
    request: MatrixRequest,
    session: ReadSession,
    pause: () => Promise<void> | undefined = () => undefined,
  ): Promise<BindingMatrix> {
    const [projects, tools] = await Promise.all([
      request.projectRecords === false
        ? this.projects.listNames(request.projects, session, request.linksResource)
        : this.projects.list(request.projects, session, request.linksResource),
      request.toolRecords === false
        ? this.tools.listNames(request.tools, session, request.slotType)
        : this.tools.list(request.tools, session, request.slotType),
    ]);
    // Records or not, every item has its id and name, all the cells need.
    const toolItems: readonly NamedItem[] = tools.items;
    const projectItems: readonly NamedItem[] = projects.items;
    const [slotLists, linkLists, hierarchy] = await Promise.all([
      session.slotsByToolId.loadMany(toolItems.map((t) => t.id)),
      session.linksByProjectId.loadMany(projectItems.map((p) => p.id)),
      session.hierarchy(),
    ]);
    const slots = slotLists.map((entry) => loaded(entry) ?? []);
    const links = linkLists.map((entry) => loaded(entry) ?? []);
    const staticIds = [...new Set(slots.flat().flatMap((s) => (s.staticResourceId ? [s.staticResourceId] : [])))];
    const staticResources = new Map<string, ResourceInfo>();
    for (const entry of await session.resourceById.loadMany(staticIds)) {
      const resource = loaded(entry);
      if (resource) staticResources.set(resource.id, resource);
    }
    // The page's tools' slots, resolved by the core a project (a row) at a time.
    const table = new CellTable(
      slots.map((toolSlots) => ({ slots: toolSlots })),
      hierarchy,
      staticResources,
    );
    const cells: MatrixCell[] = [];
    for (const [p, project] of projectItems.entries()) {
      const wait = pause();
      if (wait) await wait;
      table.setProject(links[p]);
      for (let t = 0; t < toolItems.length; t++) cells.push(table.cell(t, project.id, toolItems[t].id));
    }
    return { projects, tools, cells };
  }
}
