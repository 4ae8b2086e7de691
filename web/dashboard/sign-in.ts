/**
 * Signing in with OpenID Connect: the authorization-code flow with PKCE, as a
 * public client (no secret), through oauth4webapi. The server names the
 * provider, the client and the audience in the page (data-oidc-* of
 * #dashboard, when OIDC_ISSUER and OIDC_DASHBOARD_CLIENT_ID are set).
 *
 * Sign in: the provider's discovery document, then the browser goes to its
 * authorization endpoint with a code challenge, a state and a nonce; the
 * verifier, state and nonce wait in this tab's sessionStorage for the way
 * back. The provider sends the browser back to the dashboard's root with a
 * code, which is exchanged (with the verifier) for an access token for the
 * registry's audience; the token is kept in memory only (token.ts), and the
 * page returns to where sign-in started. Sign out forgets it.
 */
import * as oauth from 'oauth4webapi';
import { dashboardRoot } from './api';
import { setSignedInToken } from './token';

/** Where the server says to sign in. */
export interface SignInSettings {
  readonly issuer: string;
  readonly clientId: string;
  readonly audience: string;
}

const PENDING = 'registry-dashboard.sign-in';

interface Pending {
  readonly state: string;
  readonly nonce: string;
  readonly verifier: string;
  /** The page's path and query when sign-in started, to return to. */
  readonly returnTo: string;
}

/** The server's sign-in settings, or null when it has none (sign-in is not offered). */
export function signInSettings(): SignInSettings | null {
  const data = document.getElementById('dashboard')?.dataset;
  if (!data?.oidcIssuer || !data.oidcClientId || !data.oidcAudience) return null;
  return { issuer: data.oidcIssuer, clientId: data.oidcClientId, audience: data.oidcAudience };
}

/** The redirect URI: the dashboard's root page (/dashboard, which the server answers with the page). */
function redirectUri(): string {
  return dashboardRoot().href.replace(/\/$/, '');
}

/** oauth4webapi refuses http: unless told; a provider on http: is only allowed outside production (config). */
function insecure(settings: SignInSettings): { [oauth.allowInsecureRequests]?: boolean } {
  return new URL(settings.issuer).protocol === 'http:' ? { [oauth.allowInsecureRequests]: true } : {};
}

async function discover(settings: SignInSettings): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(settings.issuer);
  const response = await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure(settings) });
  return oauth.processDiscoveryResponse(issuer, response);
}

/** The audience as a resource indicator (RFC 8707), when it is an absolute URI as the parameter requires. */
function resourceOf(settings: SignInSettings): Record<string, string> {
  return URL.canParse(settings.audience) ? { resource: settings.audience } : {};
}

/** Sends the browser to the provider's sign-in page. */
export async function startSignIn(settings: SignInSettings): Promise<void> {
  const as = await discover(settings);
  if (!as.authorization_endpoint) throw new Error('the provider names no authorization endpoint');
  const pending: Pending = {
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    verifier: oauth.generateRandomCodeVerifier(),
    returnTo: window.location.pathname + window.location.search,
  };
  const url = new URL(as.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: settings.clientId,
    redirect_uri: redirectUri(),
    response_type: 'code',
    scope: 'openid',
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: 'S256',
    ...resourceOf(settings),
  }).toString();
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  window.location.assign(url.href);
}

/** Whether this page load is the provider sending the browser back (a code or an error, and a sign-in waiting). */
export function isSignInReturn(): boolean {
  const params = new URLSearchParams(window.location.search);
  return (params.has('code') || params.has('error')) && params.has('state') && pendingSignIn() !== null;
}

function pendingSignIn(): Pending | null {
  try {
    const text = sessionStorage.getItem(PENDING);
    return text ? (JSON.parse(text) as Pending) : null;
  } catch {
    return null;
  }
}

/**
 * Finishes a sign-in on the way back: checks the answer's state, exchanges
 * the code, checks the ID token's claims (issuer, audience, nonce, expiry),
 * and uses the access token. The page goes back to where sign-in started,
 * whether it worked or not (the error says why), through `replaceUrl` (the router's).
 */
export async function finishSignIn(settings: SignInSettings, replaceUrl: (url: string) => void): Promise<void> {
  const pending = pendingSignIn();
  const here = new URL(window.location.href);
  sessionStorage.removeItem(PENDING);
  replaceUrl(pending?.returnTo ?? here.pathname);
  if (!pending) throw new Error('no sign-in was waiting for this answer');
  const as = await discover(settings);
  const client: oauth.Client = { client_id: settings.clientId };
  const params = oauth.validateAuthResponse(as, client, here, pending.state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    params,
    redirectUri(),
    pending.verifier,
    { additionalParameters: resourceOf(settings), ...insecure(settings) },
  );
  const result = await oauth.processAuthorizationCodeResponse(as, client, response, {
    expectedNonce: pending.nonce,
    requireIdToken: true,
  });
  setSignedInToken(result.access_token, result.expires_in ?? null);
}

/** Forgets the sign-in's token (the provider's own session is left as it is). */
export function signOut(): void {
  setSignedInToken(null);
}

/** A sign-in failure, for the page. */
export function describeSignInError(error: unknown): string {
  if (error instanceof oauth.AuthorizationResponseError)
    return `the provider refused: ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`;
  if (error instanceof oauth.ResponseBodyError)
    return `the provider's token endpoint refused: ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`;
  if (error instanceof TypeError) return 'the provider cannot be reached';
  return error instanceof Error ? error.message : String(error);
}
