/**
 * The dashboard's shell: the header (sections, search, connection badge,
 * who is signed in, token box), the live connection every page listens to,
 * what the viewer may change, and the page the URL names.
 *
 * Start-up: the page first finds the newest version in the change log, then
 * loads its page and subscribes to registryChanged after that version, so
 * an entry that commits while the page loads is still delivered (and the
 * page asks again). A new token starts everything afresh.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { describeError, graphqlSocketUrl, isAbort, onReadRefused, onWriteRefused } from './api';
import { DialogHost, ErrorNotice, Link, Loading } from './components';
import { LiveContext, navigate, useRoute, useSignedIn, useToken, useViewer, ViewerContext, type Live } from './hooks';
import { LiveFeed, type LiveStatus } from './live';
import { fetchNewestVersion } from './log-client';
import type { LiveEntry } from './operations';
import { legacyRoute, OVERVIEW, sectionOf, type Route } from './route';
import { Search } from './search';
import { SignInControls, useSignIn } from './sign-in-controls';
import { getPastedToken, setToken } from './token';
import { ViewerStore, type PrincipalState } from './viewer';
import { HistoryView } from './views/history';
import { MatrixView } from './views/matrix';
import { OverviewView } from './views/overview';
import { ProjectsView, ProjectView } from './views/projects';
import { ResourceView } from './views/resource';
import { ResourcesView } from './views/resources';
import { ToolsView, ToolView } from './views/tools';
import { TypesView, TypeView } from './views/types';

/** One store of what the viewer may do per credential, asked afresh when a write is refused. */
function useViewerStore(token: string | null, signInAvailable: boolean): ViewerStore {
  // A new credential is a new viewer: `token` is what tells them apart.
  const store = useMemo(() => new ViewerStore(signInAvailable), [token, signInAvailable]);
  useEffect(() => {
    store.start();
    // A write refused later says more than the answers did (a grant was revoked, say).
    const stop = onWriteRefused(() => store.forget());
    return () => {
      stop();
      store.stop();
    };
  }, [store]);
  return store;
}

/** Links of the earlier dashboard kept its pages in the fragment (#/resource/x): they still land where they meant. */
export function followLegacyLink(): void {
  const route = legacyRoute(window.location.hash);
  if (route) navigate(route, { replace: true });
}

const SECTIONS: readonly (readonly [string, string, Route])[] = [
  ['overview', 'Overview', OVERVIEW],
  ['matrix', 'Matrix', { view: 'matrix', project: '', links: '', tool: '', slotType: '' }],
  ['tools', 'Tools', { view: 'tools', q: '', order: 'attention' }],
  ['projects', 'Projects', { view: 'projects', q: '', order: 'attention' }],
  ['resources', 'Resources', { view: 'resources', q: '' }],
  ['types', 'Types', { view: 'types' }],
  ['history', 'History', { view: 'history', kind: null, actor: '', ref: '' }],
];

export function App() {
  const token = useToken();
  const route = useRoute();
  const signIn = useSignIn();
  const viewer = useViewerStore(token, signIn.settings !== null);
  const [needsToken, setNeedsToken] = useState(false);
  const [tokenBoxOpen, setTokenBoxOpen] = useState(false);
  useEffect(
    () =>
      onReadRefused(() => {
        setNeedsToken(true);
        setTokenBoxOpen(true);
      }),
    [],
  );

  // The newest version, then the live connection from it.
  const [start, setStart] = useState<{ token: string | null; version: number | null; error: string | null } | null>(
    null,
  );
  useEffect(() => {
    setStart(null);
    setNeedsToken(false);
    const controller = new AbortController();
    fetchNewestVersion(controller.signal).then(
      (version) => setStart({ token, version, error: null }),
      (error: unknown) => {
        if (!isAbort(error)) setStart({ token, version: null, error: describeError(error) });
      },
    );
    return () => controller.abort();
  }, [token]);

  const [status, setStatus] = useState<LiveStatus>({ state: 'connecting', detail: null, version: null });
  const listeners = useRef(new Set<(entries: readonly LiveEntry[]) => void>());
  const feed = useRef<LiveFeed | null>(null);
  useEffect(() => {
    if (!start || start.version === null) return;
    const next = new LiveFeed({
      url: graphqlSocketUrl(),
      token: start.token,
      afterVersion: start.version,
      onEntries: (entries) => {
        for (const listener of listeners.current) listener(entries);
      },
      onStatus: setStatus,
    });
    feed.current = next;
    next.start();
    return () => {
      next.stop();
      feed.current = null;
    };
  }, [start]);

  const listen = useCallback((listener: (entries: readonly LiveEntry[]) => void) => {
    listeners.current.add(listener);
    return () => {
      listeners.current.delete(listener);
    };
  }, []);
  const reconnect = useCallback(() => feed.current?.reconnectNow(), []);
  const live = useMemo<Live>(() => ({ status, listen, reconnect }), [status, listen, reconnect]);
  const section = sectionOf(route);

  // The window's title names the page, so history and tabs tell pages apart.
  useEffect(() => {
    document.title = `${pageTitle(route)} · Registry dashboard`;
  }, [route]);

  return (
    <ViewerContext.Provider value={viewer}>
      <LiveContext.Provider value={live}>
        <DialogHost>
          <a className="skip-link" href="#main" onClick={skipToMain}>
            Skip to the content
          </a>
          <header className="top">
            <Link to={OVERVIEW} className="brand">
              Registry dashboard
            </Link>
            <nav aria-label="Sections">
              {SECTIONS.map(([key, label, target]) => (
                <Link key={key} to={target} current={section === key}>
                  {label}
                </Link>
              ))}
            </nav>
            <Search />
            <div className="top-right">
              <ConnectionBadge status={status} onReconnect={reconnect} />
              <SignInControls signIn={signIn} />
              <TokenBox token={token} open={tokenBoxOpen} setOpen={setTokenBoxOpen} needsToken={needsToken} />
            </div>
          </header>
          {needsToken && (
            <div className="banner" role="alert">
              This server needs a token to read.{' '}
              {token
                ? 'The token in use was not accepted.'
                : `${signIn.settings ? 'Sign in, or enter' : 'Enter'} a token in the token box.`}
            </div>
          )}
          {signIn.error && (
            <div className="banner sign-in-ended" role="alert">
              {signIn.error}
            </div>
          )}
          <main id="main" tabIndex={-1}>
            {signIn.finishing && <Loading what="your sign-in" />}
            {!signIn.finishing && start === null && <Loading what="the registry" />}
            {!signIn.finishing && start?.error && <ErrorNotice>{start.error}</ErrorNotice>}
            {!signIn.finishing && start?.version != null && <View key={token ?? ''} route={route} />}
          </main>
        </DialogHost>
      </LiveContext.Provider>
    </ViewerContext.Provider>
  );
}

function skipToMain(event: { preventDefault: () => void }) {
  // The fragment is the router's: move the focus without changing it.
  event.preventDefault();
  document.getElementById('main')?.focus();
}

function View({ route }: { route: Route }) {
  switch (route.view) {
    case 'overview':
      return <OverviewView />;
    case 'matrix':
      return <MatrixView route={route} />;
    case 'tools':
      return <ToolsView q={route.q} order={route.order} />;
    case 'tool':
      return <ToolView key={route.name} name={route.name} />;
    case 'projects':
      return <ProjectsView q={route.q} order={route.order} />;
    case 'project':
      return <ProjectView key={route.name} name={route.name} />;
    case 'resources':
      return <ResourcesView q={route.q} />;
    case 'resource':
      return <ResourceView key={route.name} name={route.name} />;
    case 'types':
      return <TypesView />;
    case 'type':
      return <TypeView key={route.name} name={route.name} />;
    case 'history':
      return <HistoryView kind={route.kind} actor={route.actor} ref={route.ref} />;
  }
}

/** The page's name, for the window's title. */
function pageTitle(route: Route): string {
  switch (route.view) {
    case 'tool':
    case 'project':
    case 'resource':
    case 'type':
      return route.name;
    default:
      return SECTIONS.find(([key]) => key === sectionOf(route))?.[1] ?? 'Overview';
  }
}

const STATE_TEXT: Record<LiveStatus['state'], string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  offline: 'Offline',
};

function ConnectionBadge({ status, onReconnect }: { status: LiveStatus; onReconnect: () => void }) {
  const title =
    status.state === 'live'
      ? `Live: changes appear as they commit${status.version !== null ? ` (seen up to version ${status.version})` : ''}`
      : `${STATE_TEXT[status.state]}${status.detail ? `: ${status.detail}` : ''}${
          status.version !== null ? `. It resumes after version ${status.version}, missing nothing.` : ''
        }`;
  return (
    <span className="connection">
      <span className={`badge live-${status.state}`} role="status" title={title} data-state={status.state}>
        <span className="dot" aria-hidden="true" />
        {STATE_TEXT[status.state]}
        <span className="visually-hidden">. {title}</span>
      </span>
      {(status.state === 'offline' || status.state === 'reconnecting') && (
        <button type="button" className="small" onClick={onReconnect}>
          Reconnect
        </button>
      )}
    </span>
  );
}

/** What the token box says of the credential in use. */
function accessText(token: string | null, who: PrincipalState): string {
  if (who.state === 'loading') return 'Checking the token…';
  if (who.state === 'failed')
    return who.code === 'UNAUTHENTICATED'
      ? 'The server does not accept this token.'
      : 'Could not find out who this token is.';
  if (who.principal === 'anonymous')
    return 'No token is configured on this server (development): everyone may change the registry, and the change log names them anonymous.';
  if (who.principal === null) return 'No token: you may read. Each change button says what it needs.';
  return `${token ? 'This token is' : 'You are'} ${who.principal}. Each change button says whether it may make that change; every change is previewed (a dry run) before it is made.`;
}

/** The token button's label: who the token is, once known. */
function tokenLabel(token: string | null, who: PrincipalState): string {
  if (!token) return who.state === 'known' && who.principal === 'anonymous' ? 'Token: none (open)' : 'Token: none';
  return who.state === 'known' && who.principal ? `Token: ${who.principal}` : 'Token: set';
}

function TokenBox(props: {
  token: string | null;
  open: boolean;
  setOpen: (open: boolean) => void;
  needsToken: boolean;
}) {
  const { token, open, setOpen, needsToken } = props;
  const who = useViewer().who;
  // Signed in, the box is for a token to use instead once signed out.
  const signedIn = useSignedIn();
  const label = signedIn ? 'Token' : tokenLabel(token, who);
  const pasted = signedIn ? getPastedToken() : token;
  const [text, setText] = useState('');
  const button = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    setToken(text);
    setText('');
  };
  return (
    <div className="token">
      <button
        type="button"
        ref={button}
        className={`token-button${needsToken ? ' needed' : ''}`}
        aria-expanded={open}
        aria-controls="token-box"
        onClick={() => setOpen(!open)}
      >
        {label}
      </button>
      {open && (
        <div
          id="token-box"
          className="token-box"
          role="dialog"
          aria-label="Token"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              close();
            }
          }}
        >
          <form onSubmit={submit}>
            <label className="field">
              <span>{pasted ? 'Replace the token' : 'Token'}</span>
              <input
                ref={input}
                type="password"
                value={text}
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => setText(e.target.value)}
                placeholder="paste an API token or a configured token"
              />
            </label>
            <div className="token-buttons">
              <button type="submit" disabled={!text.trim()}>
                Use token
              </button>
              <button type="button" disabled={!pasted} onClick={() => setToken(null)}>
                Forget token
              </button>
              <button type="button" onClick={close}>
                Close
              </button>
            </div>
          </form>
          <p className="token-status" role="status">
            {signedIn ? 'You are signed in: a token entered here is used once you sign out.' : accessText(token, who)}
          </p>
          <p className="muted small-print">
            Kept in this tab only (sessionStorage), sent to this server as Authorization: Bearer and on the live
            connection. A sign-in, while it lasts, is used instead.
          </p>
        </div>
      )}
    </div>
  );
}
