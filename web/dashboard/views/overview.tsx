/**
 * The landing page: how the registry stands, in numbers, and what needs
 * attention: the tools that fail in the most projects and the projects where
 * the most tools fail, each a link to its page. Counted by the API
 * (bindingSummary) once per registry version; asked again when the registry changes.
 */
import { useRef, type ReactNode } from 'react';
import { request } from '../api';
import { CountsBar, ErrorNotice, Link, Loading, PageTitle, ProjectLink, ToolLink } from '../components';
import { useLiveEntries, useLoad } from '../hooks';
import { OVERVIEW, type CountsFragment, type OverviewQuery, type OverviewQueryVariables } from '../operations';
import { EMPTY_MATRIX } from '../route';
import { plural } from '../words';
import { ChangeLog } from './history';

/** How many tools and projects the lists show. */
const SHOWN = 8;

function share(part: number, total: number): string {
  if (total === 0 || part === 0) return '0 %';
  const percent = (part / total) * 100;
  return percent < 0.1 ? 'under 0.1 %' : `${percent < 10 ? percent.toFixed(1) : Math.round(percent)} %`;
}

export function OverviewView() {
  const loaded = useLoad('overview', (signal) =>
    request<OverviewQuery, OverviewQueryVariables>(OVERVIEW, { first: SHOWN }, { signal }),
  );
  // Live: counted again after changes, at most every two seconds (a count of a large registry takes a moment).
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const { reload } = loaded;
  useLiveEntries(() => {
    if (timer.current) return;
    const wait = Math.max(0, last.current + 2000 - Date.now());
    timer.current = setTimeout(() => {
      timer.current = null;
      last.current = Date.now();
      reload();
    }, wait);
  });
  const summary = loaded.data?.bindingSummary;

  return (
    <section className="overview-view" aria-labelledby="overview-title">
      <PageTitle id="overview-title">Overview</PageTitle>
      {loaded.error && <ErrorNotice>{loaded.error}</ErrorNotice>}
      {!summary && !loaded.error && <Loading what="the counts (every tool in every project)" />}
      {summary && (
        <>
          <Headline total={summary.total} tools={summary.toolCount} projects={summary.projectCount} />
          <div className="stat-cards">
            <Stat label="Failed" status="FAILED" value={summary.total.failed} total={summary.total.total}>
              at least one slot cannot be bound
            </Stat>
            <Stat
              label="Optional unbound"
              status="OPTIONAL_UNBOUND"
              value={summary.total.optionalUnbound}
              total={summary.total.total}
            >
              run, but an optional slot found nothing
            </Stat>
            <Stat label="Deferred" status="DEFERRED" value={summary.total.deferred} total={summary.total.total}>
              wait for a resource passed when they run
            </Stat>
            <Stat label="Ready" status="READY" value={summary.total.ready} total={summary.total.total}>
              every slot is bound
            </Stat>
          </div>
          <h2>Needs attention</h2>
          {summary.total.failed === 0 && summary.total.optionalUnbound === 0 ? (
            <p className="notice ok-notice">
              Nothing needs attention: every tool binds in every project
              {summary.total.deferred > 0 &&
                ` (${plural(summary.total.deferred, 'pair')} ${summary.total.deferred === 1 ? 'waits' : 'wait'} for params when they run)`}
              .
            </p>
          ) : (
            <div className="attention">
              <section aria-labelledby="attention-tools">
                <h3 id="attention-tools">Tools that fail in the most projects</h3>
                <AttentionList
                  items={summary.tools.nodes.map((n) => ({ name: n.tool.name, counts: n.counts }))}
                  link={(name) => <ToolLink name={name} />}
                  per="project"
                />
                <p>
                  <Link to={{ view: 'tools', q: '', order: 'attention' }}>
                    All {plural(summary.toolCount, 'tool')}, failing first →
                  </Link>
                </p>
              </section>
              <section aria-labelledby="attention-projects">
                <h3 id="attention-projects">Projects where the most tools fail</h3>
                <AttentionList
                  items={summary.projects.nodes.map((n) => ({ name: n.project.name, counts: n.counts }))}
                  link={(name) => <ProjectLink name={name} />}
                  per="tool"
                />
                <p>
                  <Link to={{ view: 'projects', q: '', order: 'attention' }}>
                    All {plural(summary.projectCount, 'project')}, failing first →
                  </Link>
                </p>
              </section>
            </div>
          )}
          <p>
            <Link to={EMPTY_MATRIX}>The whole matrix: every tool in every project →</Link>
          </p>
        </>
      )}
      <h2>Recent changes</h2>
      <ChangeLog filter={{}} size={6} paged={false} title="Recent changes" />
      <p>
        <Link to={{ view: 'history', kind: null, actor: '', ref: '' }}>The whole history →</Link>
      </p>
    </section>
  );
}

function Headline(props: { total: CountsFragment; tools: number; projects: number }) {
  const { total, tools, projects } = props;
  if (total.total === 0)
    return (
      <p className="headline">
        The registry holds {plural(tools, 'tool')} and {plural(projects, 'project')}: no pair to bind yet.
      </p>
    );
  return (
    <p className="headline">
      {plural(tools, 'tool')} in {plural(projects, 'project')}: of {plural(total.total, 'tool × project pair')},{' '}
      {total.failed === 0 ? (
        <strong>none fails</strong>
      ) : (
        <strong>
          {total.failed.toLocaleString('en')} ({share(total.failed, total.total)}) cannot run
        </strong>
      )}{' '}
      as the registry stands.
    </p>
  );
}

function Stat(props: { label: string; status: string; value: number; total: number; children: string }) {
  return (
    <div className={`stat stat-${props.status}`}>
      <span className={`stat-mark s-${props.status}`} aria-hidden="true" />
      <div className="stat-label">{props.label}</div>
      <div className="stat-value">{props.value.toLocaleString('en')}</div>
      <div className="stat-share">
        {share(props.value, props.total)} · {props.children}
      </div>
    </div>
  );
}

function AttentionList(props: {
  items: readonly { name: string; counts: CountsFragment }[];
  link: (name: string) => ReactNode;
  per: string;
}) {
  const items = props.items.filter((i) => i.counts.failed > 0 || i.counts.optionalUnbound > 0);
  if (items.length === 0) return <p className="muted">None.</p>;
  return (
    <ol className="attention-list">
      {items.map((item) => (
        <li key={item.name}>
          <div className="attention-name">{props.link(item.name)}</div>
          <CountsBar counts={item.counts} of={`${props.per}s`} words="brief" />
        </li>
      ))}
    </ol>
  );
}
