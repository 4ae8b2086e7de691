/**
 * What the tool and project pages share: a list of tools or projects with
 * their counts (failing first, or by name, found by name), and a thing's
 * cells (one per project for a tool, one per tool for a project), failing
 * first, each with a button that opens its explanation.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { CellChip, CountsBar, ErrorNotice, Link, Loading, PageTitle, Pager, useCursorStack } from '../components';
import { navigate, useLiveEntries, useLoad } from '../hooks';
import type { CellsFragment, CountsFragment } from '../operations';
import { to, type ListOrder, type Route } from '../route';
import { FAILURE_SHORT, plural } from '../words';
import { ExplainPanel } from './explain';

/** Items a page of a list or of cells shows. */
export const PAGE = 25;

export interface SummaryRow {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly counts: CountsFragment;
}

export interface SummaryPage {
  readonly totalCount: number;
  readonly rows: readonly SummaryRow[];
  readonly hasNextPage: boolean;
  readonly endCursor: string | null;
}

/** The tools or projects list: a name filter and the order in the URL, a table of counts, paged. */
export function SummaryListView(props: {
  kind: 'tools' | 'projects';
  q: string;
  order: ListOrder;
  load: (
    args: { first: number; after: string | null; order: ListOrder; nameContains: string | null },
    signal: AbortSignal,
  ) => Promise<SummaryPage>;
  /** What each row's counts count: the projects a tool is in, the tools in a project. */
  per: string;
}) {
  const { kind, q, order, load, per } = props;
  const noun = kind === 'tools' ? 'tool' : 'project';
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);
  useEffect(() => {
    const timer = setTimeout(() => {
      if (text.trim() !== q) navigate({ view: kind, q: text.trim(), order }, { replace: true });
    }, 300);
    return () => clearTimeout(timer);
  }, [text, q, kind, order]);

  const pages = useCursorStack(`${q} ${order}`);
  const loaded = useLoad(`${kind} ${q} ${order} ${pages.after ?? ''}`, (signal) =>
    load({ first: PAGE, after: pages.after, order, nameContains: q || null }, signal),
  );
  const { reload } = loaded;
  useLiveEntries(() => reload());
  const list = loaded.data;
  const title = kind === 'tools' ? 'Tools' : 'Projects';

  return (
    <section className={`list-view ${kind}-view`} aria-labelledby={`${kind}-title`}>
      <PageTitle id={`${kind}-title`}>{title}</PageTitle>
      <p className="hint">
        {kind === 'tools'
          ? 'Each tool with how it stands in every project: the tools that fail in the most projects first.'
          : 'Each project with how every tool stands in it: the projects where the most tools fail first.'}
      </p>
      <form className="filters" role="search" aria-label={`Find ${kind}`} onSubmit={(e) => e.preventDefault()}>
        <label className="field">
          <span>Name contains</span>
          <input
            type="search"
            value={text}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
        <label className="field">
          <span>Order</span>
          <select
            value={order}
            onChange={(e) => navigate({ view: kind, q, order: e.target.value as ListOrder }, { replace: true })}
          >
            <option value="attention">Failing first</option>
            <option value="name">By name</option>
          </select>
        </label>
      </form>
      {loaded.error && <ErrorNotice>{loaded.error}</ErrorNotice>}
      {!list && !loaded.error && <Loading what={kind} />}
      {list && (
        <>
          <Pager
            label={kind}
            from={pages.depth * PAGE}
            count={list.rows.length}
            total={list.totalCount}
            hasPrevious={pages.depth > 0}
            hasNext={list.hasNextPage}
            onPrevious={pages.previous}
            onNext={() => pages.next(list.endCursor)}
          />
          {list.rows.length === 0 ? (
            <p className="notice">No {noun} is named like that.</p>
          ) : (
            <table className={`data summary-table ${kind}`} aria-busy={loaded.loading}>
              <thead>
                <tr>
                  <th scope="col">{kind === 'tools' ? 'Tool' : 'Project'}</th>
                  <th scope="col" className="num">
                    Failed
                  </th>
                  <th scope="col" className="num">
                    Optional unbound
                  </th>
                  <th scope="col" className="num">
                    Deferred
                  </th>
                  <th scope="col" className="num">
                    Ready
                  </th>
                  <th scope="col">In {per}s</th>
                </tr>
              </thead>
              <tbody>
                {list.rows.map((row) => (
                  <tr key={row.id}>
                    <th scope="row">
                      <Link to={kind === 'tools' ? to.tool(row.name) : to.project(row.name)}>{row.name}</Link>
                      {row.description && <div className="muted row-description">{row.description}</div>}
                    </th>
                    <td className="num">{row.counts.failed.toLocaleString('en')}</td>
                    <td className="num">{row.counts.optionalUnbound.toLocaleString('en')}</td>
                    <td className="num">{row.counts.deferred.toLocaleString('en')}</td>
                    <td className="num">{row.counts.ready.toLocaleString('en')}</td>
                    <td className="bar-cell">
                      <CountsBar counts={row.counts} of={`${per}s`} words="none" />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}

/**
 * One thing's cells, failing first: for a tool, a row per project; for a
 * project, a row per tool. "Why?" opens the explanation of the pair beside it.
 */
export function CellList(props: {
  /** Whose cells: the other side names each row. */
  of: 'tool' | 'project';
  name: string;
  counts: CountsFragment | null;
  load: (args: { first: number; after: string | null }, signal: AbortSignal) => Promise<CellsFragment | null>;
  generation: number;
  heading: ReactNode;
}) {
  const { of, name, counts, load, generation } = props;
  const pages = useCursorStack(name);
  const loaded = useLoad(`${of} ${name} ${pages.after ?? ''}`, (signal) =>
    load({ first: PAGE, after: pages.after }, signal),
  );
  const { reload } = loaded;
  const first = useRef(generation);
  useEffect(() => {
    if (generation !== first.current) reload();
  }, [generation, reload]);
  const [selected, setSelected] = useState<{ tool: string; project: string } | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const close = useCallback(() => {
    setSelected(null);
    opener.current?.focus();
  }, []);
  const cells = loaded.data;
  const other = of === 'tool' ? 'project' : 'tool';

  return (
    <section className={`cell-list${selected ? ' with-panel' : ''}`} aria-labelledby={`cells-${of}`}>
      <h2 id={`cells-${of}`}>{props.heading}</h2>
      {counts && <CountsBar counts={counts} of={`${other}s`} />}
      {loaded.error && <ErrorNotice>{loaded.error}</ErrorNotice>}
      {!cells && !loaded.error && <Loading what={`its ${other}s`} />}
      {cells && (
        <>
          {cells.totalCount > PAGE && (
            <Pager
              label={`${other}s`}
              from={pages.depth * PAGE}
              count={cells.nodes.length}
              total={cells.totalCount}
              hasPrevious={pages.depth > 0}
              hasNext={cells.pageInfo.hasNextPage}
              onPrevious={pages.previous}
              onNext={() => pages.next(cells.pageInfo.endCursor)}
            />
          )}
          {cells.nodes.length === 0 ? (
            <p className="muted">No {other} yet.</p>
          ) : (
            <table className="data cells" aria-busy={loaded.loading}>
              <thead>
                <tr>
                  <th scope="col">{other === 'tool' ? 'Tool' : 'Project'}</th>
                  <th scope="col">Status</th>
                  <th scope="col">Why</th>
                  <th scope="col">
                    <span className="visually-hidden">Explanation</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {cells.nodes.map((cell) => {
                  const otherName = other === 'tool' ? cell.toolName : cell.projectName;
                  const route: Route = other === 'tool' ? to.tool(otherName) : to.project(otherName);
                  const isSelected = selected?.tool === cell.toolId && selected.project === cell.projectId;
                  return (
                    <tr
                      key={`${cell.toolId} ${cell.projectId}`}
                      className={isSelected ? 'selected' : undefined}
                      data-status={cell.status}
                    >
                      <th scope="row">
                        <Link to={route}>{otherName}</Link>
                      </th>
                      <td>
                        <CellChip status={cell.status} />
                      </td>
                      <td>
                        {cell.status === 'FAILED'
                          ? `${plural(cell.failedSlots, 'slot')} not bound: ${cell.reasons.map((r) => FAILURE_SHORT[r]).join(', ')}`
                          : cell.status === 'DEFERRED'
                            ? 'waits for params when it runs'
                            : cell.status === 'OPTIONAL_UNBOUND'
                              ? 'an optional slot found nothing'
                              : ''}
                      </td>
                      <td>
                        <button
                          type="button"
                          className="small"
                          onClick={(e) => {
                            opener.current = e.currentTarget;
                            setSelected({ tool: cell.toolId, project: cell.projectId });
                          }}
                        >
                          Why?
                          <span className="visually-hidden">
                            {' '}
                            {cell.toolName} in {cell.projectName}
                          </span>
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </>
      )}
      {selected && (
        <ExplainPanel
          key={`${selected.project} ${selected.tool}`}
          projectId={selected.project}
          toolId={selected.tool}
          generation={generation}
          onClose={close}
        />
      )}
    </section>
  );
}

/** A generation that moves with every batch of live entries: pages pass it to what they must load again. */
export function useGeneration(): number {
  const [generation, setGeneration] = useState(0);
  useLiveEntries(() => setGeneration((g) => g + 1));
  return generation;
}
