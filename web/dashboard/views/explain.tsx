/**
 * Why a cell is what it is: explainBindings for the tool in the project, slot
 * by slot, with every candidate the rule looked at, why each was or was not
 * chosen (and its type chain), and the fix. A side panel; Escape or × closes
 * it and puts the focus back on the cell.
 */
import { Fragment, useEffect, useId, useRef } from 'react';
import { request } from '../api';
import { ErrorNotice, Loading, SlotStatusChip } from '../components';
import { useLoad } from '../hooks';
import {
  EXPLAIN,
  type BindHow,
  type ExplainData,
  type Rejection,
  type SlotExplanation,
  type ToolSlot,
} from '../operations';
import { href } from '../route';

const HOW: Record<BindHow, string> = {
  SINGLE_CANDIDATE: 'the only linked resource of a fitting type',
  ALIAS: 'linked under an alias equal to the slot name',
  SHORT_NAME: 'its short name equals the slot name',
  STATIC: 'the static resource the tool names',
  PARAMETER: 'the resource passed as a param',
};

const REJECTION: Record<Rejection, string> = {
  AMBIGUOUS: 'tied: nothing picks one',
  NOT_CHOSEN_ALIAS: 'another is linked under the alias',
  NOT_CHOSEN_SHORT_NAME: 'another has the short name',
  NOT_FOUND: 'not registered',
  TYPE_MISMATCH: 'its type does not fit',
};

const ACCESS: Record<ToolSlot['access'], string> = {
  READ_ONLY: 'read only',
  READ_WRITE: 'read and write',
  WRITE_ONLY: 'write only',
};

export function ExplainPanel(props: { projectId: string; toolId: string; generation: number; onClose: () => void }) {
  const { projectId, toolId, generation, onClose } = props;
  const titleId = useId();
  const panel = useRef<HTMLElement>(null);
  const explained = useLoad(`${toolId} ${projectId}`, (signal) =>
    request<ExplainData>(EXPLAIN, { tool: toolId, project: projectId }, { signal }),
  );

  // Live: asked again when the registry changes while it is open.
  const firstGeneration = useRef(generation);
  const { reload } = explained;
  useEffect(() => {
    if (generation !== firstGeneration.current) reload();
  }, [generation, reload]);

  useEffect(() => {
    panel.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault();
        onClose();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  const data = explained.data?.explainBindings;
  const failing = data?.slots.filter((s) => s.status === 'FAILED').length ?? 0;
  return (
    <aside
      className="panel explain"
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      tabIndex={-1}
      ref={panel}
    >
      <header className="panel-header">
        <h2 id={titleId}>
          {data ? (
            <>
              <span className="tool-name">{data.tool.name}</span> <span className="muted">in</span>{' '}
              <span className="project-name">{data.project.name}</span>
            </>
          ) : (
            'Why this cell'
          )}
        </h2>
        <button type="button" className="close" aria-label="Close the explanation" onClick={onClose}>
          ×
        </button>
      </header>
      {explained.error && <ErrorNotice>{explained.error}</ErrorNotice>}
      {!data && !explained.error && <Loading what="the explanation" />}
      {data && (
        <>
          <p className={`verdict ${data.ok ? 'ok' : 'failed'}`}>
            {data.ok
              ? 'Every slot binds or waits for a param: resolveBindings succeeds.'
              : `${failing} slot${failing === 1 ? '' : 's'} cannot bind: resolveBindings fails with BINDING_RESOLUTION_FAILED.`}
          </p>
          {data.slots.map((slot) => (
            <SlotCard
              key={slot.slotName}
              slot={slot}
              declared={data.tool.resourceSlots.find((s) => s.name === slot.slotName) ?? null}
            />
          ))}
        </>
      )}
    </aside>
  );
}

function TypeChain({ chain }: { chain: readonly string[] }) {
  return (
    <span className="type-chain">
      {chain.map((type, i) => (
        <Fragment key={type}>
          {i > 0 && <span aria-label="then">→</span>}
          <a href={href.type(type)}>{type}</a>
        </Fragment>
      ))}
    </span>
  );
}

function SlotCard({ slot, declared }: { slot: SlotExplanation; declared: ToolSlot | null }) {
  return (
    <section className={`slot-card slot-card-${slot.status}`} aria-label={`slot ${slot.slotName}`}>
      <h3>
        <span className="slot-name">{slot.slotName}</span> <SlotStatusChip status={slot.status} />
        {slot.reason && <span className="reason">{slot.reason}</span>}
      </h3>
      <dl className="facts">
        <dt>Binding</dt>
        <dd>{slot.bindingMode.toLowerCase()}</dd>
        {declared && (
          <>
            <dt>Type</dt>
            <dd>
              <a href={href.type(declared.resourceType.name)}>{declared.resourceType.name}</a>
            </dd>
            <dt>Access</dt>
            <dd>
              {ACCESS[declared.access]}, {declared.required ? 'required' : 'optional'}
            </dd>
          </>
        )}
        {slot.how && (
          <>
            <dt>Bound by</dt>
            <dd>{HOW[slot.how]}</dd>
          </>
        )}
        {slot.resource && (
          <>
            <dt>Resource</dt>
            <dd>
              <a href={href.resource(slot.resource.name)}>{slot.resource.name}</a>
            </dd>
          </>
        )}
      </dl>
      <p className="message">{slot.message}</p>
      {slot.fix && (
        <p className="fix">
          <strong>Fix:</strong> <span className="fix-text">{slot.fix}</span>
        </p>
      )}
      {slot.candidates.length > 0 && (
        <table className="data candidates">
          <caption>
            {slot.candidates.length} candidate{slot.candidates.length === 1 ? '' : 's'} looked at
          </caption>
          <thead>
            <tr>
              <th scope="col">Resource</th>
              <th scope="col">Alias</th>
              <th scope="col">Verdict</th>
              <th scope="col">Type chain</th>
            </tr>
          </thead>
          <tbody>
            {slot.candidates.map((c) => (
              <tr key={c.ref} className={c.accepted ? 'accepted' : 'rejected'}>
                <td>{c.resource ? <a href={href.resource(c.resource.name)}>{c.ref}</a> : c.ref}</td>
                <td>{c.alias ?? <span className="muted">—</span>}</td>
                <td>
                  <span className={`verdict-word ${c.accepted ? 'ok' : 'failed'}`}>
                    {c.accepted ? 'chosen' : c.rejection ? REJECTION[c.rejection] : 'not chosen'}
                  </span>
                  <div className="candidate-message">{c.message}</div>
                </td>
                <td>
                  <TypeChain chain={c.typeChain} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
