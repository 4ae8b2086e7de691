/**
 * The credential every request and the WebSocket send: either the access
 * token of a sign-in (OpenID Connect, see sign-in.ts), kept in memory only,
 * or a token pasted into the token box (an API token, a development token),
 * kept in this tab's sessionStorage (gone when the tab closes, never shared
 * with other tabs or sent anywhere but this server). A sign-in comes first
 * while it lasts; signing out leaves a pasted token as it was.
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

let pasted: string | null = stored();
/** The sign-in's access token, in memory only. */
let signedIn: string | null = null;

function changed(): void {
  for (const listener of listeners) listener();
}

export function getToken(): string | null {
  return signedIn ?? pasted;
}

/** The pasted token, whether or not a sign-in is used instead. */
export function getPastedToken(): string | null {
  return pasted;
}

/** Whether the token sent is a sign-in's (rather than a pasted one, or none). */
export function isSignedIn(): boolean {
  return signedIn !== null;
}

/** Sets (or, with null or blanks, forgets) the pasted token. */
export function setToken(token: string | null): void {
  const next = token?.trim() || null;
  if (next === pasted) return;
  pasted = next;
  try {
    if (next === null) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, next);
  } catch {
    // storage disabled: kept in memory for this page only
  }
  changed();
}

let expiry: ReturnType<typeof setTimeout> | null = null;

/**
 * Uses a sign-in's access token (null: signs out). It is forgotten when it
 * expires, as the server would refuse it from then on.
 */
export function setSignedInToken(token: string | null, expiresInSeconds: number | null = null): void {
  if (expiry !== null) clearTimeout(expiry);
  expiry = null;
  signedIn = token || null;
  if (token && expiresInSeconds !== null)
    expiry = setTimeout(
      () => {
        setSignedInToken(null);
        for (const listener of expiryListeners) listener();
      },
      Math.max(0, expiresInSeconds * 1000),
    );
  changed();
}

const expiryListeners = new Set<Listener>();

/** Called when a sign-in's token expires (and is forgotten). */
export function onSignInExpired(listener: Listener): () => void {
  expiryListeners.add(listener);
  return () => expiryListeners.delete(listener);
}

export function subscribeToken(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
