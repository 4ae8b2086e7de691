/**
 * Projects: the list (each with how every tool stands in it, failing first),
 * and a project's page: its linked resources (link one, set or clear an
 * alias, unlink: each previewed first), the outcome of every tool in it
 * (failures first, each with its explanation), and its history.
 */
import { request } from '../api';
import {
  ActionButton,
  ErrorNotice,
  Link,
  Loading,
  PageTitle,
  ResourceLink,
  Time,
  TypeLink,
  useDialog,
} from '../components';
import { AliasDialog, EditsNote, LinkDialog, ThingActions, UnlinkDialog } from '../edits';
import { navigate, useCan, useLiveEntries, useLoad } from '../hooks';
import {
  PROJECT_CELLS,
  PROJECT_LIST,
  PROJECT_PAGE,
  type ProjectCellsQuery,
  type ProjectCellsQueryVariables,
  type ProjectListQuery,
  type ProjectListQueryVariables,
  type ProjectPageQuery,
  type ProjectPageQueryVariables,
} from '../operations';
import { to, type ListOrder } from '../route';
import { plural } from '../words';
import { ChangeLog } from './history';
import { CellList, SummaryListView, useGeneration } from './summary';

export function ProjectsView({ q, order }: { q: string; order: ListOrder }) {
  return (
    <SummaryListView
      kind="projects"
      q={q}
      order={order}
      per="tool"
      load={async (args, signal) => {
        const data = await request<ProjectListQuery, ProjectListQueryVariables>(
          PROJECT_LIST,
          { ...args, order: args.order === 'name' ? 'NAME' : 'FAILING_FIRST' },
          { signal },
        );
        const page = data.bindingSummary.projects;
        return {
          totalCount: page.totalCount,
          rows: page.nodes.map((n) => ({ ...n.project, counts: n.counts })),
          hasNextPage: page.pageInfo.hasNextPage,
          endCursor: page.pageInfo.endCursor,
        };
      }}
    />
  );
}

type Project = NonNullable<ProjectPageQuery['project']>;
export function ProjectView({ name }: { name: string }) {
  const loaded = useLoad(name, (signal) =>
    request<ProjectPageQuery, ProjectPageQueryVariables>(PROJECT_PAGE, { ref: name }, { signal }),
  );
  const generation = useGeneration();
  const { reload } = loaded;
  useLiveEntries(() => reload());
  const project = loaded.data?.project ?? null;
  const counts = loaded.data?.bindingSummary.project?.counts ?? null;

  return (
    <section className="thing-view project-view" aria-labelledby="project-title">
      <p className="breadcrumb">
        <Link to={{ view: 'projects', q: '', order: 'attention' }}>Projects</Link> /
      </p>
      <PageTitle
        kind="Project"
        id="project-title"
        actions={
          project && (
            <ThingActions
              thing={{ kind: 'project', id: project.id, name: project.name, description: project.description }}
              onRenamed={(next) => navigate(to.project(next), { replace: true })}
            />
          )
        }
      >
        {name}
      </PageTitle>
      {project && <EditsNote kind="project" name={project.name} />}
      {loaded.error && <ErrorNotice>{loaded.error}</ErrorNotice>}
      {loaded.loading && !loaded.data && !loaded.error && <Loading what="the project" />}
      {loaded.data && !project && (
        <p className="notice">
          No project named {name} exists now. If it was deleted or renamed, its history is below.
        </p>
      )}
      {project && (
        <>
          {project.description ? (
            <p className="description">{project.description}</p>
          ) : (
            <p className="muted">No description.</p>
          )}
          <dl className="facts">
            <dt>Created</dt>
            <dd>
              <Time at={project.createdAt} />
            </dd>
            <dt>Last changed</dt>
            <dd>
              <Time at={project.updatedAt} />
            </dd>
          </dl>
          <Links project={project} />
          <CellList
            of="project"
            name={project.name}
            counts={counts}
            generation={generation}
            heading={
              counts
                ? counts.failed > 0
                  ? `${counts.failed.toLocaleString('en')} of ${plural(counts.total, 'tool')} cannot run here`
                  : `All ${plural(counts.total, 'tool')} can run here`
                : 'How every tool stands here'
            }
            load={async ({ first, after }, signal) =>
              (
                await request<ProjectCellsQuery, ProjectCellsQueryVariables>(
                  PROJECT_CELLS,
                  { ref: project.id, first, after },
                  { signal },
                )
              ).bindingSummary.project?.cells ?? null
            }
          />
        </>
      )}
      <h2>Recent history</h2>
      <ChangeLog filter={{ ref: project?.id ?? name }} size={8} paged={false} title={`History of ${name}`} />
      <p>
        <Link to={to.history(project?.id ?? name)}>The whole history of {name} →</Link>
      </p>
    </section>
  );
}

/** The project's linked resources, with the changes that can be made to them. */
function Links({ project }: { project: Project }) {
  const canLink = useCan('linkResource', project.name);
  const canUpdate = useCan('updateLink', project.name);
  const canUnlink = useCan('unlinkResource', project.name);
  const open = useDialog();
  const links = project.resources;
  return (
    <section aria-labelledby="links-title">
      <div className="section-title-row">
        <h2 id="links-title">{plural(links.length, 'linked resource')}</h2>
        <ActionButton
          permission={canLink}
          onClick={(from) => open(from, (close) => <LinkDialog project={project.name} onClose={close} />)}
        >
          Link a resource…
        </ActionButton>
      </div>
      {links.length === 0 ? (
        <p className="muted">Nothing is linked: contextual slots find nothing here.</p>
      ) : (
        <table className="data links">
          <thead>
            <tr>
              <th scope="col">Resource</th>
              <th scope="col">Type</th>
              <th scope="col">Alias</th>
              <th scope="col">
                <span className="visually-hidden">Changes</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {links.map((link) => (
              <tr key={link.id}>
                <th scope="row">
                  <ResourceLink name={link.resource.name} />
                </th>
                <td>
                  <TypeLink name={link.resource.type.name} />
                </td>
                <td>{link.alias ? <code>{link.alias}</code> : <span className="muted">none</span>}</td>
                <td className="row-actions">
                  <ActionButton
                    className="small"
                    permission={canUpdate}
                    context={`of ${link.resource.name}`}
                    onClick={(from) =>
                      open(from, (close) => (
                        <AliasDialog
                          project={project.name}
                          resource={link.resource.name}
                          current={link.alias}
                          onClose={close}
                        />
                      ))
                    }
                  >
                    {link.alias ? 'Change alias…' : 'Set alias…'}
                  </ActionButton>
                  <ActionButton
                    className="small danger"
                    permission={canUnlink}
                    context={`${link.resource.name} from ${project.name}`}
                    onClick={(from) =>
                      open(from, (close) => (
                        <UnlinkDialog project={project.name} resource={link.resource.name} onClose={close} />
                      ))
                    }
                  >
                    Unlink…
                  </ActionButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
