/**
 * Resource types: the graph of the whole hierarchy (parents above their
 * sub-types; a type may have several parents), which pans and zooms, and a
 * type's page: its parents, sub-types and the neighbourhood around it, the
 * resources that fill a slot of it, the tools whose slots ask for it, and its
 * history, with Rename and Edit description, each previewed first.
 *
 * The graph: drag or the arrow keys pan, the wheel or + and − zoom (around
 * the pointer), 0 fits it in the frame, and "Find a type" centres one. Each
 * box is a link to its type's page; one box is in the tab order, and the
 * arrow keys move between boxes (up and down between layers).
 */
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
} from 'react';
import { request } from '../api';
import {
  ErrorNotice,
  Links,
  Loading,
  PageTitle,
  Pager,
  ResourceLink,
  Time,
  ToolLink,
  useCursorStack,
  Link,
} from '../components';
import { EditsNote, ThingActions } from '../edits';
import { hrefOf, navigate, useLiveEntries, useLoad } from '../hooks';
import {
  RESOURCE_TYPES,
  TYPE_PAGE,
  TYPE_RESOURCES,
  TYPE_TOOLS,
  type ResourceTypesQuery,
  type ResourceTypesQueryVariables,
  type TypePageQuery,
  type TypePageQueryVariables,
  type TypeResourcesQuery,
  type TypeResourcesQueryVariables,
  type TypeToolsQuery,
  type TypeToolsQueryVariables,
} from '../operations';
import { centreOn, fitView, panBy, transformOf, zoomAt, IDENTITY, type Size, type View } from '../pan-zoom';
import { to } from '../route';
import { layoutTypes, reachable, type PlacedType, type TypeLayout } from '../type-layout';
import { plural, withArticle } from '../words';
import { ChangeLog } from './history';

type TypeSummary = ResourceTypesQuery['resourceTypes']['edges'][number]['node'];

/** At most this many types are drawn (100 a request). */
const MAX_TYPES = 2000;
const LIST_PAGE = 20;
/** Below this zoom the boxes' names are too small to read: they are left out (each box still names itself on hover). */
const LABELS_FROM = 0.45;

async function allTypes(signal: AbortSignal): Promise<{ types: TypeSummary[]; total: number }> {
  const types: TypeSummary[] = [];
  let after: string | null = null;
  let total: number;
  do {
    const page: ResourceTypesQuery = await request<ResourceTypesQuery, ResourceTypesQueryVariables>(
      RESOURCE_TYPES,
      { after },
      { signal },
    );
    types.push(...page.resourceTypes.edges.map((e) => e.node));
    total = page.resourceTypes.totalCount;
    after = page.resourceTypes.pageInfo.hasNextPage ? page.resourceTypes.pageInfo.endCursor : null;
  } while (after && types.length < MAX_TYPES);
  return { types, total };
}

/** Every type, loaded again when a type changes. */
function useAllTypes() {
  const graph = useLoad('types', allTypes);
  const { reload } = graph;
  useLiveEntries((entries) => {
    if (entries.some((e) => e.kind === 'RESOURCE_TYPE')) reload();
  });
  return graph;
}

export function TypesView() {
  const graph = useAllTypes();
  const [find, setFind] = useState('');
  const found = useMemo(() => {
    const text = find.trim().toLowerCase();
    if (!text || !graph.data) return null;
    return (
      graph.data.types.find((t) => t.name.toLowerCase() === text) ??
      graph.data.types.find((t) => t.name.toLowerCase().includes(text)) ??
      null
    );
  }, [find, graph.data]);

  return (
    <section className="types-view" aria-labelledby="types-title">
      <PageTitle id="types-title">Resource types</PageTitle>
      <p className="hint">
        A line joins a type (below) to a parent (above): a resource of the lower type fills a slot of the upper one.
        Drag or use the arrow keys to move around, the wheel or + and − to zoom; select a type for its page.
      </p>
      {graph.error && <ErrorNotice>{graph.error}</ErrorNotice>}
      {!graph.data && !graph.error && <Loading what="the resource types" />}
      {graph.data && graph.data.types.length === 0 && <p className="notice">No resource type is registered.</p>}
      {graph.data && graph.data.types.length > 0 && (
        <>
          <form
            className="filters"
            role="search"
            aria-label="Find a type in the graph"
            onSubmit={(e) => {
              e.preventDefault();
              if (found) navigate(to.type(found.name));
            }}
          >
            <label className="field">
              <span>Find a type</span>
              <input
                type="search"
                value={find}
                autoComplete="off"
                spellCheck={false}
                placeholder="e.g. git-checkout"
                onChange={(e) => setFind(e.target.value)}
              />
            </label>
            <span className="muted" role="status">
              {find.trim() === ''
                ? ''
                : found
                  ? `Centred on ${found.name}; Enter opens its page.`
                  : 'No type is named like that.'}
            </span>
          </form>
          {graph.data.total > graph.data.types.length && (
            <p className="notice">
              Showing the first {graph.data.types.length} of {graph.data.total} types.
            </p>
          )}
          <TypeGraph types={graph.data.types} focus={found?.name ?? null} label="The resource type hierarchy" />
        </>
      )}
    </section>
  );
}

/** Which way a graph key moves the focus between boxes. */
const NODE_KEYS: Record<string, 'up' | 'down' | 'left' | 'right'> = {
  ArrowUp: 'up',
  ArrowDown: 'down',
  ArrowLeft: 'left',
  ArrowRight: 'right',
};

/** The box to move to from `from` in a direction: the next in its layer, or the nearest in the layer above or below. */
function neighbour(layout: TypeLayout, from: PlacedType, way: 'up' | 'down' | 'left' | 'right'): PlacedType | null {
  const centre = (n: PlacedType) => n.x + n.width / 2;
  if (way === 'left' || way === 'right') {
    const layer = layout.nodes.filter((n) => n.depth === from.depth).sort((a, b) => a.x - b.x);
    const i = layer.indexOf(from);
    return layer[way === 'left' ? i - 1 : i + 1] ?? null;
  }
  const depth = from.depth + (way === 'up' ? -1 : 1);
  let best: PlacedType | null = null;
  for (const n of layout.nodes)
    if (n.depth === depth && (!best || Math.abs(centre(n) - centre(from)) < Math.abs(centre(best) - centre(from))))
      best = n;
  return best;
}

/**
 * The hierarchy as a graph that pans and zooms. `focus` is centred and
 * marked (with its ancestors and descendants lit); `selected` is marked too.
 */
export function TypeGraph(props: {
  types: readonly TypeSummary[];
  focus: string | null;
  selected?: string | null;
  label: string;
  compact?: boolean;
}) {
  const { types, focus, compact = false } = props;
  const selected = props.selected ?? null;
  const layout = useMemo(
    () => layoutTypes(types.map((t) => ({ name: t.name, parents: t.parentTypes.map((p) => p.name) }))),
    [types],
  );
  const frame = useRef<HTMLDivElement>(null);
  const group = useRef<SVGGElement>(null);
  // Null until the frame is measured: the first view is chosen for its real size.
  const [measured, setSize] = useState<Size | null>(null);
  const size = measured ?? { width: 800, height: 500 };
  const [view, setView] = useState<View>(IDENTITY);
  const viewRef = useRef(view);
  viewRef.current = view;
  const fitted = useRef(false);
  const [active, setActive] = useState<string | null>(null);

  // The frame's size, as the window changes.
  useLayoutEffect(() => {
    const element = frame.current;
    if (!element) return;
    const measure = () => setSize({ width: element.clientWidth, height: element.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const byName = useMemo(() => new Map(layout.nodes.map((n) => [n.name, n])), [layout]);
  const centreOnType = useCallback(
    (name: string, k?: number) => {
      const node = byName.get(name);
      if (node)
        setView(
          centreOn(node.x + node.width / 2, node.y + node.height / 2, size, k ?? Math.max(viewRef.current.k, 0.8)),
        );
    },
    [byName, size],
  );

  // The first view: the whole graph when it can be read so, else the selected type (or the top), readable; a focus is centred.
  useEffect(() => {
    if (!measured) return;
    if (focus) {
      centreOnType(focus);
      return;
    }
    if (fitted.current) return;
    fitted.current = true;
    const whole = fitView(layout, measured);
    if (whole.k >= 0.6) setView(whole);
    else if (selected) centreOnType(selected, 0.8);
    else setView({ k: 0.8, dx: measured.width / 2 - (layout.width / 2) * 0.8, dy: 12 });
  }, [focus, selected, layout, measured, centreOnType]);

  const related = useMemo(() => {
    const mark = focus ?? selected;
    if (!mark) return { up: new Set<string>(), down: new Set<string>() };
    const parents = new Map(layout.nodes.map((n) => [n.name, n.parents]));
    const children = new Map<string, string[]>(layout.nodes.map((n) => [n.name, []]));
    for (const n of layout.nodes) for (const p of n.parents) children.get(p)?.push(n.name);
    return {
      up: reachable(mark, (n) => parents.get(n) ?? []),
      down: reachable(mark, (n) => children.get(n) ?? []),
    };
  }, [layout, focus, selected]);
  const mark = focus ?? selected;

  // Dragging: the transform is set on the drawing directly while the pointer moves, and kept when it is let go.
  const drag = useRef<{ x: number; y: number; start: View; moved: boolean } | null>(null);
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    drag.current = { x: event.clientX, y: event.clientY, start: viewRef.current, moved: false };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const dx = event.clientX - d.x;
    const dy = event.clientY - d.y;
    if (!d.moved && Math.hypot(dx, dy) < 4) return;
    if (!d.moved) frame.current?.setPointerCapture(event.pointerId);
    d.moved = true;
    const next = panBy(d.start, dx, dy);
    viewRef.current = next;
    group.current?.setAttribute('transform', transformOf(next));
  };
  const dragged = useRef(false);
  const onPointerUp = () => {
    const d = drag.current;
    drag.current = null;
    dragged.current = d?.moved ?? false;
    if (d?.moved) setView(viewRef.current);
  };
  // A drag that ends over a box is not a click on it.
  const onClickCapture = (event: MouseEvent) => {
    if (dragged.current) {
      dragged.current = false;
      event.preventDefault();
      event.stopPropagation();
    }
  };

  // The wheel zooms around the pointer (a listener that may prevent the page's scrolling).
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const box = element.getBoundingClientRect();
      setView((v) => zoomAt(v, Math.exp(-event.deltaY * 0.0015), event.clientX - box.left, event.clientY - box.top));
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, []);

  const zoom = (factor: number) => setView((v) => zoomAt(v, factor, size.width / 2, size.height / 2));
  const fit = () => setView(fitView(layout, size));

  const onFrameKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    const step = 60;
    const moves: Record<string, [number, number]> = {
      ArrowUp: [0, step],
      ArrowDown: [0, -step],
      ArrowLeft: [step, 0],
      ArrowRight: [-step, 0],
    };
    if (moves[event.key]) {
      event.preventDefault();
      setView((v) => panBy(v, ...moves[event.key]));
    } else if (event.key === '+' || event.key === '=') {
      event.preventDefault();
      zoom(1.25);
    } else if (event.key === '-') {
      event.preventDefault();
      zoom(0.8);
    } else if (event.key === '0') {
      event.preventDefault();
      fit();
    }
  };

  // One box in the tab order (roving tabindex): the marked one, else the one last focused, else the first.
  const tabbable = active ?? mark ?? layout.nodes[0]?.name ?? null;
  const onNodeKey = (node: PlacedType) => (event: KeyboardEvent<Element>) => {
    const way = NODE_KEYS[event.key];
    if (!way) return;
    event.preventDefault();
    event.stopPropagation();
    const next = neighbour(layout, node, way);
    if (!next) return;
    setActive(next.name);
    centreOnType(next.name);
    requestAnimationFrame(() =>
      frame.current
        ?.querySelector<SVGAElement>(`a[data-type="${CSS.escape(next.name)}"]`)
        ?.focus({ preventScroll: true }),
    );
  };

  const labels = view.k >= LABELS_FROM;
  return (
    <div className={`graph${compact ? ' compact' : ''}`}>
      <div className="graph-tools" role="group" aria-label="Zoom">
        <button type="button" className="small" onClick={() => zoom(1.25)} aria-label="Zoom in">
          +
        </button>
        <button type="button" className="small" onClick={() => zoom(0.8)} aria-label="Zoom out">
          −
        </button>
        <button type="button" className="small" onClick={fit}>
          Fit
        </button>
        <button
          type="button"
          className="small"
          onClick={() => setView((v) => zoomAt(v, 1 / v.k, size.width / 2, size.height / 2))}
        >
          100 %
        </button>
        <span className="muted zoom-level" aria-live="polite">
          {Math.round(view.k * 100)} %{!labels && ' (names on hover; zoom in to read them)'}
        </span>
      </div>
      <div
        className="graph-frame"
        ref={frame}
        tabIndex={0}
        role="group"
        aria-label={`${props.label}: ${plural(layout.nodes.length, 'type')}, parents above their sub-types. Arrow keys move the view, + and − zoom, 0 fits; Tab reaches the types.`}
        onKeyDown={onFrameKey}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onClickCapture={onClickCapture}
      >
        <svg className="type-graph" width="100%" height="100%" role="presentation">
          <g ref={group} transform={transformOf(view)}>
            <g className="edges" aria-hidden="true">
              {layout.edges.map((e) => {
                // Lit: the lines from the marked type up to its ancestors and down to its descendants.
                const lit =
                  (related.up.has(e.parent) && (e.child === mark || related.up.has(e.child))) ||
                  (related.down.has(e.child) && (e.parent === mark || related.down.has(e.parent)));
                return <path key={`${e.child} ${e.parent}`} d={e.path} className={lit ? 'lit' : undefined} />;
              })}
            </g>
            <g className="nodes">
              {layout.nodes.map((n) => {
                const state =
                  n.name === mark
                    ? 'selected'
                    : related.up.has(n.name)
                      ? 'ancestor'
                      : related.down.has(n.name)
                        ? 'descendant'
                        : '';
                const subtypes = layout.nodes.filter((m) => m.parents.includes(n.name)).length;
                const route = to.type(n.name);
                return (
                  <g key={n.name} transform={`translate(${n.x} ${n.y})`}>
                    <a
                      href={hrefOf(route)}
                      className={`type-node ${state}`}
                      tabIndex={n.name === tabbable ? 0 : -1}
                      data-type={n.name}
                      data-depth={n.depth}
                      aria-current={n.name === selected ? 'page' : undefined}
                      aria-label={`${n.name}: ${n.parents.length === 0 ? 'no parent' : `parents ${n.parents.join(', ')}`}; ${plural(subtypes, 'sub-type')}`}
                      onFocus={() => setActive(n.name)}
                      onKeyDown={onNodeKey(n)}
                      onClick={(event) => {
                        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
                        event.preventDefault();
                        navigate(route);
                      }}
                    >
                      <title>{types.find((t) => t.name === n.name)?.description ?? n.name}</title>
                      <rect width={n.width} height={n.height} rx={6} />
                      {labels && (
                        <text x={n.width / 2} y={n.height / 2} dominantBaseline="central" textAnchor="middle">
                          {n.name}
                        </text>
                      )}
                    </a>
                  </g>
                );
              })}
            </g>
          </g>
        </svg>
      </div>
    </div>
  );
}

export function TypeView({ name }: { name: string }) {
  const loaded = useLoad(name, (signal) =>
    request<TypePageQuery, TypePageQueryVariables>(TYPE_PAGE, { ref: name }, { signal }),
  );
  const graph = useAllTypes();
  const [generation, setGeneration] = useState(0);
  const { reload } = loaded;
  useLiveEntries(() => {
    reload();
    setGeneration((g) => g + 1);
  });
  const type = loaded.data?.resourceType ?? null;

  // The neighbourhood: the type, its ancestors and its descendants, drawn on their own.
  const around = useMemo(() => {
    if (!graph.data || !type) return null;
    const children = new Map<string, string[]>();
    for (const t of graph.data.types)
      for (const p of t.parentTypes) children.set(p.name, [...(children.get(p.name) ?? []), t.name]);
    const down = reachable(type.name, (n) => children.get(n) ?? []);
    const keep = new Set([type.name, ...type.ancestors.map((a) => a.name), ...down]);
    return { types: graph.data.types.filter((t) => keep.has(t.name)), descendants: down.size };
  }, [graph.data, type]);

  return (
    <section className="thing-view type-view" aria-labelledby="type-title">
      <p className="breadcrumb">
        <Link to={{ view: 'types' }}>Resource types</Link> /
      </p>
      <PageTitle
        kind="Resource type"
        id="type-title"
        actions={
          type && (
            <ThingActions
              thing={{ kind: 'type', id: type.id, name: type.name, description: type.description }}
              onRenamed={(next) => navigate(to.type(next), { replace: true })}
            />
          )
        }
      >
        {name}
      </PageTitle>
      {type && <EditsNote kind="type" name={type.name} />}
      {loaded.error && <ErrorNotice>{loaded.error}</ErrorNotice>}
      {loaded.loading && !loaded.data && !loaded.error && <Loading what="the type" />}
      {loaded.data && !type && (
        <p className="notice">
          No resource type named {name} is registered now. If it was deleted or renamed, its history is below.
        </p>
      )}
      {type && (
        <>
          {type.description ? (
            <p className="description">{type.description}</p>
          ) : (
            <p className="muted">No description.</p>
          )}
          <dl className="facts">
            <dt>Parents</dt>
            <dd>
              <Links kind="type" names={type.parentTypes.map((p) => p.name)} />
            </dd>
            <dt>Fills slots of</dt>
            <dd>
              <Links kind="type" names={[type.name, ...type.ancestors.map((a) => a.name)]} />
            </dd>
            <dt>Sub-types</dt>
            <dd>
              <Links kind="type" names={type.subtypes.map((s) => s.name)} />
              {around && around.descendants > type.subtypes.length && (
                <span className="muted"> ({plural(around.descendants, 'sub-type')} at any depth)</span>
              )}
            </dd>
            <dt>Registered</dt>
            <dd>
              <Time at={type.createdAt} />
            </dd>
            <dt>Last changed</dt>
            <dd>
              <Time at={type.updatedAt} />
            </dd>
          </dl>
          <p className="note">
            A slot that needs {withArticle(type.name)} takes a resource of this type or of any of its sub-types; a
            resource of this type also fills slots of its ancestors.
          </p>
          {around && around.types.length > 1 && (
            <>
              <h2>Where it stands</h2>
              <TypeGraph
                types={around.types}
                focus={null}
                selected={type.name}
                label={`${type.name} and its relatives`}
                compact
              />
            </>
          )}
          <div className="two-columns">
            <TypeResources name={type.name} generation={generation} />
            <TypeTools name={type.name} generation={generation} />
          </div>
        </>
      )}
      <h2>Recent history</h2>
      <ChangeLog filter={{ ref: type?.id ?? name }} size={8} paged={false} title={`History of ${name}`} />
      <p>
        <Link to={to.history(type?.id ?? name)}>The whole history of {name} →</Link>
      </p>
    </section>
  );
}

function TypeResources({ name, generation }: { name: string; generation: number }) {
  const pages = useCursorStack(name);
  const resources = useLoad(`${name} ${pages.after ?? ''}`, (signal) =>
    request<TypeResourcesQuery, TypeResourcesQueryVariables>(
      TYPE_RESOURCES,
      { ref: name, first: LIST_PAGE, after: pages.after },
      { signal },
    ),
  );
  const { reload } = resources;
  useEffect(() => {
    if (generation > 0) reload();
  }, [generation, reload]);
  const compatible = resources.data?.resourceType?.compatibleResources;
  return (
    <section aria-labelledby="type-resources">
      <h2 id="type-resources">Resources that fill {withArticle(name)} slot</h2>
      {resources.error && <ErrorNotice>{resources.error}</ErrorNotice>}
      {!compatible && !resources.error && <Loading what="resources" />}
      {compatible && (
        <>
          {compatible.edges.length === 0 ? (
            <p className="muted">None: no resource of this type or a sub-type is registered.</p>
          ) : (
            <ul className="plain-list compatible-resources">
              {compatible.edges.map(({ node }) => (
                <li key={node.name}>
                  <ResourceLink name={node.name} />{' '}
                  {node.type.name !== name && <span className="muted">({node.type.name})</span>}
                </li>
              ))}
            </ul>
          )}
          {(compatible.pageInfo.hasNextPage || pages.depth > 0) && (
            <Pager
              label="resources"
              from={pages.depth * LIST_PAGE}
              count={compatible.edges.length}
              total={compatible.totalCount}
              hasPrevious={pages.depth > 0}
              hasNext={compatible.pageInfo.hasNextPage}
              onPrevious={pages.previous}
              onNext={() => pages.next(compatible.pageInfo.endCursor)}
            />
          )}
        </>
      )}
    </section>
  );
}

function TypeTools({ name, generation }: { name: string; generation: number }) {
  const pages = useCursorStack(name);
  const tools = useLoad(`${name} ${pages.after ?? ''}`, (signal) =>
    request<TypeToolsQuery, TypeToolsQueryVariables>(
      TYPE_TOOLS,
      { type: name, first: LIST_PAGE, after: pages.after },
      { signal },
    ),
  );
  const graph = useAllTypes();
  const { reload } = tools;
  useEffect(() => {
    if (generation > 0) reload();
  }, [generation, reload]);
  // A slot asks for this type when its type is this one or a sub-type of it (the filter includes sub-types).
  const fitting = useMemo(() => {
    const types = graph.data?.types ?? [];
    const children = new Map<string, string[]>(types.map((t) => [t.name, []]));
    for (const t of types) for (const p of t.parentTypes) children.get(p.name)?.push(t.name);
    return new Set([name, ...reachable(name, (n) => children.get(n) ?? [])]);
  }, [graph.data, name]);
  const asking = tools.data?.tools;
  return (
    <section aria-labelledby="type-tools">
      <h2 id="type-tools">Slots that ask for it</h2>
      {tools.error && <ErrorNotice>{tools.error}</ErrorNotice>}
      {!asking && !tools.error && <Loading what="tools" />}
      {asking && (
        <>
          {asking.edges.length === 0 ? (
            <p className="muted">None: no tool has a slot of this type or a sub-type.</p>
          ) : (
            <ul className="plain-list asking-tools">
              {asking.edges.map(({ node }) => (
                <li key={node.name}>
                  <ToolLink name={node.name} />:{' '}
                  {node.resourceSlots
                    .filter((s) => fitting.has(s.resourceType.name))
                    .map(
                      (s) =>
                        `${s.name} (${s.resourceType.name}, ${s.binding.toLowerCase()}${s.required ? '' : ', optional'})`,
                    )
                    .join('; ')}
                </li>
              ))}
            </ul>
          )}
          {(asking.pageInfo.hasNextPage || pages.depth > 0) && (
            <Pager
              label="tools"
              from={pages.depth * LIST_PAGE}
              count={asking.edges.length}
              total={asking.totalCount}
              hasPrevious={pages.depth > 0}
              hasNext={asking.pageInfo.hasNextPage}
              onPrevious={pages.previous}
              onNext={() => pages.next(asking.pageInfo.endCursor)}
            />
          )}
        </>
      )}
    </section>
  );
}
