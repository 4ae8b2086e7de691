/**
 * The matrix page as the view holds it, and how a fresh copy of the same page
 * replaces it: cells, rows and columns that did not change keep their
 * objects, so the memoized rows that show them are not drawn again, and the
 * cells whose status did change are named (the view marks them briefly).
 * Also: which change-log entries can change the page at all.
 *
 * No DOM here: the tests import this module.
 */
import type {
  CellStatus,
  LiveEntry,
  MatrixCell,
  MatrixData,
  Named,
  PageInfo,
  ProjectFilter,
  ToolFilter,
} from './operations';

/** One row: a project and its cells, in column order (null where the page has no cell for a pair). */
export interface MatrixRow {
  readonly project: Named;
  readonly cells: readonly (MatrixCell | null)[];
}

export interface MatrixModel {
  readonly tools: readonly Named[];
  readonly rows: readonly MatrixRow[];
  readonly projectsPage: PageInfo & { readonly totalCount: number };
  readonly toolsPage: PageInfo & { readonly totalCount: number };
}

/** The key of the cell of a project and a tool. */
export function cellKey(projectId: string, toolId: string): string {
  return `${projectId} ${toolId}`;
}

function sameCell(a: MatrixCell | null, b: MatrixCell | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (
    a.status === b.status &&
    a.failedSlots === b.failedSlots &&
    a.reasons.length === b.reasons.length &&
    a.reasons.every((r, i) => r === b.reasons[i])
  );
}

function sameNamed(a: readonly Named[], b: readonly Named[]): boolean {
  return a.length === b.length && a.every((x, i) => x.id === b[i].id && x.name === b[i].name);
}

/** What replacing the page changed. */
export interface MatrixUpdate {
  readonly model: MatrixModel;
  /** Cells (cellKey) whose status changed, in rows and columns that were there before. */
  readonly changed: ReadonlySet<string>;
  /** Tools and projects (ids) that are new on the page. */
  readonly addedTools: ReadonlySet<string>;
  readonly addedProjects: ReadonlySet<string>;
}

/** Builds the page from a bindingMatrix answer, reusing what `previous` already holds unchanged. */
export function updateMatrix(previous: MatrixModel | null, data: MatrixData['bindingMatrix']): MatrixUpdate {
  const fetchedTools = data.tools.nodes;
  const tools = previous && sameNamed(previous.tools, fetchedTools) ? previous.tools : fetchedTools;
  const byKey = new Map(data.cells.map((c) => [cellKey(c.projectId, c.toolId), c]));
  const oldRows = new Map(previous?.rows.map((r) => [r.project.id, r]) ?? []);
  const oldTools = new Set(previous?.tools.map((t) => t.id) ?? []);
  const oldColumn = new Map(previous?.tools.map((t, i) => [t.id, i]) ?? []);
  const changed = new Set<string>();
  const addedProjects = new Set<string>();

  const rows = data.projects.nodes.map((project): MatrixRow => {
    const old = oldRows.get(project.id);
    if (!old && previous) addedProjects.add(project.id);
    const cells = tools.map((tool) => {
      const fresh = byKey.get(cellKey(project.id, tool.id)) ?? null;
      const column = oldColumn.get(tool.id);
      const before = old && column !== undefined ? old.cells[column] : undefined;
      if (before !== undefined && sameCell(before, fresh)) return before;
      if (before && fresh && before.status !== fresh.status) changed.add(cellKey(project.id, tool.id));
      return fresh;
    });
    const unchanged =
      old &&
      old.project.name === project.name &&
      old.cells.length === cells.length &&
      old.cells.every((c, i) => c === cells[i]);
    return unchanged ? old : { project: old && old.project.name === project.name ? old.project : project, cells };
  });

  const sameRows = previous && previous.rows.length === rows.length && previous.rows.every((r, i) => r === rows[i]);
  const page = (c: MatrixData['bindingMatrix']['projects']) => ({ totalCount: c.totalCount, ...c.pageInfo });
  return {
    model: {
      tools,
      rows: sameRows ? previous.rows : rows,
      projectsPage: page(data.projects),
      toolsPage: page(data.tools),
    },
    changed,
    addedTools: new Set(previous ? tools.filter((t) => !oldTools.has(t.id)).map((t) => t.id) : []),
    addedProjects,
  };
}

/** The filters the page was asked with. */
export interface MatrixFilters {
  readonly projects: ProjectFilter | null;
  readonly tools: ToolFilter | null;
}

/**
 * Whether a change-log entry can change what the page shows, so the page is
 * asked for again only then. Conservative: true whenever it cannot tell.
 *
 * - A tool or project created, renamed or deleted may enter or leave the page (or its name changes).
 * - With a "links resource" filter, links and resource renames decide which projects match; with a
 *   "slot type" filter, type changes decide which tools match.
 * - Otherwise only its binding changes matter: those of a tool on the page, in a project on the page
 *   (a STATIC or PARAMETER slot's change has no project: it is the tool's in every project).
 *   When the entry kept fewer binding changes than it counts, or the server did not examine every pair it
 *   reached (impactComplete false), it cannot tell.
 */
export function entryMayChangeMatrix(entry: LiveEntry, model: MatrixModel, filters: MatrixFilters): boolean {
  if (entry.kind === 'TOOL' || entry.kind === 'PROJECT') return true;
  if (filters.projects?.linksResource && (entry.kind === 'LINK' || entry.kind === 'RESOURCE')) return true;
  if (filters.tools?.slotType && entry.kind === 'RESOURCE_TYPE') return true;
  if (!entry.impactComplete) return true;
  if (entry.impactCount === 0) return false;
  if (entry.bindingChanges.length < entry.impactCount) return true;
  const tools = new Set(model.tools.map((t) => t.id));
  const projects = new Set(model.rows.map((r) => r.project.id));
  return entry.bindingChanges.some(
    (c) => tools.has(c.toolId) && (c.projectId === null ? projects.size > 0 : projects.has(c.projectId)),
  );
}

/** How each status is shown: a word, a mark that does not depend on colour, and what it means. */
export const CELL_STATUS: Readonly<Record<CellStatus, { label: string; mark: string; meaning: string }>> = {
  READY: { label: 'Ready', mark: '✓', meaning: 'every slot is bound' },
  DEFERRED: { label: 'Deferred', mark: '…', meaning: 'bound apart from PARAMETER slots, which wait for their params' },
  OPTIONAL_UNBOUND: {
    label: 'Optional unbound',
    mark: '○',
    meaning: 'nothing fails, but an optional slot found nothing',
  },
  FAILED: { label: 'Failed', mark: '✕', meaning: 'at least one slot cannot be bound; open the cell for the fix' },
};
