/**
 * The type graph: every resource type as a box, parents above their
 * sub-types (a layered layout by depth; a type may have several parents), in
 * SVG. Selecting a type (click, or Enter on it) shows the resources that fill
 * a slot of that type (compatibleResources: of the type or any sub-type) and
 * the tools with a slot that asks for it (tools(filter: { slotType })).
 */
import { useCallback, useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import { request } from '../api';
import { ErrorNotice, Loading, Pager, useCursorStack } from '../components';
import { navigate, useLiveEntries, useLoad } from '../hooks';
import {
  RESOURCE_TYPES,
  TYPE_RESOURCES,
  TYPE_TOOLS,
  type ResourceTypesData,
  type TypeResourcesData,
  type TypeSummary,
  type TypeToolsData,
} from '../operations';
import { href } from '../route';
import { layoutTypes, reachable } from '../type-layout';

/** At most this many types are drawn (100 a request). */
const MAX_TYPES = 2000;
const LIST_PAGE = 20;

async function allTypes(signal: AbortSignal): Promise<{ types: TypeSummary[]; total: number }> {
  const types: TypeSummary[] = [];
  let after: string | null = null;
  let total: number;
  do {
    const page: ResourceTypesData = await request<ResourceTypesData>(RESOURCE_TYPES, { after }, { signal });
    types.push(...page.resourceTypes.edges.map((e) => e.node));
    total = page.resourceTypes.totalCount;
    after = page.resourceTypes.pageInfo.hasNextPage ? page.resourceTypes.pageInfo.endCursor : null;
  } while (after && types.length < MAX_TYPES);
  return { types, total };
}

export function TypesView({ selected }: { selected: string | null }) {
  const graph = useLoad('types', allTypes);
  const [generation, setGeneration] = useState(0);
  const { reload } = graph;
  useLiveEntries((entries) => {
    if (entries.some((e) => e.kind === 'RESOURCE_TYPE')) reload();
    if (entries.some((e) => e.kind !== 'RESOURCE_TYPE')) setGeneration((g) => g + 1);
  });

  return (
    <section className={`types-view${selected ? ' with-panel' : ''}`} aria-labelledby="types-title">
      <h1 id="types-title" className="view-title">
        Resource types
      </h1>
      <p className="hint">
        A line joins a type (below) to a parent (above): a resource of the lower type fills a slot of the upper one.
        Select a type to see what fills it and which tools ask for it.
      </p>
      {graph.error && <ErrorNotice>{graph.error}</ErrorNotice>}
      {!graph.data && !graph.error && <Loading what="the resource types" />}
      {graph.data && graph.data.types.length === 0 && <p className="notice">No resource type is registered.</p>}
      {graph.data && graph.data.types.length > 0 && (
        <>
          {graph.data.total > graph.data.types.length && (
            <p className="notice">
              Showing the first {graph.data.types.length} of {graph.data.total} types.
            </p>
          )}
          <TypeGraph types={graph.data.types} selected={selected} />
        </>
      )}
      {selected && graph.data && (
        <TypePanel
          key={selected}
          name={selected}
          summary={graph.data.types.find((t) => t.name === selected) ?? null}
          types={graph.data.types}
          generation={generation}
        />
      )}
    </section>
  );
}

function TypeGraph({ types, selected }: { types: readonly TypeSummary[]; selected: string | null }) {
  const layout = useMemo(
    () => layoutTypes(types.map((t) => ({ name: t.name, parents: t.parentTypes.map((p) => p.name) }))),
    [types],
  );
  const related = useMemo(() => {
    if (!selected) return { up: new Set<string>(), down: new Set<string>() };
    const parents = new Map(layout.nodes.map((n) => [n.name, n.parents]));
    const children = new Map<string, string[]>(layout.nodes.map((n) => [n.name, []]));
    for (const n of layout.nodes) for (const p of n.parents) children.get(p)?.push(n.name);
    return {
      up: reachable(selected, (n) => parents.get(n) ?? []),
      down: reachable(selected, (n) => children.get(n) ?? []),
    };
  }, [layout, selected]);
  const select = useCallback((name: string) => navigate({ view: 'types', type: name }), []);
  const onKey = (name: string) => (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      select(name);
    }
  };
  const subtypes = (name: string) => layout.nodes.filter((n) => n.parents.includes(name)).length;

  return (
    <div className="graph-scroll">
      <svg
        className="type-graph"
        width={layout.width}
        height={layout.height}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        role="group"
        aria-label={`Resource type hierarchy: ${layout.nodes.length} types, parents above their sub-types`}
      >
        <g className="edges" aria-hidden="true">
          {layout.edges.map((e) => {
            // Lit: the lines from the selected type up to its ancestors and down to its descendants.
            const lit =
              (related.up.has(e.parent) && (e.child === selected || related.up.has(e.child))) ||
              (related.down.has(e.child) && (e.parent === selected || related.down.has(e.parent)));
            return <path key={`${e.child} ${e.parent}`} d={e.path} className={lit ? 'lit' : undefined} />;
          })}
        </g>
        <g className="nodes">
          {layout.nodes.map((n) => {
            const state =
              n.name === selected
                ? 'selected'
                : related.up.has(n.name)
                  ? 'ancestor'
                  : related.down.has(n.name)
                    ? 'descendant'
                    : '';
            const count = subtypes(n.name);
            return (
              <g
                key={n.name}
                className={`type-node ${state}`}
                transform={`translate(${n.x} ${n.y})`}
                role="button"
                tabIndex={0}
                data-type={n.name}
                data-depth={n.depth}
                aria-pressed={n.name === selected}
                aria-label={`type ${n.name}: ${n.parents.length === 0 ? 'no parent' : `parents ${n.parents.join(', ')}`}; ${count} sub-type${count === 1 ? '' : 's'}`}
                onClick={() => select(n.name)}
                onKeyDown={onKey(n.name)}
              >
                <title>{types.find((t) => t.name === n.name)?.description ?? n.name}</title>
                <rect width={n.width} height={n.height} rx={6} />
                <text x={n.width / 2} y={n.height / 2} dominantBaseline="central" textAnchor="middle">
                  {n.name}
                </text>
              </g>
            );
          })}
        </g>
      </svg>
    </div>
  );
}

function TypePanel(props: {
  name: string;
  summary: TypeSummary | null;
  types: readonly TypeSummary[];
  generation: number;
}) {
  const { name, summary, types, generation } = props;
  const resourcePages = useCursorStack(name);
  const toolPages = useCursorStack(name);
  const resources = useLoad(`${name} ${resourcePages.after ?? ''}`, (signal) =>
    request<TypeResourcesData>(TYPE_RESOURCES, { ref: name, first: LIST_PAGE, after: resourcePages.after }, { signal }),
  );
  const tools = useLoad(`${name} ${toolPages.after ?? ''}`, (signal) =>
    request<TypeToolsData>(TYPE_TOOLS, { type: name, first: LIST_PAGE, after: toolPages.after }, { signal }),
  );
  const reloadResources = resources.reload;
  const reloadTools = tools.reload;
  useEffect(() => {
    if (generation === 0) return;
    reloadResources();
    reloadTools();
  }, [generation, reloadResources, reloadTools]);

  // A slot asks for this type when its type is this one or a sub-type of it (the filter includes sub-types).
  const fitting = useMemo(() => {
    const children = new Map<string, string[]>(types.map((t) => [t.name, []]));
    for (const t of types) for (const p of t.parentTypes) children.get(p.name)?.push(t.name);
    return new Set([name, ...reachable(name, (n) => children.get(n) ?? [])]);
  }, [types, name]);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) navigate({ view: 'types', type: null });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  if (!summary)
    return (
      <aside className="panel" aria-label={`type ${name}`}>
        <ErrorNotice>No resource type named {name} is registered.</ErrorNotice>
      </aside>
    );
  const compatible = resources.data?.resourceType?.compatibleResources;
  const asking = tools.data?.tools;
  return (
    <aside className="panel type-panel" aria-labelledby="type-panel-title">
      <header className="panel-header">
        <h2 id="type-panel-title">{name}</h2>
        <a className="close" href="#/types" aria-label="Close the type panel">
          ×
        </a>
      </header>
      {summary.description && <p>{summary.description}</p>}
      <dl className="facts">
        <dt>Parents</dt>
        <dd>
          {summary.parentTypes.length === 0 ? 'none' : <TypeLinks names={summary.parentTypes.map((p) => p.name)} />}
        </dd>
        <dt>Sub-types</dt>
        <dd>
          <TypeLinks names={types.filter((t) => t.parentTypes.some((p) => p.name === name)).map((t) => t.name)} />
        </dd>
      </dl>

      <h3>Resources that fill a {name} slot</h3>
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
                  <a href={href.resource(node.name)}>{node.name}</a>{' '}
                  {node.type.name !== name && <span className="muted">({node.type.name})</span>}
                </li>
              ))}
            </ul>
          )}
          {(compatible.pageInfo.hasNextPage || resourcePages.depth > 0) && (
            <Pager
              label="resources"
              from={resourcePages.depth * LIST_PAGE}
              count={compatible.edges.length}
              total={compatible.totalCount}
              hasPrevious={resourcePages.depth > 0}
              hasNext={compatible.pageInfo.hasNextPage}
              onPrevious={resourcePages.previous}
              onNext={() => resourcePages.next(compatible.pageInfo.endCursor)}
            />
          )}
        </>
      )}

      <h3>Tools whose slots ask for {name}</h3>
      {tools.error && <ErrorNotice>{tools.error}</ErrorNotice>}
      {!asking && !tools.error && <Loading what="tools" />}
      {asking && (
        <>
          {asking.edges.length === 0 ? (
            <p className="muted">None.</p>
          ) : (
            <ul className="plain-list asking-tools">
              {asking.edges.map(({ node }) => (
                <li key={node.name}>
                  <strong>{node.name}</strong>:{' '}
                  {node.resourceSlots
                    .filter((s) => fitting.has(s.resourceType.name))
                    .map((s) => `${s.name} (${s.resourceType.name}, ${s.binding.toLowerCase()})`)
                    .join('; ')}
                </li>
              ))}
            </ul>
          )}
          {(asking.pageInfo.hasNextPage || toolPages.depth > 0) && (
            <Pager
              label="tools"
              from={toolPages.depth * LIST_PAGE}
              count={asking.edges.length}
              total={asking.totalCount}
              hasPrevious={toolPages.depth > 0}
              hasNext={asking.pageInfo.hasNextPage}
              onPrevious={toolPages.previous}
              onNext={() => toolPages.next(asking.pageInfo.endCursor)}
            />
          )}
        </>
      )}
    </aside>
  );
}

function TypeLinks({ names }: { names: readonly string[] }) {
  if (names.length === 0) return <>none</>;
  return (
    <>
      {names.map((n, i) => (
        <span key={n}>
          {i > 0 && ', '}
          <a href={href.type(n)}>{n}</a>
        </span>
      ))}
    </>
  );
}
