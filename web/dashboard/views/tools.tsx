/**
 * Tools: the list (each with how it stands in every project, failing first),
 * and a tool's page: its slots, the projects where it is failing, deferred or
 * ready (failures first, each with its explanation), its history, and
 * Rename and Edit description, each previewed first.
 */
import { request } from '../api';
import { ErrorNotice, Link, Loading, PageTitle, Time, TypeLink, ResourceLink } from '../components';
import { EditsNote, ThingActions } from '../edits';
import { navigate, useLiveEntries, useLoad } from '../hooks';
import {
  TOOL_CELLS,
  TOOL_LIST,
  TOOL_PAGE,
  type ToolCellsQuery,
  type ToolCellsQueryVariables,
  type ToolListQuery,
  type ToolListQueryVariables,
  type ToolPageQuery,
  type ToolPageQueryVariables,
} from '../operations';
import { to, type ListOrder } from '../route';
import { plural } from '../words';
import { ChangeLog } from './history';
import { CellList, SummaryListView, useGeneration } from './summary';

export function ToolsView({ q, order }: { q: string; order: ListOrder }) {
  return (
    <SummaryListView
      kind="tools"
      q={q}
      order={order}
      per="project"
      load={async (args, signal) => {
        const data = await request<ToolListQuery, ToolListQueryVariables>(
          TOOL_LIST,
          { ...args, order: args.order === 'name' ? 'NAME' : 'FAILING_FIRST' },
          { signal },
        );
        const page = data.bindingSummary.tools;
        return {
          totalCount: page.totalCount,
          rows: page.nodes.map((n) => ({ ...n.tool, counts: n.counts })),
          hasNextPage: page.pageInfo.hasNextPage,
          endCursor: page.pageInfo.endCursor,
        };
      }}
    />
  );
}

const MODE = { CONTEXTUAL: 'from the project', STATIC: 'fixed', PARAMETER: 'passed when it runs' } as const;
const ACCESS = { READ_ONLY: 'read', READ_WRITE: 'read and write', WRITE_ONLY: 'write' } as const;

export function ToolView({ name }: { name: string }) {
  const loaded = useLoad(name, (signal) =>
    request<ToolPageQuery, ToolPageQueryVariables>(TOOL_PAGE, { ref: name }, { signal }),
  );
  const generation = useGeneration();
  const { reload } = loaded;
  useLiveEntries(() => reload());
  const tool = loaded.data?.tool ?? null;
  const counts = loaded.data?.bindingSummary.tool?.counts ?? null;

  return (
    <section className="thing-view tool-view" aria-labelledby="tool-title">
      <p className="breadcrumb">
        <Link to={{ view: 'tools', q: '', order: 'attention' }}>Tools</Link> /
      </p>
      <PageTitle
        kind="Tool"
        id="tool-title"
        actions={
          tool && (
            <ThingActions
              thing={{
                kind: 'tool',
                id: tool.id,
                name: tool.name,
                description: tool.description,
                slots: tool.resourceSlots,
              }}
              onRenamed={(next) => navigate(to.tool(next), { replace: true })}
            />
          )
        }
      >
        {name}
      </PageTitle>
      {tool && <EditsNote kind="tool" name={tool.name} />}
      {loaded.error && <ErrorNotice>{loaded.error}</ErrorNotice>}
      {loaded.loading && !loaded.data && !loaded.error && <Loading what="the tool" />}
      {loaded.data && !tool && (
        <p className="notice">
          No tool named {name} is registered now. If it was unregistered or renamed, its history is below.
        </p>
      )}
      {tool && (
        <>
          {tool.description ? (
            <p className="description">{tool.description}</p>
          ) : (
            <p className="muted">No description.</p>
          )}
          <dl className="facts">
            <dt>Registered</dt>
            <dd>
              <Time at={tool.createdAt} />
            </dd>
            <dt>Last changed</dt>
            <dd>
              <Time at={tool.updatedAt} />
            </dd>
          </dl>
          <h2>{plural(tool.resourceSlots.length, 'slot')}</h2>
          {tool.resourceSlots.length === 0 ? (
            <p className="muted">It needs no resource: it is ready in every project.</p>
          ) : (
            <table className="data slots">
              <thead>
                <tr>
                  <th scope="col">Slot</th>
                  <th scope="col">Needs a</th>
                  <th scope="col">Bound</th>
                  <th scope="col">Access</th>
                  <th scope="col">Required</th>
                </tr>
              </thead>
              <tbody>
                {tool.resourceSlots.map((slot) => (
                  <tr key={slot.name}>
                    <th scope="row">
                      <code>{slot.name}</code>
                    </th>
                    <td>
                      <TypeLink name={slot.resourceType.name} />
                    </td>
                    <td>
                      {MODE[slot.binding]}
                      {slot.staticResource && (
                        <>
                          : <ResourceLink name={slot.staticResource.name} />
                        </>
                      )}
                    </td>
                    <td>{ACCESS[slot.access]}</td>
                    <td>{slot.required ? 'yes' : 'no, optional'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <CellList
            of="tool"
            name={tool.name}
            counts={counts}
            generation={generation}
            heading={
              counts
                ? counts.failed > 0
                  ? `Fails in ${counts.failed.toLocaleString('en')} of ${plural(counts.total, 'project')}`
                  : `Runs in all ${plural(counts.total, 'project')}`
                : 'Where it runs'
            }
            load={async ({ first, after }, signal) =>
              (
                await request<ToolCellsQuery, ToolCellsQueryVariables>(
                  TOOL_CELLS,
                  { ref: tool.id, first, after },
                  { signal },
                )
              ).bindingSummary.tool?.cells ?? null
            }
          />
        </>
      )}
      <h2>Recent history</h2>
      <ChangeLog filter={{ ref: tool?.id ?? name }} size={8} paged={false} title={`History of ${name}`} />
      <p>
        <Link to={to.history(tool?.id ?? name)}>The whole history of {name} →</Link>
      </p>
    </section>
  );
}
