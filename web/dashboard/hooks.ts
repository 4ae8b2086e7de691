/** Small React hooks the views share: the route, the token, what the viewer may do, live entries, and loading data. */
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type MouseEvent,
} from 'react';
import { dashboardRoot, describeError, isAbort } from './api';
import type { LiveStatus } from './live';
import type { LiveEntry } from './operations';
import type { Operation, Permission } from './permissions';
import { formatRoute, parseRoute, type Route } from './route';
import { getToken, isSignedIn, subscribeToken } from './token';
import { ViewerStore } from './viewer';

const NAVIGATED = 'dashboard:navigate';

function subscribeLocation(listener: () => void): () => void {
  window.addEventListener('popstate', listener);
  window.addEventListener(NAVIGATED, listener);
  return () => {
    window.removeEventListener('popstate', listener);
    window.removeEventListener(NAVIGATED, listener);
  };
}

/** The page's path below the dashboard's root, with its query string ("tools/acme%2Flint", "matrix?tool=x"). */
function location(): string {
  const rootPath = dashboardRoot().pathname;
  const path = window.location.pathname;
  const below = path.startsWith(rootPath) ? path.slice(rootPath.length) : '';
  return below + window.location.search;
}

/** The route the URL names, following the browser's back and forward. */
export function useRoute(): Route {
  const current = useSyncExternalStore(subscribeLocation, location);
  // Parsed once per distinct URL, so the route object is stable between renders.
  const cache = useRef<{ at: string; route: Route } | null>(null);
  if (cache.current?.at !== current) {
    const [path, search = ''] = current.split(/\?(.*)/s, 2);
    cache.current = { at: current, route: parseRoute(path, search) };
  }
  return cache.current.route;
}

/** The URL of a route: its path under the root (the overview is the root itself, /dashboard). */
export function hrefOf(route: Route): string {
  const rootPath = dashboardRoot().pathname;
  const path = formatRoute(route);
  return path === '' ? rootPath.replace(/\/$/, '') : rootPath + path;
}

/** Replaces the page's URL (path and query) without a new history entry, and tells the router. */
export function replaceUrl(url: string): void {
  window.history.replaceState(null, '', url);
  window.dispatchEvent(new Event(NAVIGATED));
}

/**
 * Goes to a route: a new history entry, so Back returns; `replace` edits the
 * current one instead (filters as they are typed).
 */
export function navigate(route: Route, options: { replace?: boolean } = {}): void {
  const url = hrefOf(route);
  if (url === window.location.pathname + window.location.search) return;
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  window.dispatchEvent(new Event(NAVIGATED));
  if (!options.replace) {
    // A new page: at its top, with the focus at its start (where a screen reader then reads on).
    window.scrollTo(0, 0);
    document.getElementById('main')?.focus({ preventScroll: true });
  }
}

/**
 * A link's click: navigates within the page, unless the person asked for a
 * new tab or window (a modifier key, another button), which the browser does.
 */
export function followLink(route: Route) {
  return (event: MouseEvent<HTMLElement>) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    navigate(route);
  };
}

export function useToken(): string | null {
  return useSyncExternalStore(subscribeToken, getToken);
}

/** Whether the token in use is a sign-in's. */
export function useSignedIn(): boolean {
  return useSyncExternalStore(subscribeToken, isSignedIn);
}

/** Who is looking and what they may change, for the credential in use (one store per credential: app.tsx). */
export const ViewerContext = createContext<ViewerStore>(new ViewerStore(false));

/** The viewer's store, re-rendering the caller whenever an answer arrives. */
export function useViewer(): ViewerStore {
  const store = useContext(ViewerContext);
  useSyncExternalStore(store.subscribe, () => store.version);
  return store;
}

/** Whether the viewer may run `operation` on the thing named `ref` (the server's viewer.can), and why not. */
export function useCan(operation: Operation, ref: string): Permission {
  return useViewer().can(operation, ref);
}

/** The live connection: its state, and a way to hear every batch of change-log entries. */
export interface Live {
  readonly status: LiveStatus;
  readonly listen: (listener: (entries: readonly LiveEntry[]) => void) => () => void;
  readonly reconnect: () => void;
}

export const LiveContext = createContext<Live>({
  status: { state: 'connecting', detail: null, version: null },
  listen: () => () => undefined,
  reconnect: () => undefined,
});

/** Calls `handler` with every batch of entries from the live connection (the latest handler, without resubscribing). */
export function useLiveEntries(handler: (entries: readonly LiveEntry[]) => void): void {
  const { listen } = useContext(LiveContext);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => listen((entries) => latest.current(entries)), [listen]);
}

export interface Loaded<T> {
  readonly data: T | null;
  readonly error: string | null;
  readonly loading: boolean;
  /** Loads again (keeping what is shown until the answer comes). */
  readonly reload: () => void;
}

/**
 * Loads with `load` whenever `key` changes (dropping the answer to the
 * previous key), and on reload(). A reload while a load is under way waits
 * for it and then loads once more, so a steady stream of changes cannot keep
 * every load from finishing.
 */
export function useLoad<T>(key: string, load: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  type State = { key: string; data: T | null; error: string | null; loading: boolean };
  const [state, setState] = useState<State>({
    key,
    data: null,
    error: null,
    loading: true,
  });
  const latestLoad = useRef(load);
  latestLoad.current = load;
  const latestKey = useRef(key);
  latestKey.current = key;
  const running = useRef<{ key: string; controller: AbortController; again: boolean } | null>(null);

  const start = useCallback((forKey: string) => {
    const run = { key: forKey, controller: new AbortController(), again: false };
    running.current = run;
    setState((s) =>
      s.key === forKey ? { ...s, loading: true } : { key: forKey, data: null, error: null, loading: true },
    );
    const settle = (next: (s: State) => State) => {
      if (running.current !== run) return;
      running.current = null;
      setState(next);
      if (run.again) start(forKey);
    };
    latestLoad.current(run.controller.signal).then(
      (data) => settle(() => ({ key: forKey, data, error: null, loading: false })),
      (error: unknown) => {
        if (!isAbort(error)) settle((s) => ({ ...s, key: forKey, error: describeError(error), loading: false }));
      },
    );
  }, []);

  useEffect(() => {
    start(key);
    return () => {
      running.current?.controller.abort();
      running.current = null;
    };
  }, [key, start]);

  const reload = useCallback(() => {
    if (running.current) running.current.again = true;
    else start(latestKey.current);
  }, [start]);
  const current = state.key === key;
  return {
    data: current ? state.data : null,
    error: current ? state.error : null,
    loading: !current || state.loading,
    reload,
  };
}

/** A value that follows `value` after it has stayed the same for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
