/** Pieces the views share: status chips, the impact table, pagers, notices and the confirm-with-impact dialog. */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { describeError } from './api';
import type { BindingImpact, SlotOutcome, SlotStatus } from './operations';

const SLOT_STATUS_LABEL: Record<SlotStatus, string> = {
  BOUND: 'bound',
  DEFERRED: 'deferred',
  UNBOUND_OPTIONAL: 'optional, unbound',
  FAILED: 'failed',
  ABSENT: 'absent',
};

/** A slot status as a coloured word (the word carries the meaning; the colour repeats it). */
export function SlotStatusChip({ status }: { status: SlotStatus }) {
  return <span className={`chip slot-${status}`}>{SLOT_STATUS_LABEL[status]}</span>;
}

/** A slot's outcome on one side of a change: status, reason, bound resource. */
export function Outcome({ outcome }: { outcome: SlotOutcome }) {
  return (
    <span className="outcome">
      <SlotStatusChip status={outcome.status} />
      {outcome.reason && <span className="reason">{outcome.reason}</span>}
      {outcome.resourceName && <span className="resource-name">{outcome.resourceName}</span>}
    </span>
  );
}

/** What a change does to bindings: every slot whose outcome changes, before → after. */
export function ImpactList({ impact, caption }: { impact: BindingImpact; caption?: string }) {
  const count = `${impact.totalCount} binding change${impact.totalCount === 1 ? '' : 's'}`;
  return (
    <div className="impact">
      <p className="impact-count">
        <strong>{caption ? `${caption}: ${count}` : count}</strong>
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
  const range = count === 0 ? `no ${label}` : `${label} ${from + 1}–${from + count} of ${total}`;
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

/** Keeps Tab and Shift+Tab inside `container`. */
function trapTab(event: KeyboardEvent, container: HTMLElement | null): void {
  if (event.key !== 'Tab' || !container) return;
  const focusable = [
    ...container.querySelectorAll<HTMLElement>('button:not([disabled]), a[href], input, select, [tabindex="0"]'),
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

/** What a dry run found: its impact and what to ask, or why the action cannot be done. */
export type Preview =
  | { readonly kind: 'ready'; readonly impact: BindingImpact; readonly note?: ReactNode; readonly confirm: string }
  | { readonly kind: 'blocked'; readonly reason: ReactNode };

type Phase =
  | { readonly name: 'previewing' }
  | { readonly name: 'preview'; readonly preview: Preview }
  | { readonly name: 'applying'; readonly preview: Preview & { kind: 'ready' } }
  | { readonly name: 'done'; readonly impact: BindingImpact; readonly version: number; readonly previewed: number }
  | { readonly name: 'failed'; readonly message: string };

/**
 * Impact before acting: runs the action as a dry run (`preview`), shows
 * what it would do to bindings, and runs it for real (`apply`) only when the
 * user confirms. Cancel, Escape or the backdrop leave everything as it was.
 */
export function ActionDialog(props: {
  title: string;
  /** The dry run. */
  preview: () => Promise<Preview>;
  /** The real change; its impact is shown when it is done. */
  apply: () => Promise<{ impact: BindingImpact; registryVersion: number }>;
  /** Said once it is done, e.g. "Deleted acme/docs-repo". */
  done: string;
  onClose: (applied: boolean) => void;
}) {
  const [phase, setPhase] = useState<Phase>({ name: 'previewing' });
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const { preview, apply, onClose } = props;

  useEffect(() => {
    let live = true;
    preview().then(
      (p) => live && setPhase({ name: 'preview', preview: p }),
      (error: unknown) => live && setPhase({ name: 'failed', message: describeError(error) }),
    );
    return () => {
      live = false;
    };
  }, [preview]);

  useEffect(() => {
    // Focus goes to the safe choice first: Cancel (or Close).
    if (phase.name === 'previewing') dialog.current?.focus();
    else if (phase.name !== 'applying') cancel.current?.focus();
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
          </>
        )}
        {phase.name === 'failed' && <ErrorNotice>{phase.message}</ErrorNotice>}
        <div className="dialog-buttons">
          {phase.name === 'done' ||
          phase.name === 'failed' ||
          (phase.name === 'preview' && phase.preview.kind === 'blocked') ? (
            <button type="button" ref={cancel} onClick={close}>
              Close
            </button>
          ) : (
            <>
              <button type="button" ref={cancel} onClick={close} disabled={phase.name === 'applying'}>
                Cancel
              </button>
              <button
                type="button"
                className="danger"
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
      </div>
    </div>
  );
}
