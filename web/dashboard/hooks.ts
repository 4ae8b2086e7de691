/** Small React hooks the views share: the route, the token, live entries, and loading data. */
import { createContext, useCallback, useContext, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { describeError, isAbort } from './api';
import type { LiveStatus } from './live';
import type { LiveEntry } from './operations';
import { formatRoute, parseRoute, type Route } from './route';
import { getToken, subscribeToken } from './token';

function subscribeHash(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}

/** The route in the URL's fragment, following the browser's back and forward. */
export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribeHash, () => window.location.hash);
  // Parsed once per distinct fragment, so the route object is stable between renders.
  const cache = useRef<{ hash: string; route: Route } | null>(null);
  if (cache.current?.hash !== hash) cache.current = { hash, route: parseRoute(hash) };
  return cache.current.route;
}

/** Goes to a route; `replace` edits the current history entry (filters as they are typed) instead of adding one. */
export function navigate(route: Route, options: { replace?: boolean } = {}): void {
  const hash = formatRoute(route);
  if (hash === window.location.hash) return;
  if (options.replace) window.history.replaceState(null, '', hash);
  else window.history.pushState(null, '', hash);
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

export function useToken(): string | null {
  return useSyncExternalStore(subscribeToken, getToken);
}

/** What the page knows about access: whether the token may change the registry, and whether reading needs one. */
export interface Access {
  readonly token: string | null;
  /** True once the token is known to be accepted for changes; the admin buttons show only then. */
  readonly canWrite: boolean;
}

export const AccessContext = createContext<Access>({ token: null, canWrite: false });

export function useAccess(): Access {
  return useContext(AccessContext);
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
 * Loads with `load` whenever `key` changes, and on reload(). Answers to
 * superseded loads are dropped, so what is shown is always the newest ask.
 */
export function useLoad<T>(key: string, load: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  const [state, setState] = useState<{ key: string; data: T | null; error: string | null; loading: boolean }>({
    key,
    data: null,
    error: null,
    loading: true,
  });
  const [generation, setGeneration] = useState(0);
  const latestLoad = useRef(load);
  latestLoad.current = load;

  useEffect(() => {
    const controller = new AbortController();
    setState((s) => (s.key === key ? { ...s, loading: true } : { key, data: null, error: null, loading: true }));
    latestLoad.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ key, data, error: null, loading: false });
      },
      (error: unknown) => {
        if (!controller.signal.aborted && !isAbort(error))
          setState((s) => ({ ...s, key, error: describeError(error), loading: false }));
      },
    );
    return () => controller.abort();
  }, [key, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
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
