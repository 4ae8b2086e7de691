import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/** A user the provider signs in: its subject is the login name typed on the sign-in page. */
export interface OidcUser {
  readonly groups?: readonly string[];
}

/** A real OpenID Provider (oidc-provider) running in this process on loopback, for tests. */
export interface TestOidcProvider {
  /** Its issuer URL (OIDC_ISSUER): http://127.0.0.1:<port>. */
  readonly issuer: string;
  /** Where its signing keys are (what discovery points to). */
  readonly jwksUrl: string;
  /** The audience its access tokens carry by default (OIDC_AUDIENCE): the registry's resource indicator. */
  readonly audience: string;
  /** A public client (no secret) for the authorization-code flow with PKCE, as the dashboard uses: OIDC_DASHBOARD_CLIENT_ID. */
  readonly clientId: string;
  /** The redirect URIs the public client may use. */
  readonly redirectUris: readonly string[];
  /** The private key it signs with now (a JWK with kid and alg), for tests that make tokens of their own with it. */
  signingKey(): JWK;
  /**
   * Signs `subject` in through the provider's own pages and endpoints (the
   * authorization-code flow with PKCE of the public client: the sign-in form,
   * then the code exchanged at the token endpoint) and returns the access
   * token it issues: a JWT for `resource` (default: the audience).
   */
  signIn(subject: string, options?: { resource?: string }): Promise<{ accessToken: string; idToken: string }>;
  /** Starts signing with a new key, still publishing the old one (a rotation), without a restart of anything. */
  rotateKeys(): Promise<void>;
  /**
   * Lets the public client redirect to `uri` too (and so, from its origin,
   * call the token endpoint: CORS), e.g. the dashboard of a server started
   * after the provider. Sessions and grants so far are forgotten.
   */
  allowRedirect(uri: string): void;
  /** How many times its keys were fetched (the JWKS endpoint served). */
  readonly jwksFetches: number;
  close(): Promise<void>;
}

const CLIENT_ID = 'registry-dashboard';
const SCOPE = 'registry';

/**
 * Starts oidc-provider (certified, pure Node) on 127.0.0.1 with:
 * - `users`: accounts by login name, each with its `groups` (a claim of the
 *   access tokens it issues, as the registry's OIDC_GROUPS_CLAIM reads);
 * - one public client, `registry-dashboard`, for the authorization-code flow
 *   with PKCE (S256 required), redirecting to `redirectUris`;
 * - JWT access tokens (RS256) for any resource indicator, the registry's
 *   `audience` by default;
 * - its development sign-in page (a login name, no password), and consent
 *   given at once, so a browser test signs in with one form.
 * Its keys can be rotated while it runs (`rotateKeys`).
 */
export async function startOidcProvider(
  options: {
    users?: Record<string, OidcUser>;
    audience?: string;
    redirectUris?: readonly string[];
    accessTokenTtlSeconds?: number;
  } = {},
): Promise<TestOidcProvider> {
  const users = options.users ?? {};
  let provider: Provider | null = null;
  let jwksFetches = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/jwks')) jwksFetches += 1;
    if (!provider) {
      res.statusCode = 503;
      res.end();
      return;
    }
    void provider.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const audience = options.audience ?? 'https://registry.test/';
  const redirectUris: string[] = [...(options.redirectUris ?? []), `${issuer}/test-callback`];
  const keys: JWK[] = [await newSigningKey()];

  const build = () => {
    const made = new Provider(
      issuer,
      configuration({ users, audience, redirectUris, keys, ttl: options.accessTokenTtlSeconds }),
    );
    // A failure inside the provider is a broken test set-up: say what it was.
    made.on('server_error', (_ctx, error) => console.error('test OpenID Provider:', error));
    return made;
  };
  provider = build();

  const result: TestOidcProvider = {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    audience,
    clientId: CLIENT_ID,
    redirectUris,
    signingKey: () => keys[0],
    signIn: (subject, signInOptions = {}) =>
      signInThrough(issuer, `${issuer}/test-callback`, subject, signInOptions.resource ?? audience),
    async rotateKeys() {
      keys.unshift(await newSigningKey());
      provider = build();
    },
    allowRedirect(uri) {
      redirectUris.push(uri);
      provider = build();
    },
    get jwksFetches() {
      return jwksFetches;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return result;
}

/** oidc-provider's configuration for the test provider. */
function configuration(settings: {
  users: Record<string, OidcUser>;
  audience: string;
  redirectUris: readonly string[];
  keys: readonly JWK[];
  ttl?: number;
}): Configuration {
  const { users, audience, redirectUris, keys } = settings;
  return {
    clients: [
      {
        client_id: CLIENT_ID,
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [...redirectUris],
      },
    ],
    jwks: { keys: keys.map((key) => ({ ...key })) },
    scopes: ['openid', SCOPE],
    claims: { openid: ['sub'], [SCOPE]: ['groups'] },
    pkce: { required: () => true },
    ttl: { Session: 3600, Interaction: 600, Grant: 3600, AuthorizationCode: 60, IdToken: 300 },
    features: {
      devInteractions: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => ({
          scope: SCOPE,
          audience: resource,
          accessTokenFormat: 'jwt',
          accessTokenTTL: settings.ttl ?? 300,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    async findAccount(_ctx, id) {
      return { accountId: id, claims: async () => ({ sub: id, groups: [...(users[id]?.groups ?? [])] }) };
    },
    // The registry reads groups from the access token.
    async extraTokenClaims(_ctx, token) {
      const accountId = (token as { accountId?: string }).accountId;
      return accountId ? { groups: [...(users[accountId]?.groups ?? [])] } : undefined;
    },
    // Consent is given at once: signing in is one form.
    async loadExistingGrant(ctx) {
      const { client, session, params } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(`openid ${SCOPE}`);
      const resource = typeof params?.resource === 'string' ? params.resource : audience;
      grant.addResourceScope(resource, SCOPE);
      await grant.save();
      return grant;
    },
  };
}

async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' };
}

/** A cookie jar good enough for one provider on one origin. */
class Cookies {
  private readonly jar = new Map<string, string>();

  take(response: Response): void {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = pair.indexOf('=');
      this.jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }

  header(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** The authorization-code flow with PKCE, through the provider's pages, as a browser would go through it. */
async function signInThrough(
  issuer: string,
  redirectUri: string,
  subject: string,
  resource: string,
): Promise<{ accessToken: string; idToken: string }> {
  const cookies = new Cookies();
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const get = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(new URL(url, issuer), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: cookies.header() },
    });
    cookies.take(response);
    return response;
  };
  const authorize = new URL('/auth', issuer);
  authorize.search = new URLSearchParams({
    client_id: CLIENT_ID,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: `openid ${SCOPE}`,
    resource,
    state: randomBytes(8).toString('hex'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  let response = await get(authorize.toString());
  let location = response.headers.get('location');
  // The sign-in page, then back to the authorization endpoint, until it redirects to the client with a code.
  for (let step = 0; step < 6 && location && !location.startsWith(redirectUri); step++) {
    if (/\/interaction\/[^/]+$/.test(location)) {
      await get(location);
      response = await get(location, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ prompt: 'login', login: subject }).toString(),
      });
    } else {
      response = await get(location);
    }
    location = response.headers.get('location');
  }
  if (!location?.startsWith(redirectUri)) {
    throw new Error(`sign-in did not come back to the client (status ${response.status}): ${await response.text()}`);
  }
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`no code in ${location}`);
  const token = await fetch(new URL('/token', issuer), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: CLIENT_ID,
      code_verifier: verifier,
      resource,
    }).toString(),
  });
  const body = (await token.json()) as { access_token?: string; id_token?: string; error?: string };
  if (!body.access_token || !body.id_token) throw new Error(`the token endpoint refused: ${JSON.stringify(body)}`);
  return { accessToken: body.access_token, idToken: body.id_token };
}
