/**
 * The change log, newest first, in pages of about 25 entries that never split
 * a version (see change-log.ts for how newest-first pages are found in a log
 * the API lists oldest first). Filterable by kind, actor and the thing it is
 * about (any name it ever had, or its id). Each entry shows its impact count;
 * expanding it fetches its binding changes.
 *
 * Live: on the newest page, new entries appear as they commit; on an older
 * page, a notice counts them and offers to go to the newest.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { describeError, isAbort, request } from '../api';
import type { KnownCounts, LogPage, PagedEntry } from '../change-log';
import { ErrorNotice, ImpactList, Link, Loading, PageTitle, Time } from '../components';
import { navigate, useLiveEntries, useLoad } from '../hooks';
import { fetchLogPage } from '../log-client';
import {
  CHANGE_DETAIL,
  CHANGE_KINDS,
  type ChangeDetailQuery,
  type ChangeDetailQueryVariables,
  type ChangeEntry,
  type ChangeFilter,
  type ChangeKind,
  type LiveEntry,
} from '../operations';
import { to, type Route } from '../route';
import { plural } from '../words';

const KIND_LABEL: Record<ChangeKind, string> = {
  TOOL: 'tool',
  RESOURCE: 'resource',
  RESOURCE_TYPE: 'type',
  PROJECT: 'project',
  LINK: 'link',
  GRANT: 'grant',
  API_TOKEN: 'API token',
};

function matches(entry: LiveEntry, filter: ChangeFilter): boolean {
  if (filter.kind && entry.kind !== filter.kind) return false;
  if (filter.actor && entry.actor !== filter.actor) return false;
  // A ref can name any name the entity ever had, which the entry alone cannot tell: count it.
  return true;
}

/** The page of an entry's entity (its page by id, which follows renames). */
function entityRoute(entry: ChangeEntry): Route | null {
  if (entry.operation.startsWith('delete') || entry.operation === 'unregisterTool') return null;
  switch (entry.kind) {
    case 'RESOURCE':
      return to.resource(entry.entityName);
    case 'RESOURCE_TYPE':
      return to.type(entry.entityName);
    case 'TOOL':
      return to.tool(entry.entityName);
    case 'PROJECT':
    case 'LINK':
      return to.project(entry.entityName);
    case 'GRANT':
    case 'API_TOKEN':
      // Access has no view of its own in the dashboard (yet).
      return null;
  }
}

/**
 * A newest-first change log for a filter: `size` entries a page, with Newer
 * and Older when `paged`. `generation` changes when the registry changed.
 */
export function ChangeLog(props: { filter: ChangeFilter; size: number; paged: boolean; title: string }) {
  const { filter, size, paged, title } = props;
  const filterKey = JSON.stringify(filter);
  // The pages above the current one, by their upper bound; the last is the current page's (null: newest).
  const [stack, setStack] = useState<{ key: string; his: (number | null)[] }>({ key: filterKey, his: [null] });
  if (stack.key !== filterKey) setStack({ key: filterKey, his: [null] });
  const his = stack.key === filterKey ? stack.his : [null];
  const hi = his[his.length - 1];
  const known = useRef<{ key: string; counts: KnownCounts }>({ key: filterKey, counts: new Map() });
  if (known.current.key !== filterKey) known.current = { key: filterKey, counts: new Map() };
  const [newer, setNewer] = useState(0);

  const page = useLoad(`${filterKey} ${hi ?? 'newest'}`, (signal) =>
    fetchLogPage(filter, size, hi, known.current.counts, signal),
  );
  const { reload } = page;
  useLiveEntries((entries) => {
    const relevant = entries.filter((e) => matches(e, filter));
    if (relevant.length === 0) return;
    // New entries raise every count: the next search counts afresh.
    known.current = { key: filterKey, counts: new Map() };
    if (hi === null) {
      reload();
    } else {
      setNewer((n) => n + relevant.length);
    }
  });
  useEffect(() => setNewer(0), [filterKey]);

  const shown: LogPage | null = page.data;
  const goNewest = () => {
    setNewer(0);
    if (hi === null) return;
    known.current = { key: filterKey, counts: new Map() };
    setStack({ key: filterKey, his: [null] });
  };

  return (
    <section className="change-log" aria-label={title}>
      {newer > 0 && (
        <p className="notice" role="status">
          {plural(newer, 'newer entry')} since this page was read.{' '}
          <button type="button" onClick={goNewest}>
            Show the newest
          </button>
        </p>
      )}
      {page.error && <ErrorNotice>{page.error}</ErrorNotice>}
      {!shown && !page.error && <Loading what="the change log" />}
      {shown && shown.entries.length === 0 && <p className="muted">No change matches.</p>}
      {shown && shown.entries.length > 0 && (
        <table className="data changes" aria-busy={page.loading}>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Kind</th>
              <th scope="col">What</th>
              <th scope="col">Impact</th>
            </tr>
          </thead>
          {shown.entries.map((e) => (
            <ChangeRow key={e.entry.id} paged={e} />
          ))}
        </table>
      )}
      {shown?.truncated && (
        <p className="note">These versions hold more entries than are shown (the first 500 are read).</p>
      )}
      {paged && shown && (
        <div className="pager" role="group" aria-label="change log pages">
          <button type="button" disabled={his.length === 1} onClick={goNewest}>
            « Newest
          </button>
          <button
            type="button"
            disabled={his.length === 1}
            onClick={() => setStack({ key: filterKey, his: his.slice(0, -1) })}
          >
            ‹ Newer
          </button>
          <span className="pager-range">
            {shown.entries.length === 0
              ? 'no entries'
              : `versions ${shown.entries[shown.entries.length - 1].entry.version}–${shown.entries[0].entry.version}`}
          </span>
          <button
            type="button"
            disabled={shown.bounds.lo === 0}
            onClick={() => setStack({ key: filterKey, his: [...his, shown.bounds.lo] })}
          >
            Older ›
          </button>
        </div>
      )}
    </section>
  );
}

function ChangeRow({ paged }: { paged: PagedEntry }) {
  const { entry } = paged;
  const [open, setOpen] = useState(false);
  const [detail, setDetail] = useState<{ changes: ChangeDetailQuery | null; error: string | null } | null>(null);
  useEffect(() => {
    if (!open || detail) return;
    const controller = new AbortController();
    request<ChangeDetailQuery, ChangeDetailQueryVariables>(
      CHANGE_DETAIL,
      { after: paged.after, filter: paged.filter },
      { signal: controller.signal },
    ).then(
      (changes) => setDetail({ changes, error: null }),
      (error: unknown) => {
        if (!isAbort(error)) setDetail({ changes: null, error: describeError(error) });
      },
    );
    return () => controller.abort();
  }, [open, detail, paged]);

  const route = entityRoute(entry);
  const found = detail?.changes?.changes.edges[0]?.node;
  const detailId = `change-${entry.id}`;
  return (
    <tbody className="change">
      <tr>
        <td className="num">{entry.version}</td>
        <td>
          <Time at={entry.at} stacked />
        </td>
        <td>{entry.actor}</td>
        <td>
          <span className={`chip kind-${entry.kind}`}>{KIND_LABEL[entry.kind]}</span>
        </td>
        <td>
          {entry.summary}
          {route && (
            <>
              {' '}
              <Link to={route} className="entity-link" label={`Go to ${entry.entityName}`}>
                ↗
              </Link>
            </>
          )}
        </td>
        <td className="num">
          {entry.impactCount === 0 && entry.impactComplete ? (
            <span className="muted">0</span>
          ) : entry.impactCount === 0 ? (
            <span className="muted" title="The server stopped at its limit of 20,000 tool × project pairs">
              0 of the pairs examined (incomplete)
            </span>
          ) : (
            <button
              type="button"
              className="link"
              aria-expanded={open}
              aria-controls={detailId}
              onClick={() => setOpen(!open)}
            >
              {open ? '▾' : '▸'} {entry.impactComplete ? '' : 'at least '}
              {plural(entry.impactCount, 'binding change')}
            </button>
          )}
        </td>
      </tr>
      {open && (
        <tr className="change-detail" id={detailId}>
          <td colSpan={6}>
            {!detail && <Loading what="its binding changes" />}
            {detail?.error && <ErrorNotice>{detail.error}</ErrorNotice>}
            {detail?.changes && !found && <ErrorNotice>The entry is no longer in the log.</ErrorNotice>}
            {found && found.id === entry.id && (
              <ImpactList
                impact={{
                  totalCount: entry.impactCount,
                  truncated: found.bindingChanges.length < entry.impactCount,
                  complete: entry.impactComplete,
                  changes: found.bindingChanges,
                }}
              />
            )}
          </td>
        </tr>
      )}
    </tbody>
  );
}

/** The history view: the whole log, filtered by kind, actor and ref, paged newest first. */
export function HistoryView(props: { kind: ChangeKind | null; actor: string; ref: string }) {
  const [actor, setActor] = useState(props.actor);
  const [ref, setRef] = useState(props.ref);
  useEffect(() => setActor(props.actor), [props.actor]);
  useEffect(() => setRef(props.ref), [props.ref]);
  useEffect(() => {
    const timer = setTimeout(() => {
      if (actor.trim() !== props.actor || ref.trim() !== props.ref)
        navigate({ view: 'history', kind: props.kind, actor: actor.trim(), ref: ref.trim() }, { replace: true });
    }, 400);
    return () => clearTimeout(timer);
  }, [actor, ref, props.kind, props.actor, props.ref]);

  const filter = useMemo<ChangeFilter>(
    () => ({
      ...(props.kind ? { kind: props.kind } : {}),
      ...(props.actor ? { actor: props.actor } : {}),
      ...(props.ref ? { ref: props.ref } : {}),
    }),
    [props.kind, props.actor, props.ref],
  );

  return (
    <section className="history-view" aria-labelledby="history-title">
      <PageTitle id="history-title">History</PageTitle>
      <form className="filters" role="search" aria-label="Filter the change log" onSubmit={(e) => e.preventDefault()}>
        <label className="field">
          <span>Kind</span>
          <select
            value={props.kind ?? ''}
            onChange={(e) =>
              navigate({
                view: 'history',
                kind: (e.target.value || null) as ChangeKind | null,
                actor: props.actor,
                ref: props.ref,
              })
            }
          >
            <option value="">any</option>
            {CHANGE_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABEL[k]}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Actor</span>
          <input
            type="search"
            value={actor}
            placeholder="e.g. token:admin"
            autoComplete="off"
            onChange={(e) => setActor(e.target.value)}
          />
        </label>
        <label className="field">
          <span>About (any name it had, or its id)</span>
          <input
            type="search"
            value={ref}
            placeholder="e.g. acme/app-repo"
            autoComplete="off"
            onChange={(e) => setRef(e.target.value)}
          />
        </label>
      </form>
      <ChangeLog filter={filter} size={25} paged title="Change log, newest first" />
    </section>
  );
}
