/**
 * The matrix: projects are rows, tools are columns, and each cell says how
 * the tool stands in the project (CellStatus). It takes the page's width, its
 * headers stay in view as it scrolls (each a link to the tool's or project's
 * page, with the full name on hover), and both axes are paged by their
 * cursors and filtered. A cell opens the explanation panel.
 *
 * Live: a change-log entry that can change the page (entryMayChangeMatrix)
 * asks for the same page again; cells that kept their status keep their
 * objects, so only rows with a changed cell are drawn again, and changed
 * cells flash once. Tools and projects that now fall on the page appear.
 */
import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { describeError, isAbort, request } from '../api';
import { ErrorNotice, Link, Loading, PageTitle, Pager, useCursorStack } from '../components';
import { navigate, useLiveEntries, useLoad } from '../hooks';
import {
  cellKey,
  entryMayChangeMatrix,
  updateMatrix,
  type MatrixCell,
  type MatrixFilters,
  type MatrixModel,
  type MatrixRow,
  type Named,
} from '../matrix-model';
import {
  MATRIX,
  RESOURCE_TYPES,
  type CellStatus,
  type MatrixQuery,
  type MatrixQueryVariables,
  type ResourceTypesQuery,
} from '../operations';
import { to, type MatrixRoute } from '../route';
import { CELL_STATUS, plural } from '../words';
import { ExplainPanel } from './explain';

const PROJECTS_PER_PAGE = 20;
const TOOLS_PER_PAGE = 50;
const FLASH_MS = 2500;
const NO_FLASH: ReadonlySet<string> = new Set();

function filtersOf(route: MatrixRoute): MatrixFilters {
  const projects = { nameContains: route.project || undefined, linksResource: route.links || undefined };
  const tools = { nameContains: route.tool || undefined, slotType: route.slotType || undefined };
  return {
    projects: projects.nameContains || projects.linksResource ? projects : null,
    tools: tools.nameContains || tools.slotType ? tools : null,
  };
}

function cellLabel(project: string, tool: string, cell: MatrixCell | null): string {
  if (!cell) return `${tool} in ${project}: unknown`;
  const status = CELL_STATUS[cell.status].label.toLowerCase();
  const reasons = cell.reasons.length > 0 ? ` (${plural(cell.failedSlots, 'slot')}: ${cell.reasons.join(', ')})` : '';
  return `${tool} in ${project}: ${status}${reasons}`;
}

export function MatrixView({ route }: { route: MatrixRoute }) {
  const filters = useMemo(() => filtersOf(route), [route]);
  const filterKey = JSON.stringify(filters);
  const projectPages = useCursorStack(filterKey);
  const toolPages = useCursorStack(filterKey);
  const variables = useMemo(
    () => ({
      projects: filters.projects,
      tools: filters.tools,
      projectsFirst: PROJECTS_PER_PAGE,
      projectsAfter: projectPages.after,
      toolsFirst: TOOLS_PER_PAGE,
      toolsAfter: toolPages.after,
    }),
    [filters, projectPages.after, toolPages.after],
  );
  const variablesKey = JSON.stringify(variables);

  const [model, setModel] = useState<MatrixModel | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [flash, setFlash] = useState<ReadonlySet<string>>(NO_FLASH);
  const [selected, setSelected] = useState<{ projectId: string; toolId: string } | null>(null);
  const [explainGeneration, setExplainGeneration] = useState(0);
  const modelRef = useRef<MatrixModel | null>(null);
  const flashTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  // One request at a time for a page; live changes that come meanwhile ask once more when it is answered.
  const inFlight = useRef<{ key: string; again: boolean; controller: AbortController } | null>(null);
  const load = useCallback(
    (live: boolean) => {
      const current = inFlight.current;
      if (live && current?.key === variablesKey) {
        current.again = true;
        return;
      }
      current?.controller.abort();
      const ticket = { key: variablesKey, again: false, controller: new AbortController() };
      inFlight.current = ticket;
      if (!live) setLoading(true);
      request<MatrixQuery, MatrixQueryVariables>(MATRIX, variables, { signal: ticket.controller.signal }).then(
        (data) => {
          if (inFlight.current !== ticket) return;
          inFlight.current = null;
          const update = updateMatrix(modelRef.current, data.bindingMatrix);
          modelRef.current = update.model;
          setModel(update.model);
          setError(null);
          setLoading(false);
          if (live && (update.changed.size > 0 || update.addedTools.size > 0 || update.addedProjects.size > 0)) {
            const flashed = new Set(update.changed);
            for (const row of update.model.rows)
              for (const tool of update.model.tools)
                if (update.addedTools.has(tool.id) || update.addedProjects.has(row.project.id))
                  flashed.add(cellKey(row.project.id, tool.id));
            setFlash(flashed);
            if (flashTimer.current) clearTimeout(flashTimer.current);
            flashTimer.current = setTimeout(() => setFlash(NO_FLASH), FLASH_MS);
          }
          if (ticket.again) load(true);
        },
        (failure: unknown) => {
          if (inFlight.current !== ticket || isAbort(failure)) return;
          inFlight.current = null;
          if (!live) {
            // Another page or other filters that failed (an unknown type, say): do not show the old page under them.
            modelRef.current = null;
            setModel(null);
          }
          setError(describeError(failure));
          setLoading(false);
        },
      );
    },
    // variables is what variablesKey spells.
    [variablesKey],
  );

  useEffect(() => {
    load(false);
  }, [load]);
  useEffect(
    () => () => {
      inFlight.current?.controller.abort();
      if (flashTimer.current) clearTimeout(flashTimer.current);
    },
    [],
  );

  useLiveEntries((entries) => {
    if (selected) setExplainGeneration((g) => g + 1);
    const shown = modelRef.current;
    if (shown && entries.some((e) => entryMayChangeMatrix(e, shown, filters))) load(true);
  });

  // The grid's keyboard focus: one cell is in the tab order (roving tabindex); arrows move it.
  const [focus, setFocus] = useState({ r: 0, c: 0 });
  const table = useRef<HTMLTableElement>(null);
  const moveFocus = useRef(false);
  const rows = model?.rows ?? [];
  const tools = model?.tools ?? [];
  const focusR = Math.min(focus.r, Math.max(0, rows.length - 1));
  const focusC = Math.min(focus.c, Math.max(0, tools.length - 1));
  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    table.current?.querySelector<HTMLElement>(`td[data-r="${focusR}"][data-c="${focusC}"]`)?.focus();
  }, [focusR, focusC]);

  const cellAt = (target: EventTarget): { r: number; c: number } | null => {
    const td = (target as HTMLElement).closest?.('td[data-r]');
    return td instanceof HTMLElement ? { r: Number(td.dataset.r), c: Number(td.dataset.c) } : null;
  };
  const open = (r: number, c: number) => {
    const row = rows[r];
    const tool = tools[c];
    if (row && tool) setSelected({ projectId: row.project.id, toolId: tool.id });
  };
  const onClick = (event: MouseEvent) => {
    const at = cellAt(event.target);
    if (!at) return;
    setFocus(at);
    open(at.r, at.c);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const at = cellAt(event.target);
    if (!at) return;
    const last = { r: rows.length - 1, c: tools.length - 1 };
    const moves: Record<string, { r: number; c: number }> = {
      ArrowUp: { r: Math.max(0, at.r - 1), c: at.c },
      ArrowDown: { r: Math.min(last.r, at.r + 1), c: at.c },
      ArrowLeft: { r: at.r, c: Math.max(0, at.c - 1) },
      ArrowRight: { r: at.r, c: Math.min(last.c, at.c + 1) },
      Home: { r: event.ctrlKey ? 0 : at.r, c: 0 },
      End: { r: event.ctrlKey ? last.r : at.r, c: last.c },
    };
    const to = moves[event.key];
    if (to) {
      event.preventDefault();
      moveFocus.current = true;
      setFocus(to);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      open(at.r, at.c);
    }
  };
  const closePanel = useCallback(() => {
    // Back to the cell the panel was opened from.
    table.current?.querySelector<HTMLElement>('td[aria-selected="true"]')?.focus();
    setSelected(null);
  }, []);

  const selectedAt = selected
    ? {
        r: rows.findIndex((r) => r.project.id === selected.projectId),
        c: tools.findIndex((t) => t.id === selected.toolId),
      }
    : { r: -1, c: -1 };
  const flashByRow = useMemo(() => {
    const byRow = new Map<string, ReadonlySet<string>>();
    if (flash.size === 0) return byRow;
    for (const key of flash) {
      const [projectId, toolId] = key.split(' ');
      const set = (byRow.get(projectId) as Set<string> | undefined) ?? new Set<string>();
      set.add(toolId);
      byRow.set(projectId, set);
    }
    return byRow;
  }, [flash]);

  return (
    <section className={`matrix-view${selected ? ' with-panel' : ''}`} aria-labelledby="matrix-title">
      <PageTitle id="matrix-title">Which tools can run in which projects</PageTitle>
      <FilterBar route={route} />
      <Legend />
      {error && <ErrorNotice>{error}</ErrorNotice>}
      {!model && loading && !error && <Loading what="the matrix" />}
      {model && (
        <>
          <div className="matrix-bar">
            <Pager
              label="projects"
              from={projectPages.depth * PROJECTS_PER_PAGE}
              count={rows.length}
              total={model.projectsPage.totalCount}
              hasPrevious={projectPages.depth > 0}
              hasNext={model.projectsPage.hasNextPage}
              onPrevious={projectPages.previous}
              onNext={() => projectPages.next(model.projectsPage.endCursor)}
            />
            <Pager
              label="tools"
              from={toolPages.depth * TOOLS_PER_PAGE}
              count={tools.length}
              total={model.toolsPage.totalCount}
              hasPrevious={toolPages.depth > 0}
              hasNext={model.toolsPage.hasNextPage}
              onPrevious={toolPages.previous}
              onNext={() => toolPages.next(model.toolsPage.endCursor)}
            />
          </div>
          {rows.length === 0 || tools.length === 0 ? (
            <p className="notice">
              {rows.length === 0 ? 'No project matches.' : 'No tool matches.'} Change the filters to see more.
            </p>
          ) : (
            <div className="matrix-scroll" aria-busy={loading}>
              <table
                className="matrix"
                role="grid"
                aria-label="The matrix: projects are rows, tools are columns"
                aria-rowcount={rows.length + 1}
                aria-colcount={tools.length + 1}
                ref={table}
              >
                <thead>
                  {/* As tall as the longest tool name on the page needs (set through the CSSOM, which the CSP allows). */}
                  <tr style={{ height: headerHeight(tools) }}>
                    <th scope="col" className="corner">
                      <span>
                        Projects ↓ <span className="muted">·</span> Tools →
                      </span>
                    </th>
                    {tools.map((tool, c) => (
                      <th
                        key={tool.id}
                        scope="col"
                        className={`tool${selectedAt.c === c ? ' selected' : ''}`}
                        data-tool={tool.name}
                      >
                        <Link to={to.tool(tool.name)} title={tool.name}>
                          <span>{tool.name}</span>
                        </Link>
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody onClick={onClick} onKeyDown={onKeyDown}>
                  {rows.map((row, r) => (
                    <Row
                      key={row.project.id}
                      row={row}
                      r={r}
                      tools={tools}
                      focusC={focusR === r ? focusC : -1}
                      selectedC={selectedAt.r === r ? selectedAt.c : -1}
                      flashed={flashByRow.get(row.project.id) ?? NO_FLASH}
                    />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
      {selected && (
        <ExplainPanel
          key={`${selected.projectId} ${selected.toolId}`}
          projectId={selected.projectId}
          toolId={selected.toolId}
          generation={explainGeneration}
          onClose={closePanel}
        />
      )}
    </section>
  );
}

/** The column headers' height: the longest name's, written sideways, within 60–220 px (longer names are cut, and shown whole on hover). */
function headerHeight(tools: readonly Named[]): number {
  const longest = Math.max(0, ...tools.map((t) => t.name.length));
  return Math.min(220, Math.max(60, Math.round(longest * 7.2) + 14));
}

/** One row: plain cells, drawn again only when one of its props changes (memo). */
const Row = memo(function Row(props: {
  row: MatrixRow;
  r: number;
  tools: readonly Named[];
  focusC: number;
  selectedC: number;
  flashed: ReadonlySet<string>;
}) {
  const { row, r, tools, focusC, selectedC, flashed } = props;
  const project = row.project.name;
  return (
    <tr>
      <th scope="row" className="project">
        <Link to={to.project(project)} title={project}>
          <span>{project}</span>
        </Link>
      </th>
      {row.cells.map((cell, c) => {
        const tool = tools[c];
        const status: CellStatus | 'UNKNOWN' = cell?.status ?? 'UNKNOWN';
        const label = cellLabel(project, tool.name, cell);
        let className = `cell s-${status}`;
        if (flashed.has(tool.id)) className += ' flash';
        if (selectedC === c) className += ' selected';
        return (
          <td
            key={tool.id}
            role="gridcell"
            className={className}
            tabIndex={focusC === c ? 0 : -1}
            data-r={r}
            data-c={c}
            data-project={project}
            data-tool={tool.name}
            data-status={status}
            aria-label={label}
            aria-selected={selectedC === c}
            // How many slots fail, drawn small after the mark by the stylesheet (::after), so the cell stays one text.
            data-failed={cell && cell.failedSlots > 1 ? cell.failedSlots : undefined}
            title={label}
          >
            {cell ? CELL_STATUS[cell.status].mark : '?'}
          </td>
        );
      })}
    </tr>
  );
});

function Legend() {
  return (
    <ul className="legend" aria-label="What the cells mean">
      {(Object.keys(CELL_STATUS) as CellStatus[]).map((status) => (
        <li key={status}>
          <span className={`swatch s-${status}`} aria-hidden="true">
            {CELL_STATUS[status].mark}
          </span>
          <strong>{CELL_STATUS[status].label}</strong>: {CELL_STATUS[status].meaning}
        </li>
      ))}
    </ul>
  );
}

/** The four filters. Typing updates the URL (and so the page) after a short pause; Enter at once. */
function FilterBar({ route }: { route: MatrixRoute }) {
  const fromRoute = { project: route.project, links: route.links, tool: route.tool, slotType: route.slotType };
  const [values, setValues] = useState(fromRoute);
  const pushed = useRef(JSON.stringify(fromRoute));
  const routeKey = JSON.stringify(fromRoute);
  useEffect(() => {
    // The route changed from outside (back, a link): show it.
    if (routeKey !== pushed.current) {
      pushed.current = routeKey;
      setValues(JSON.parse(routeKey) as typeof fromRoute);
    }
  }, [routeKey]);
  const apply = useCallback((next: typeof fromRoute) => {
    const key = JSON.stringify(next);
    if (key === pushed.current) return;
    pushed.current = key;
    navigate({ view: 'matrix', ...next }, { replace: true });
  }, []);
  useEffect(() => {
    const timer = setTimeout(() => apply(values), 400);
    return () => clearTimeout(timer);
  }, [values, apply]);

  // The slot types' suggestions are asked for only once the field is used, not with the page's first request.
  const [wantTypes, setWantTypes] = useState(route.slotType !== '');
  const types = useLoad(wantTypes ? 'types' : 'no types', (signal) =>
    wantTypes ? request<ResourceTypesQuery>(RESOURCE_TYPES, {}, { signal }) : Promise.resolve(null),
  );
  const field = (key: keyof typeof fromRoute, label: string, placeholder: string, list?: string) => (
    <label className="field">
      <span>{label}</span>
      <input
        type="search"
        value={values[key]}
        placeholder={placeholder}
        list={list}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => setValues({ ...values, [key]: e.target.value })}
        onFocus={list ? () => setWantTypes(true) : undefined}
      />
    </label>
  );
  const empty = !values.project && !values.links && !values.tool && !values.slotType;
  return (
    <form
      className="filters"
      role="search"
      aria-label="Filter the matrix"
      onSubmit={(e) => {
        e.preventDefault();
        apply(values);
      }}
    >
      <fieldset>
        <legend>Projects</legend>
        {field('project', 'Name contains', 'e.g. shop')}
        {field('links', 'Links resource', 'a resource name')}
      </fieldset>
      <fieldset>
        <legend>Tools</legend>
        {field('tool', 'Name contains', 'e.g. lint')}
        {field('slotType', 'Slot type', 'a resource type', 'matrix-slot-types')}
      </fieldset>
      <datalist id="matrix-slot-types">
        {types.data?.resourceTypes.edges.map((e) => (
          <option key={e.node.id} value={e.node.name} />
        ))}
      </datalist>
      <button type="submit" className="visually-hidden">
        Apply filters
      </button>
      <button
        type="button"
        disabled={empty}
        onClick={() => {
          const none = { project: '', links: '', tool: '', slotType: '' };
          setValues(none);
          apply(none);
        }}
      >
        Clear filters
      </button>
    </form>
  );
}
