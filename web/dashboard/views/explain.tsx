/**
 * Why a tool stands as it does in a project: explainBindings for the pair,
 * slot by slot, in words ("Why is source not bound in demo?"), with every
 * candidate the rule looked at, why each was or was not chosen (and its type
 * chain), and the fix, which for an ambiguous slot or a missing link is a
 * button: the change is previewed, then made. A side panel; Escape or ×
 * closes it and puts the focus back where it was opened.
 */
import { Fragment, useEffect, useId, useRef } from 'react';
import { request } from '../api';
import {
  ActionButton,
  ErrorNotice,
  Link,
  Loading,
  ProjectLink,
  ResourceLink,
  SlotStatusChip,
  ToolLink,
  TypeLink,
  useDialog,
} from '../components';
import { ClearAliasDialog, FixAliasDialog, LinkDialog } from '../edits';
import { useCan, useLoad } from '../hooks';
import { EXPLAIN, type BindHow, type ExplainQuery, type ExplainQueryVariables, type Rejection } from '../operations';
import { to } from '../route';
import { article, FAILURE, plural } from '../words';

type Explanation = ExplainQuery['explainBindings'];
type SlotExplanation = Explanation['slots'][number];
type DeclaredSlot = Explanation['tool']['resourceSlots'][number];

const HOW: Record<BindHow, string> = {
  SINGLE_CANDIDATE: 'the only linked resource of a fitting type',
  ALIAS: 'linked under an alias equal to the slot’s name',
  SHORT_NAME: 'its short name equals the slot’s name',
  STATIC: 'the resource the tool names for it',
  PARAMETER: 'the resource passed when the tool runs',
};

const REJECTION: Record<Rejection, string> = {
  AMBIGUOUS: 'tied: nothing picks one',
  NOT_CHOSEN_ALIAS: 'another is linked under the alias',
  NOT_CHOSEN_SHORT_NAME: 'another has the short name',
  NOT_FOUND: 'not registered',
  TYPE_MISMATCH: 'its type does not fit',
};

const ACCESS: Record<DeclaredSlot['access'], string> = {
  READ_ONLY: 'reads it',
  READ_WRITE: 'reads and writes it',
  WRITE_ONLY: 'writes it',
};

const MODE: Record<DeclaredSlot['binding'], string> = {
  CONTEXTUAL: 'from the project’s linked resources',
  STATIC: 'a resource the tool names',
  PARAMETER: 'passed when the tool runs',
};

/** The question or statement a slot card answers, in words a person uses. */
function slotHeading(slot: SlotExplanation, project: string) {
  const name = <code className="slot-name">{slot.slotName}</code>;
  switch (slot.status) {
    case 'FAILED':
      return (
        <>
          Why is {name} not bound in {project}?
        </>
      );
    case 'BOUND':
      return (
        <>
          {name} is bound to {slot.resource?.name ?? 'a resource'}
        </>
      );
    case 'DEFERRED':
      return <>{name} waits for a resource passed when the tool runs</>;
    case 'UNBOUND_OPTIONAL':
      return (
        <>
          {name} is optional, and nothing in {project} fits it
        </>
      );
    default:
      return name;
  }
}

export function ExplainPanel(props: { projectId: string; toolId: string; generation: number; onClose: () => void }) {
  const { projectId, toolId, generation, onClose } = props;
  const titleId = useId();
  const panel = useRef<HTMLElement>(null);
  const explained = useLoad(`${toolId} ${projectId}`, (signal) =>
    request<ExplainQuery, ExplainQueryVariables>(EXPLAIN, { tool: toolId, project: projectId }, { signal }),
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
            'How this tool binds in this project'
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
              ? `${data.tool.name} can run in ${data.project.name}: every slot is bound, or waits for a resource passed when it runs.`
              : `${data.tool.name} cannot run in ${data.project.name}: ${plural(failing, 'slot')} ${failing === 1 ? 'is' : 'are'} not bound.`}
          </p>
          <p className="panel-links">
            <ToolLink name={data.tool.name} /> · <ProjectLink name={data.project.name} /> ·{' '}
            <Link to={to.history(data.project.name)}>history of {data.project.name}</Link>
          </p>
          {data.slots.map((slot) => (
            <SlotCard
              key={slot.slotName}
              slot={slot}
              project={data.project}
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
          {i > 0 && (
            <>
              {' '}
              <span aria-hidden="true">→</span>
              <span className="visually-hidden">then</span>{' '}
            </>
          )}
          <TypeLink name={type} />
        </Fragment>
      ))}
    </span>
  );
}

function SlotCard(props: {
  slot: SlotExplanation;
  project: { id: string; name: string };
  declared: DeclaredSlot | null;
}) {
  const { slot, project, declared } = props;
  return (
    <section className={`slot-card slot-card-${slot.status}`} aria-label={`slot ${slot.slotName}`}>
      <h3>{slotHeading(slot, project.name)}</h3>
      <p className="slot-status">
        <SlotStatusChip status={slot.status} />
        {slot.reason && <span className="reason">{slot.reason}</span>}
        {slot.reason && <span className="muted"> {FAILURE[slot.reason]}</span>}
      </p>
      <dl className="facts">
        {declared && (
          <>
            <dt>Needs</dt>
            <dd>
              {article(declared.resourceType.name)} <TypeLink name={declared.resourceType.name} /> (or a sub-type),{' '}
              {MODE[declared.binding]}; the tool {ACCESS[declared.access]};{' '}
              {declared.required ? 'required' : 'optional'}
            </dd>
          </>
        )}
        {slot.how && (
          <>
            <dt>Chosen as</dt>
            <dd>{HOW[slot.how]}</dd>
          </>
        )}
        {slot.resource && (
          <>
            <dt>Resource</dt>
            <dd>
              <ResourceLink name={slot.resource.name} />
            </dd>
          </>
        )}
      </dl>
      <p className="message">{slot.message}</p>
      {slot.fix && (
        <div className="fix">
          <p>
            <strong>How to fix it:</strong> <span className="fix-text">{slot.fix}</span>
          </p>
          <FixButtons slot={slot} project={project} declared={declared} />
        </div>
      )}
      {slot.candidates.length > 0 && (
        <>
          <h4 className="candidates-title">{plural(slot.candidates.length, 'candidate')} looked at</h4>
          <ul className="candidates">
            {slot.candidates.map((c) => (
              <li key={c.ref} className={c.accepted ? 'accepted' : 'rejected'}>
                <div className="candidate-head">
                  <span className="candidate-name">{c.resource ? <ResourceLink name={c.resource.name} /> : c.ref}</span>
                  {c.alias && <span className="candidate-alias">alias {c.alias}</span>}
                  <span className={`verdict-word ${c.accepted ? 'ok' : 'failed'}`}>
                    {c.accepted ? 'chosen' : c.rejection ? REJECTION[c.rejection] : 'not chosen'}
                  </span>
                </div>
                <div className="candidate-message">{c.message}</div>
                {c.typeChain.length > 0 && (
                  <div className="candidate-chain">
                    <span className="muted">type </span>
                    <TypeChain chain={c.typeChain} />
                  </div>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/**
 * The fix as buttons. An ambiguous slot: give one of the tied resources the
 * slot's name as its alias (or, when a resource that does not fit holds that
 * alias, clear it there first). A required slot nothing fits: link a resource.
 */
function FixButtons(props: {
  slot: SlotExplanation;
  project: { id: string; name: string };
  declared: DeclaredSlot | null;
}) {
  const { slot, project, declared } = props;
  const canUpdate = useCan('updateLink', project.name);
  const canLink = useCan('linkResource', project.name);
  const open = useDialog();
  const tied = slot.candidates.filter((c) => c.rejection === 'AMBIGUOUS' && c.resource);
  const holder = slot.candidates.find(
    (c) => c.alias === slot.slotName && c.rejection === 'TYPE_MISMATCH' && c.resource,
  );
  const shown = slot.reason === 'NO_MATCH' ? canLink : canUpdate;
  return (
    <div className="fix-buttons">
      {slot.reason === 'AMBIGUOUS' &&
        (holder ? (
          <ActionButton
            permission={canUpdate}
            onClick={(from) =>
              open(from, (close) => (
                <ClearAliasDialog
                  project={project.name}
                  resource={holder.resource!.name}
                  alias={slot.slotName}
                  onClose={close}
                />
              ))
            }
          >
            Clear the alias {slot.slotName} from {holder.resource!.name}…
          </ActionButton>
        ) : (
          tied.map((c) => (
            <ActionButton
              key={c.ref}
              permission={canUpdate}
              onClick={(from) =>
                open(from, (close) => (
                  <FixAliasDialog
                    project={project.name}
                    slot={slot.slotName}
                    resource={c.resource!.name}
                    onClose={close}
                  />
                ))
              }
            >
              Bind to {c.resource!.name}…
            </ActionButton>
          ))
        ))}
      {slot.reason === 'NO_MATCH' && (
        <ActionButton
          permission={canLink}
          onClick={(from) =>
            open(from, (close) => (
              <LinkDialog project={project.name} typeHint={declared?.resourceType.name} onClose={close} />
            ))
          }
        >
          Link a resource to {project.name}…
        </ActionButton>
      )}
      {!shown.allowed && (slot.reason === 'AMBIGUOUS' || slot.reason === 'NO_MATCH') && (
        <p className="refusal-inline">{shown.reason}</p>
      )}
    </div>
  );
}
