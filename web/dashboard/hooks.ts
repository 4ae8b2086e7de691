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
