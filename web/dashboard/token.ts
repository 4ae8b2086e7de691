/**
 * The token from the token box. It is kept in this tab's sessionStorage
 * (gone when the tab closes, never shared with other tabs or sent anywhere
 * but this server), and read by every request and by the WebSocket.
 */

const KEY = 'registry-dashboard.token';

type Listener = () => void;
const listeners = new Set<Listener>();

function stored(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null; // storage disabled: the token lives in memory only
  }
}

let current: string | null = stored();

export function getToken(): string | null {
  return current;
}

/** Sets (or, with null or blanks, forgets) the token. */
export function setToken(token: string | null): void {
  const next = token?.trim() || null;
  if (next === current) return;
  current = next;
  try {
    if (next === null) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, next);
  } catch {
    // storage disabled: kept in memory for this page only
  }
  for (const listener of listeners) listener();
}

export function subscribeToken(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
