/**
 * One resource: its type chain (what slots it can fill), the projects that
 * link it (with their aliases), the tools that bind it statically, and its
 * recent history. With an admin token: Unlink on each link, and Delete; both
 * first run as a dry run and show their binding impact, and change nothing
 * until confirmed.
 */
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { request, RequestError } from '../api';
import { ActionDialog, ErrorNotice, Loading, type Preview } from '../components';
import { useAccess, useLiveEntries, useLoad } from '../hooks';
import {
  DELETE_RESOURCE,
  RESOURCE,
  UNLINK_RESOURCE,
  type DeleteResourceData,
  type ResourceData,
  type ResourceDetail,
  type UnlinkData,
} from '../operations';
import { formatRoute, href } from '../route';
import { ChangeLog } from './history';

interface UsedBy {
  readonly kind: string;
  readonly name: string;
  readonly detail?: string;
}

type Action =
  | { readonly kind: 'unlink'; readonly resource: ResourceDetail; readonly project: string }
  | { readonly kind: 'delete'; readonly resource: ResourceDetail };

export function ResourceView({ name }: { name: string }) {
  const loaded = useLoad(name, (signal) => request<ResourceData>(RESOURCE, { ref: name }, { signal }));
  const { reload } = loaded;
  useLiveEntries(() => reload());
  const resource = loaded.data?.resource ?? null;

  // The dialog lives here, not with the details: it stays open to say what happened after a delete.
  const [action, setAction] = useState<Action | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const start = useCallback((next: Action, from: HTMLElement) => {
    opener.current = from;
    setAction(next);
  }, []);
  const close = useCallback(() => {
    setAction(null);
    // Back to the button that opened it, when it is still there; else to the page.
    if (opener.current?.isConnected) opener.current.focus();
    else document.getElementById('main')?.focus();
  }, []);

  return (
    <section className="resource-view" aria-labelledby="resource-title">
      <p className="breadcrumb">
        <a href={formatRoute({ view: 'resources', q: '' })}>Resources</a> /
      </p>
      <h1 id="resource-title" className="view-title">
        {name}
      </h1>
      {loaded.error && <ErrorNotice>{loaded.error}</ErrorNotice>}
      {loaded.loading && !loaded.data && !loaded.error && <Loading what="the resource" />}
      {loaded.data && !resource && (
        <p className="notice">
          No resource named {name} is registered now. If it was deleted or renamed, its history is below.
        </p>
      )}
      {resource && <ResourceDetails resource={resource} onAction={start} />}
      <h2>Recent history</h2>
      <ChangeLog filter={{ ref: resource?.id ?? name }} size={10} paged={false} title={`History of ${name}`} />
      <p>
        <a href={href.history(resource?.id ?? name)}>The whole history of {name} →</a>
      </p>
      {action?.kind === 'unlink' && (
        <UnlinkDialog resource={action.resource} project={action.project} onClose={close} />
      )}
      {action?.kind === 'delete' && <DeleteDialog resource={action.resource} onClose={close} />}
    </section>
  );
}

function ResourceDetails(props: { resource: ResourceDetail; onAction: (action: Action, from: HTMLElement) => void }) {
  const { resource, onAction } = props;
  const { canWrite } = useAccess();
  const chain = [resource.type.name, ...resource.type.ancestors.map((a) => a.name)];
  const links = resource.usedBy.links;
  const statics = resource.usedBy.staticBindings;

  const open = (action: Action) => (event: { currentTarget: HTMLElement }) => onAction(action, event.currentTarget);

  return (
    <>
      {resource.description && <p className="description">{resource.description}</p>}
      <dl className="facts">
        <dt>Type</dt>
        <dd>
          <a href={href.type(resource.type.name)}>{resource.type.name}</a>
        </dd>
        <dt>Fills slots of</dt>
        <dd className="type-chain">
          {chain.map((t, i) => (
            <span key={t}>
              {i > 0 && ' → '}
              <a href={href.type(t)}>{t}</a>
            </span>
          ))}
        </dd>
        <dt>Short name</dt>
        <dd>{resource.shortName}</dd>
        <dt>Registered</dt>
        <dd>{new Date(resource.createdAt).toLocaleString()}</dd>
        <dt>Last changed</dt>
        <dd>{new Date(resource.updatedAt).toLocaleString()}</dd>
      </dl>

      <h2>Projects that link it</h2>
      {links.length === 0 ? (
        <p className="muted">No project links it.</p>
      ) : (
        <table className="data links">
          <thead>
            <tr>
              <th scope="col">Project</th>
              <th scope="col">Alias</th>
              {canWrite && <th scope="col">Action</th>}
            </tr>
          </thead>
          <tbody>
            {links.map((l) => (
              <tr key={l.project.id}>
                <td>
                  <a href={formatRoute({ view: 'matrix', project: l.project.name, links: '', tool: '', slotType: '' })}>
                    {l.project.name}
                  </a>
                </td>
                <td>{l.alias ?? <span className="muted">—</span>}</td>
                {canWrite && (
                  <td>
                    <button
                      type="button"
                      className="danger small"
                      onClick={open({ kind: 'unlink', resource, project: l.project.name })}
                      aria-label={`Unlink ${resource.name} from ${l.project.name}`}
                    >
                      Unlink…
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h2>Tools that bind it statically</h2>
      {statics.length === 0 ? (
        <p className="muted">No tool binds it statically.</p>
      ) : (
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
                <td>
                  <a href={formatRoute({ view: 'matrix', project: '', links: '', tool: s.tool.name, slotType: '' })}>
                    {s.tool.name}
                  </a>
                </td>
                <td>{s.slotName}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {canWrite && (
        <div className="danger-zone">
          <button type="button" className="danger" onClick={open({ kind: 'delete', resource })}>
            Delete {resource.name}…
          </button>
          <span className="muted">A dry run shows what it would do first.</span>
        </div>
      )}
    </>
  );
}

function UnlinkDialog(props: { resource: ResourceDetail; project: string; onClose: () => void }) {
  const { resource, project, onClose } = props;
  const run = useCallback(
    (dryRun: boolean) =>
      request<UnlinkData>(UNLINK_RESOURCE, { project, resource: resource.id, dryRun }).then((d) => d.unlinkResource),
    [project, resource.id],
  );
  const preview = useCallback(
    async (): Promise<Preview> => ({
      kind: 'ready',
      impact: (await run(true)).impact,
      confirm: `Unlink from ${project}`,
    }),
    [run, project],
  );
  const apply = useCallback(() => run(false), [run]);
  return (
    <ActionDialog
      title={`Unlink ${resource.name} from ${project}?`}
      preview={preview}
      apply={apply}
      done={`Unlinked ${resource.name} from ${project}`}
      onClose={onClose}
    />
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
 * after the user confirms. Refused because a tool binds it statically, it
 * cannot be deleted at all, and the dialog says which tools to change.
 */
function DeleteDialog(props: { resource: ResourceDetail; onClose: () => void }) {
  const { resource, onClose } = props;
  const force = useRef(false);
  const run = useCallback(
    (dryRun: boolean, withForce: boolean) =>
      request<DeleteResourceData>(DELETE_RESOURCE, { ref: resource.id, force: withForce, dryRun }).then(
        (d) => d.deleteResource,
      ),
    [resource.id],
  );
  const preview = useCallback(async (): Promise<Preview> => {
    try {
      const plain = await run(true, false);
      force.current = false;
      return { kind: 'ready', impact: plain.impact, confirm: `Delete ${resource.name}` };
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
            Projects link it (
            {list(projects.map((p) => `${p.name}${p.detail && p.detail !== 'linked' ? ` (${p.detail})` : ''}`))}):
            deleting it also removes {projects.length === 1 ? 'that link' : `those ${projects.length} links`}.
          </>
        ),
        confirm: `Unlink from ${projects.length} project${projects.length === 1 ? '' : 's'} and delete`,
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
