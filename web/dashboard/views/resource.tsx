/**
 * One resource: its type chain (what slots it can fill), the projects that
 * link it (with their aliases), the tools that bind it statically, and its
 * recent history. Its changes: rename, edit its description, set or clear an
 * alias, unlink, delete; each first runs as a dry run and shows its binding
 * impact, and changes nothing until confirmed.
 */
import { useCallback, useRef, type ReactNode } from 'react';
import { request, RequestError } from '../api';
import {
  ActionButton,
  ActionDialog,
  ErrorNotice,
  Link,
  Loading,
  PageTitle,
  ProjectLink,
  Time,
  ToolLink,
  TypeLink,
  useDialog,
  type Preview,
} from '../components';
import { AliasDialog, EditsNote, ThingActions, UnlinkDialog } from '../edits';
import { navigate, useCan, useLiveEntries, useLoad } from '../hooks';
import {
  DELETE_RESOURCE,
  RESOURCE,
  type DeleteResourceMutation,
  type DeleteResourceMutationVariables,
  type ResourceQuery,
  type ResourceQueryVariables,
} from '../operations';
import { to } from '../route';
import { article, listOf, plural } from '../words';
import { ChangeLog } from './history';

type ResourceDetail = NonNullable<ResourceQuery['resource']>;

interface UsedBy {
  readonly kind: string;
  readonly name: string;
  readonly detail?: string;
}

export function ResourceView({ name }: { name: string }) {
  const loaded = useLoad(name, (signal) =>
    request<ResourceQuery, ResourceQueryVariables>(RESOURCE, { ref: name }, { signal }),
  );
  const { reload } = loaded;
  useLiveEntries(() => reload());
  const resource = loaded.data?.resource ?? null;

  return (
    <section className="thing-view resource-view" aria-labelledby="resource-title">
      <p className="breadcrumb">
        <Link to={{ view: 'resources', q: '' }}>Resources</Link> /
      </p>
      <PageTitle
        kind="Resource"
        id="resource-title"
        actions={
          resource && (
            <ThingActions
              thing={{ kind: 'resource', id: resource.id, name: resource.name, description: resource.description }}
              onRenamed={(next) => navigate(to.resource(next), { replace: true })}
            />
          )
        }
      >
        {name}
      </PageTitle>
      {resource && <EditsNote kind="resource" name={resource.name} />}
      {loaded.error && <ErrorNotice>{loaded.error}</ErrorNotice>}
      {loaded.loading && !loaded.data && !loaded.error && <Loading what="the resource" />}
      {loaded.data && !resource && (
        <p className="notice">
          No resource named {name} is registered now. If it was deleted or renamed, its history is below.
        </p>
      )}
      {resource && <ResourceDetails resource={resource} />}
      <h2>Recent history</h2>
      <ChangeLog filter={{ ref: resource?.id ?? name }} size={10} paged={false} title={`History of ${name}`} />
      <p>
        <Link to={to.history(resource?.id ?? name)}>The whole history of {name} →</Link>
      </p>
    </section>
  );
}

/** A project that links the resource, with its alias, and the changes to the link (the project's to allow). */
function LinkRow({ resource, project, alias }: { resource: string; project: string; alias: string | null }) {
  const open = useDialog();
  const canUpdateLink = useCan('updateLink', project);
  const canUnlink = useCan('unlinkResource', project);
  return (
    <tr>
      <th scope="row">
        <ProjectLink name={project} />
      </th>
      <td>{alias ? <code>{alias}</code> : <span className="muted">none</span>}</td>
      <td className="row-actions">
        <ActionButton
          className="small"
          permission={canUpdateLink}
          context={`of ${resource} in ${project}`}
          onClick={(from) =>
            open(from, (close) => <AliasDialog project={project} resource={resource} current={alias} onClose={close} />)
          }
        >
          {alias ? 'Change alias…' : 'Set alias…'}
        </ActionButton>
        <ActionButton
          className="danger small"
          permission={canUnlink}
          context={`${resource} from ${project}`}
          onClick={(from) =>
            open(from, (close) => <UnlinkDialog project={project} resource={resource} onClose={close} />)
          }
        >
          Unlink…
        </ActionButton>
      </td>
    </tr>
  );
}

function ResourceDetails({ resource }: { resource: ResourceDetail }) {
  const open = useDialog();
  const canDelete = useCan('deleteResource', resource.name);
  const chain = [resource.type.name, ...resource.type.ancestors.map((a) => a.name)];
  const links = resource.usedBy.links;
  const statics = resource.usedBy.staticBindings;

  return (
    <>
      {resource.description ? (
        <p className="description">{resource.description}</p>
      ) : (
        <p className="muted">No description.</p>
      )}
      <dl className="facts">
        <dt>Type</dt>
        <dd>
          {article(resource.type.name)} <TypeLink name={resource.type.name} />
        </dd>
        <dt>Fills slots of</dt>
        <dd className="type-chain">
          {chain.map((t, i) => (
            <span key={t}>
              {i > 0 && ' → '}
              <TypeLink name={t} />
            </span>
          ))}
        </dd>
        <dt>Short name</dt>
        <dd>
          <code>{resource.shortName}</code> <span className="muted">(a contextual slot of this name prefers it)</span>
        </dd>
        <dt>Registered</dt>
        <dd>
          <Time at={resource.createdAt} />
        </dd>
        <dt>Last changed</dt>
        <dd>
          <Time at={resource.updatedAt} />
        </dd>
      </dl>

      <h2>
        {links.length === 0
          ? 'No project links it'
          : `${plural(links.length, 'project')} link${links.length === 1 ? 's' : ''} it`}
      </h2>
      {links.length > 0 && (
        <table className="data links">
          <thead>
            <tr>
              <th scope="col">Project</th>
              <th scope="col">Alias</th>
              <th scope="col">
                <span className="visually-hidden">Changes</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {links.map((l) => (
              <LinkRow key={l.project.id} resource={resource.name} project={l.project.name} alias={l.alias} />
            ))}
          </tbody>
        </table>
      )}

      <h2>
        {statics.length === 0
          ? 'No tool binds it statically'
          : `${plural(statics.length, 'tool slot')} bind${statics.length === 1 ? 's' : ''} it statically`}
      </h2>
      {statics.length > 0 && (
        <table className="data statics">
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Slot</th>
            </tr>
          </thead>
          <tbody>
            {statics.map((s) => (
              <tr key={`${s.tool.id} ${s.slotName}`}>
                <th scope="row">
                  <ToolLink name={s.tool.name} />
                </th>
                <td>
                  <code>{s.slotName}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <div className="danger-zone">
        <ActionButton
          className="danger"
          permission={canDelete}
          onClick={(from) => open(from, (close) => <DeleteDialog resource={resource} onClose={close} />)}
        >
          Delete {resource.name}…
        </ActionButton>
        {canDelete.allowed ? (
          <span className="muted">A dry run shows what it would do first.</span>
        ) : (
          // The button says it to those who hear the page; this says it to those who see it.
          <span className="muted delete-refused" aria-hidden="true">
            {canDelete.reason}
          </span>
        )}
      </div>
    </>
  );
}

function list(items: readonly ReactNode[]): ReactNode {
  return items.map((item, i) => (
    <span key={i}>
      {i > 0 && ', '}
      {item}
    </span>
  ));
}

/**
 * Delete: a dry run without force first. Refused because projects link it
 * (CONFLICT), the preview becomes a dry run with force, which shows the links
 * it would remove and their impact; the real delete uses force only then,
 * after the person confirms. Refused because a tool binds it statically, it
 * cannot be deleted at all, and the dialog says which tools to change.
 */
function DeleteDialog(props: { resource: ResourceDetail; onClose: () => void }) {
  const { resource, onClose } = props;
  const force = useRef(false);
  const run = useCallback(
    (dryRun: boolean, withForce: boolean) =>
      request<DeleteResourceMutation, DeleteResourceMutationVariables>(DELETE_RESOURCE, {
        ref: resource.id,
        force: withForce,
        dryRun,
      }).then((d) => d.deleteResource),
    [resource.id],
  );
  const preview = useCallback(async (): Promise<Preview> => {
    try {
      const plain = await run(true, false);
      force.current = false;
      return { kind: 'ready', impact: plain.impact, confirm: `Delete ${resource.name}`, danger: true };
    } catch (error) {
      if (!(error instanceof RequestError) || error.code !== 'CONFLICT') throw error;
      const usedBy = (error.extensions.usedBy ?? []) as UsedBy[];
      const tools = usedBy.filter((u) => u.kind === 'TOOL');
      if (tools.length > 0)
        return {
          kind: 'blocked',
          reason: (
            <>
              {resource.name} cannot be deleted: tools bind it statically (
              {list(tools.map((t) => `${t.name}${t.detail ? `, ${t.detail}` : ''}`))}). Re-register or unregister those
              tools first.
            </>
          ),
        };
      const forced = await run(true, true);
      force.current = true;
      const projects = usedBy.filter((u) => u.kind === 'PROJECT');
      return {
        kind: 'ready',
        impact: forced.impact,
        note: (
          <>
            {plural(projects.length, 'project')} link{projects.length === 1 ? 's' : ''} it (
            {listOf(projects.map((p) => `${p.name}${p.detail && p.detail !== 'linked' ? ` (${p.detail})` : ''}`))}):
            deleting it also removes {projects.length === 1 ? 'that link' : `those ${projects.length} links`}.
          </>
        ),
        confirm: `Unlink from ${plural(projects.length, 'project')} and delete`,
        danger: true,
      };
    }
  }, [run, resource.name]);
  const apply = useCallback(() => run(false, force.current), [run]);
  return (
    <ActionDialog
      title={`Delete ${resource.name}?`}
      preview={preview}
      apply={apply}
      done={`Deleted ${resource.name}`}
      onClose={onClose}
    />
  );
}
