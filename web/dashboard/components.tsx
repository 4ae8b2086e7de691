/**
 * Pieces the pages share: links to things, status chips and count bars,
 * times, the impact table, pagers, notices, buttons that say why they are
 * disabled, and the dialog every change goes through (a dry run and its
 * impact first, then the change, then its change-log entry).
 */
import {
  createContext,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { describeError, request } from './api';
import { followLink, hrefOf } from './hooks';
import {
  ENTRIES_OF_VERSION,
  type BindingChangeRowFragment,
  type CellStatus,
  type CountsFragment,
  type EntriesOfVersionQuery,
  type EntriesOfVersionQueryVariables,
  type SlotStatus,
} from './operations';
import type { Permission } from './permissions';
import { to, type Route } from './route';
import { CELL_STATUS, describeTime, FAILURE_SHORT, plural, SLOT_STATUS } from './words';

// ---------------------------------------------------------------- links

/** A link to a page of the dashboard, followed within the page (Back returns). */
export function Link(props: {
  to: Route;
  className?: string;
  title?: string;
  children: ReactNode;
  label?: string;
  /** The link of the page (or section) shown now. */
  current?: boolean;
}) {
  return (
    <a
      href={hrefOf(props.to)}
      onClick={followLink(props.to)}
      className={props.className}
      title={props.title}
      aria-label={props.label}
      aria-current={props.current ? 'page' : undefined}
    >
      {props.children}
    </a>
  );
}

export const ToolLink = ({ name }: { name: string }) => <Link to={to.tool(name)}>{name}</Link>;
export const ProjectLink = ({ name }: { name: string }) => <Link to={to.project(name)}>{name}</Link>;
export const ResourceLink = ({ name }: { name: string }) => <Link to={to.resource(name)}>{name}</Link>;
export const TypeLink = ({ name }: { name: string }) => <Link to={to.type(name)}>{name}</Link>;

/** Links to several things, comma-separated ("none" when there are none). */
export function Links({ names, kind }: { names: readonly string[]; kind: 'type' | 'tool' | 'project' | 'resource' }) {
  if (names.length === 0) return <span className="muted">none</span>;
  return (
    <>
      {names.map((name, i) => (
        <span key={name}>
          {i > 0 && ', '}
          <Link to={to[kind](name)}>{name}</Link>
        </span>
      ))}
    </>
  );
}

// ---------------------------------------------------------------- statuses and counts

/** A slot status as a coloured word (the word carries the meaning; the colour repeats it). */
export function SlotStatusChip({ status }: { status: SlotStatus }) {
  return <span className={`chip slot-${status}`}>{SLOT_STATUS[status]}</span>;
}

/** A cell status as a coloured word with its mark. */
export function CellChip({ status }: { status: CellStatus }) {
  return (
    <span className={`chip cell-chip s-${status}`}>
      <span aria-hidden="true">{CELL_STATUS[status].mark}</span> {CELL_STATUS[status].label.toLowerCase()}
    </span>
  );
}

/** A slot's outcome on one side of a change: status, reason, bound resource. */
export function Outcome({ outcome }: { outcome: BindingChangeRowFragment['before'] }) {
  return (
    <span className="outcome">
      <SlotStatusChip status={outcome.status} />
      {outcome.reason && <span className="reason">{FAILURE_SHORT[outcome.reason]}</span>}
      {outcome.resourceName && <span className="resource-name">{outcome.resourceName}</span>}
    </span>
  );
}

const COUNT_PARTS = [
  ['failed', 'FAILED', 'failed'],
  ['optionalUnbound', 'OPTIONAL_UNBOUND', 'optional unbound'],
  ['deferred', 'DEFERRED', 'deferred'],
  ['ready', 'READY', 'ready'],
] as const;

/**
 * Counts of each status, failing first, as a bar whose parts are their share,
 * and as words: all four, only the failed ones of the total ("brief"), or none
 * (where a table's columns say them).
 */
export function CountsBar(props: { counts: CountsFragment; of?: string; words?: 'all' | 'brief' | 'none' }) {
  const { counts, of } = props;
  const total = counts.total || 1;
  const words =
    props.words === 'brief'
      ? [
          counts.failed > 0
            ? `${counts.failed.toLocaleString('en')} of ${counts.total.toLocaleString('en')} fail`
            : counts.optionalUnbound > 0
              ? `${counts.optionalUnbound.toLocaleString('en')} optional unbound`
              : 'none fails',
        ]
      : COUNT_PARTS.filter(([key]) => counts[key] > 0).map(
          ([key, , word]) => `${counts[key].toLocaleString('en')} ${word}`,
        );
  return (
    <div className="counts">
      <div className="bar" aria-hidden="true">
        {COUNT_PARTS.map(([key, status]) =>
          counts[key] > 0 ? (
            // Its share of the bar (set through the CSSOM, which the page's CSP allows).
            <span key={key} className={`part s-${status}`} style={{ flexGrow: counts[key] / total }} />
          ) : null,
        )}
      </div>
      <span className={props.words === 'none' ? 'visually-hidden' : 'counts-words'}>
        {counts.total === 0 ? `no ${of ?? 'pairs'}` : words.join(' · ')}
      </span>
    </div>
  );
}

// ---------------------------------------------------------------- times

/** The current time, again every `ms` (so "3 minutes ago" stays true). */
export function useNow(ms = 30_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/** A time with its time zone, and how long ago it was (compact: how long ago, the time on hover; stacked: both, on two lines). */
export function Time({ at, compact = false, stacked = false }: { at: string; compact?: boolean; stacked?: boolean }) {
  const now = useNow();
  const { absolute, relative } = describeTime(at, now);
  if (stacked)
    return (
      <time dateTime={at} className="stacked-time">
        <span>{relative}</span>
        <span className="muted small-time">{absolute}</span>
      </time>
    );
  return (
    <time dateTime={at} title={absolute}>
      {compact ? (
        <>
          {relative}
          <span className="visually-hidden"> ({absolute})</span>
        </>
      ) : (
        <>
          {absolute}
          {relative && <span className="muted"> ({relative})</span>}
        </>
      )}
    </time>
  );
}

// ---------------------------------------------------------------- the impact of a change

/** What a change does to bindings: every slot whose outcome changes, before → after. */
export function ImpactList(props: {
  impact: {
    totalCount: number;
    truncated: boolean;
    complete: boolean;
    changes: readonly BindingChangeRowFragment[];
  };
  caption?: string;
}) {
  const { impact, caption } = props;
  const count = plural(impact.totalCount, 'binding change');
  return (
    <div className="impact">
      <p className="impact-count">
        <strong>{caption ? `${caption}: ${count}` : count}</strong>
        {impact.totalCount === 0 && ': no tool binds differently in any project.'}
        {impact.truncated && ` (the first ${impact.changes.length} are listed)`}
        {!impact.complete &&
          '. Incomplete: the server stopped at its limit of 20,000 tool × project pairs, so there may be more.'}
      </p>
      {impact.changes.length > 0 && (
        <div className="table-scroll">
          <table className="data impact-table">
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Project</th>
                <th scope="col">Slot</th>
                <th scope="col">Before</th>
                <th scope="col">After</th>
              </tr>
            </thead>
            <tbody>
              {impact.changes.map((c) => (
                <tr key={`${c.toolId} ${c.projectId ?? ''} ${c.slotName}`}>
                  <td>{c.toolName}</td>
                  <td>{c.projectName ?? <span className="muted">(every project)</span>}</td>
                  <td>{c.slotName}</td>
                  <td>
                    <Outcome outcome={c.before} />
                  </td>
                  <td>
                    <Outcome outcome={c.after} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

// ---------------------------------------------------------------- lists

/** Previous / Next over a cursor-paged list, with where the page stands. */
export function Pager(props: {
  label: string;
  from: number;
  count: number;
  total: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  const { label, from, count, total } = props;
  const range =
    count === 0
      ? `no ${label}`
      : `${label} ${(from + 1).toLocaleString('en')}–${(from + count).toLocaleString('en')} of ${total.toLocaleString('en')}`;
  return (
    <div className="pager" role="group" aria-label={`${label} pages`}>
      <button type="button" onClick={props.onPrevious} disabled={!props.hasPrevious}>
        ‹ Previous
      </button>
      <span className="pager-range">{range}</span>
      <button type="button" onClick={props.onNext} disabled={!props.hasNext}>
        Next ›
      </button>
    </div>
  );
}

/** A list paged by cursors: the stack of `after` cursors that led to the current page, for Previous. */
export function useCursorStack(resetKey: string) {
  const [state, setState] = useState<{ key: string; stack: (string | null)[] }>({ key: resetKey, stack: [null] });
  // Another list (new filters): back to its first page, and forget the old stack for good.
  if (state.key !== resetKey) setState({ key: resetKey, stack: [null] });
  const stack = state.key === resetKey ? state.stack : [null];
  return {
    after: stack[stack.length - 1],
    depth: stack.length - 1,
    next: (cursor: string | null) => {
      if (cursor) setState({ key: resetKey, stack: [...stack, cursor] });
    },
    previous: () => setState({ key: resetKey, stack: stack.length > 1 ? stack.slice(0, -1) : stack }),
  };
}

export function ErrorNotice({ children }: { children: ReactNode }) {
  return (
    <p className="notice error" role="alert">
      {children}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="notice loading" role="status">
      Loading {what}…
    </p>
  );
}

/** A page's heading with what kind of thing it is above it. */
export function PageTitle(props: { kind?: string; id: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <header className="page-header">
      {props.kind && <p className="kind-label">{props.kind}</p>}
      <div className="page-title-row">
        <h1 id={props.id} className="view-title">
          {props.children}
        </h1>
        {props.actions && <div className="page-actions">{props.actions}</div>}
      </div>
    </header>
  );
}

// ---------------------------------------------------------------- buttons that may be refused

/**
 * A button for a change. When the viewer may not make it, it stays in the
 * tab order but does nothing (aria-disabled), and says why: in its tooltip
 * and in its accessible name.
 */
export function ActionButton(props: {
  permission: Permission;
  onClick: (from: HTMLElement) => void;
  children: ReactNode;
  className?: string;
  /** Said after the visible words to those who hear the page, e.g. "of acme/web-repo in web". */
  context?: string;
}) {
  const { permission } = props;
  return (
    <button
      type="button"
      className={`${props.className ?? ''}${permission.allowed ? '' : ' refused'}`}
      aria-disabled={permission.allowed ? undefined : true}
      title={permission.reason ?? undefined}
      onClick={(event) => {
        if (permission.allowed) props.onClick(event.currentTarget);
      }}
    >
      {props.children}
      {props.context && <span className="visually-hidden"> {props.context}</span>}
      {!permission.allowed && <span className="visually-hidden">: not available. {permission.reason}</span>}
    </button>
  );
}

/** Says once, on a page, why its changes are not available. */
export function RefusalNote({ permission }: { permission: Permission }) {
  if (permission.allowed) return null;
  return (
    <p className="refusal-note" role="note">
      {permission.reason}
    </p>
  );
}

// ---------------------------------------------------------------- the change dialog

/** Keeps Tab and Shift+Tab inside `container`. */
function trapTab(event: KeyboardEvent, container: HTMLElement | null): void {
  if (event.key !== 'Tab' || !container) return;
  const focusable = [
    ...container.querySelectorAll<HTMLElement>(
      'button:not([disabled]), a[href], input:not([disabled]), select, textarea, [tabindex="0"]',
    ),
  ];
  if (focusable.length === 0) return;
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/** What a change does to bindings, as a payload reports it. */
export interface Impact {
  readonly totalCount: number;
  readonly truncated: boolean;
  readonly complete: boolean;
  readonly changes: readonly BindingChangeRowFragment[];
}

/** What a dry run found: its impact and what to ask, or why the change cannot be made. */
export type Preview =
  | {
      readonly kind: 'ready';
      readonly impact: Impact;
      readonly note?: ReactNode;
      readonly confirm: string;
      /** A change that removes something: its button says so. */
      readonly danger?: boolean;
    }
  | { readonly kind: 'blocked'; readonly reason: ReactNode };

type Phase =
  | { readonly name: 'form' }
  | { readonly name: 'previewing' }
  | { readonly name: 'preview'; readonly preview: Preview }
  | { readonly name: 'applying'; readonly preview: Preview & { kind: 'ready' } }
  | { readonly name: 'done'; readonly impact: Impact; readonly version: number; readonly previewed: number }
  | { readonly name: 'failed'; readonly message: string };

type LoggedEntry = EntriesOfVersionQuery['changes']['edges'][number]['node'];

/** The change-log entries a committed change wrote (those of its version). */
function useEntriesOf(version: number | null): { entries: LoggedEntry[] | null; error: string | null } {
  const [state, setState] = useState<{ entries: LoggedEntry[] | null; error: string | null }>({
    entries: null,
    error: null,
  });
  useEffect(() => {
    if (version === null) return;
    let live = true;
    request<EntriesOfVersionQuery, EntriesOfVersionQueryVariables>(ENTRIES_OF_VERSION, { since: version - 1 }).then(
      (data) =>
        live &&
        setState({
          entries: data.changes.edges.map((e) => e.node).filter((e) => e.version === version),
          error: null,
        }),
      (error: unknown) => live && setState({ entries: null, error: describeError(error) }),
    );
    return () => {
      live = false;
    };
  }, [version]);
  return state;
}

/**
 * Every change goes through this dialog. With a form, the person fills it in
 * first. Then the change runs as a dry run (`preview`: nothing is stored),
 * and the dialog shows what it would do to bindings; only when the person
 * confirms does it run for real (`apply`), and then it shows what it did and
 * the change-log entry it wrote. Cancel, Escape or the backdrop leave
 * everything as it was.
 */
export function ActionDialog(props: {
  title: string;
  /** Fields to fill in before the preview; `ready` says whether they are complete. */
  form?: { readonly fields: ReactNode; readonly ready: boolean; readonly hint?: ReactNode };
  /** The dry run. */
  preview: () => Promise<Preview>;
  /** The real change; its impact is shown when it is done. */
  apply: () => Promise<{ impact: Impact; registryVersion: number }>;
  /** Said once it is done, e.g. "Deleted acme/docs-repo". */
  done: string;
  onClose: (applied: boolean) => void;
}) {
  const { preview, apply, onClose, form } = props;
  const [phase, setPhase] = useState<Phase>(form ? { name: 'form' } : { name: 'previewing' });
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const safe = useRef<HTMLButtonElement>(null);
  const logged = useEntriesOf(phase.name === 'done' ? phase.version : null);

  useEffect(() => {
    if (phase.name !== 'previewing') return;
    let live = true;
    preview().then(
      (p) => live && setPhase({ name: 'preview', preview: p }),
      (error: unknown) => live && setPhase({ name: 'failed', message: describeError(error) }),
    );
    return () => {
      live = false;
    };
  }, [phase.name, preview]);

  useEffect(() => {
    // The form's first field; else the safe choice first: Cancel (or Close).
    if (phase.name === 'form') dialog.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
    else if (phase.name === 'previewing') dialog.current?.focus();
    else if (phase.name !== 'applying') safe.current?.focus();
  }, [phase.name]);

  const confirm = () => {
    if (phase.name !== 'preview' || phase.preview.kind !== 'ready') return;
    const previewed = phase.preview.impact.totalCount;
    setPhase({ name: 'applying', preview: phase.preview });
    apply().then(
      (result) => setPhase({ name: 'done', impact: result.impact, version: result.registryVersion, previewed }),
      (error: unknown) => setPhase({ name: 'failed', message: describeError(error) }),
    );
  };
  const close = () => {
    if (phase.name !== 'applying') onClose(phase.name === 'done');
  };
  const finished =
    phase.name === 'done' || phase.name === 'failed' || (phase.name === 'preview' && phase.preview.kind === 'blocked');

  return (
    <div
      className="backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) close();
      }}
    >
      <div
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        ref={dialog}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            close();
          }
          trapTab(e, dialog.current);
        }}
      >
        <h2 id={titleId}>{props.title}</h2>
        {phase.name === 'form' && form && (
          <form
            className="dialog-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (form.ready) setPhase({ name: 'previewing' });
            }}
          >
            {form.fields}
            {form.hint && <p className="note">{form.hint}</p>}
            <div className="dialog-buttons">
              <button type="button" ref={safe} onClick={close}>
                Cancel
              </button>
              <button type="submit" className="primary" disabled={!form.ready}>
                Preview the change
              </button>
            </div>
          </form>
        )}
        {phase.name === 'previewing' && <p role="status">Previewing (a dry run: nothing is changed)…</p>}
        {phase.name === 'preview' && phase.preview.kind === 'blocked' && (
          <ErrorNotice>{phase.preview.reason}</ErrorNotice>
        )}
        {(phase.name === 'preview' || phase.name === 'applying') && phase.preview.kind === 'ready' && (
          <>
            <p>
              <strong>Nothing has changed yet.</strong> A dry run shows what this would do to bindings:
            </p>
            {phase.preview.note && <p className="note">{phase.preview.note}</p>}
            <ImpactList impact={phase.preview.impact} caption="Would cause" />
          </>
        )}
        {phase.name === 'done' && (
          <>
            <p role="status">
              <strong>{props.done}</strong> (registry version {phase.version}).
            </p>
            {phase.impact.totalCount !== phase.previewed && (
              <p className="note">The registry changed after the preview; this is what the change did.</p>
            )}
            <ImpactList impact={phase.impact} caption="Caused" />
            <div className="logged">
              <h3>In the change log</h3>
              {logged.error && <ErrorNotice>{logged.error}</ErrorNotice>}
              {!logged.entries && !logged.error && <Loading what="the change-log entry" />}
              {logged.entries && (
                <ul className="plain-list logged-entries">
                  {logged.entries.map((e) => (
                    <li key={e.id}>
                      Version {e.version}: {e.summary} <span className="muted">— {e.actor}, </span>
                      <Time at={e.at} compact />
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </>
        )}
        {phase.name === 'failed' && <ErrorNotice>{phase.message}</ErrorNotice>}
        {phase.name !== 'form' && (
          <div className="dialog-buttons">
            {finished ? (
              <>
                {form && phase.name === 'preview' && (
                  <button type="button" onClick={() => setPhase({ name: 'form' })}>
                    ‹ Back
                  </button>
                )}
                <button type="button" ref={safe} onClick={close}>
                  Close
                </button>
              </>
            ) : (
              <>
                {form && phase.name === 'preview' && (
                  <button type="button" onClick={() => setPhase({ name: 'form' })}>
                    ‹ Back
                  </button>
                )}
                <button type="button" ref={safe} onClick={close} disabled={phase.name === 'applying'}>
                  Cancel
                </button>
                <button
                  type="button"
                  className={
                    (phase.name === 'preview' || phase.name === 'applying') &&
                    phase.preview.kind === 'ready' &&
                    phase.preview.danger
                      ? 'danger'
                      : 'primary'
                  }
                  onClick={confirm}
                  disabled={phase.name !== 'preview' || phase.preview.kind !== 'ready'}
                >
                  {phase.name === 'applying'
                    ? 'Working…'
                    : phase.name === 'preview' && phase.preview.kind === 'ready'
                      ? phase.preview.confirm
                      : 'Confirm'}
                </button>
              </>
            )}
          </div>
        )}
      </div>
    </div>
  );
}

const DialogContext = createContext<(dialog: ReactNode) => void>(() => undefined);

/**
 * Where dialogs are drawn: above every page, so a dialog outlives the part of
 * the page that opened it (a fix button gone once the slot it fixed binds, a
 * page whose thing was just renamed or deleted).
 */
export function DialogHost({ children }: { children: ReactNode }) {
  const [dialog, setDialog] = useState<ReactNode>(null);
  return (
    <DialogContext.Provider value={setDialog}>
      {children}
      {dialog}
    </DialogContext.Provider>
  );
}

/**
 * Opens a dialog in the DialogHost; when it closes, the focus goes back to
 * the element that opened it (or to the page, when that element is gone).
 */
export function useDialog() {
  const show = useContext(DialogContext);
  return (from: HTMLElement, render: (close: () => void) => ReactNode) => {
    const close = () => {
      show(null);
      if (from.isConnected) from.focus();
      else document.getElementById('main')?.focus();
    };
    show(render(close));
  };
}
