import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { extname, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { OidcConfig } from '../config';
import { registerBundleAssets, WebBundle, type BundleManifest } from './web-bundle';

/**
 * The dashboard: a single-page app (web/dashboard/, React) that talks to
 * /graphql like any other client. `GET /dashboard` answers a small HTML page
 * that loads one script and one stylesheet from /dashboard/; so does every
 * page's own URL (/dashboard/tools/<name>, /dashboard/matrix, …: see
 * DASHBOARD_VIEWS), so a page can be bookmarked, shared and reloaded, and the
 * app picks the view from the path. scripts/build-dashboard.ts bundles the
 * files into dist/dashboard/; this module only reads that folder.
 */

/** Where the page is. */
export const DASHBOARD_PATH = '/dashboard';

/** The URL path the bundle's files are served under. */
export const DASHBOARD_ASSETS_PATH = '/dashboard/';

/**
 * The dashboard's views, each at /dashboard/<view>; those marked true also
 * have a page per thing, /dashboard/<view>/<name> (the name URL-encoded, or
 * with its slashes as they are). web/dashboard/route.ts reads the same paths.
 */
export const DASHBOARD_VIEWS: Readonly<Record<string, boolean>> = {
  matrix: false,
  history: false,
  tools: true,
  projects: true,
  resources: true,
  types: true,
};

/**
 * The page's security policy: its script, styles and requests only from this
 * origin. `connect-src 'self'` covers both the POSTs to /graphql and the
 * WebSocket to the same URL (CSP Level 3 lets 'self' match ws: and wss: on
 * the page's own host and port). Unlike GraphiQL's, styles need no
 * 'unsafe-inline': the app sets no style attributes through HTML.
 */
export const DASHBOARD_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * What the page needs to sign in with OpenID Connect (authorization code +
 * PKCE, a public client): set when OIDC_ISSUER and OIDC_DASHBOARD_CLIENT_ID
 * are. The page gets it in data attributes of its #dashboard element.
 */
export interface DashboardSignIn {
  /** OIDC_ISSUER: where the page finds the provider (its discovery document). */
  readonly issuer: string;
  /** OIDC_DASHBOARD_CLIENT_ID. */
  readonly clientId: string;
  /** OIDC_AUDIENCE: the page asks for an access token for it (the `resource` parameter). */
  readonly audience: string;
}

/** The dashboard's sign-in, from the OIDC settings: null unless both the issuer and the dashboard's client are set. */
export function dashboardSignInOf(oidc: OidcConfig | null | undefined): DashboardSignIn | null {
  if (!oidc?.dashboardClientId) return null;
  return { issuer: oidc.issuer, clientId: oidc.dashboardClientId, audience: oidc.audience };
}

/**
 * The policy with sign-in: the page also fetches the provider's discovery
 * document and exchanges the code at its token endpoint, so connect-src adds
 * the issuer's origin (and nothing else).
 */
export function dashboardContentSecurityPolicy(signIn: DashboardSignIn | null): string {
  if (!signIn) return DASHBOARD_CONTENT_SECURITY_POLICY;
  const origin = new URL(signIn.issuer).origin;
  return DASHBOARD_CONTENT_SECURITY_POLICY.replace("connect-src 'self'", `connect-src 'self' ${origin}`);
}

/** Answered, with status 503, while the bundle is not built. */
export const DASHBOARD_NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>The dashboard is not built</title></head>
<body>
<h1>The dashboard is not built</h1>
<p>This server serves its dashboard from its own files, and they have not been built yet.
Run <code>npm run build:dashboard</code> (<code>npm run build</code> and <code>npm start</code> do it too), then reload this page.</p>
<p>The GraphQL endpoint itself works: POST queries to <code>/graphql</code>.</p>
</body>
</html>
`;

/** dist/dashboard of this checkout, whether this file runs from src/http (tests, scripts) or from dist/src/http (npm start). */
export function defaultDashboardDir(): string {
  const fromSource = extname(__filename) === '.ts';
  return fromSource ? resolve(__dirname, '..', '..', 'dist', 'dashboard') : resolve(__dirname, '..', '..', 'dashboard');
}

/** The built dashboard bundle; its page() is the HTML for GET /dashboard. */
export class DashboardBundle extends WebBundle {
  constructor(
    dir: string,
    log?: Pick<Logger, 'warn'>,
    readonly signIn: DashboardSignIn | null = null,
  ) {
    super(
      dir,
      {
        title: 'The dashboard',
        route: `GET ${DASHBOARD_PATH}`,
        buildCommand: 'npm run build:dashboard',
        renderPage: (manifest, prefix) => renderPage(manifest, prefix, signIn),
        notBuiltPage: DASHBOARD_NOT_BUILT_PAGE,
      },
      log,
    );
  }
}

/**
 * Where the page's files are from a page's URL path, as a relative URL: the
 * folder /dashboard/, whatever the depth of the path below it ("dashboard/"
 * from /dashboard, "" from /dashboard/tools, "../" from /dashboard/tools/x).
 * Made only from the number of slashes, never from the path's text.
 */
export function assetPrefix(path: string): string {
  const depth = path.split('?')[0].split('/').length - 2;
  return depth <= 0 ? 'dashboard/' : '../'.repeat(depth - 1);
}

/** Text for an HTML attribute's double-quoted value. */
function attribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The #dashboard element's sign-in attributes (none without sign-in). */
function signInAttributes(signIn: DashboardSignIn | null): string {
  if (!signIn) return '';
  return ` data-oidc-issuer="${attribute(signIn.issuer)}" data-oidc-client-id="${attribute(
    signIn.clientId,
  )}" data-oidc-audience="${attribute(signIn.audience)}"`;
}

/**
 * The page. Asset URLs are relative (see assetPrefix), and so is the root the
 * app finds its views and the GraphQL endpoint from (data-root), so the page
 * also works behind a proxy that serves this server under a path prefix.
 */
function renderPage(manifest: BundleManifest, prefix: string, signIn: DashboardSignIn | null): string {
  const asset = (name: string) => `${prefix || './'}${name}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Dashboard · tool/resource registry</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${asset(manifest.stylesheet)}">
<script defer src="${asset(manifest.script)}"></script>
</head>
<body>
<div id="dashboard" data-root="${prefix || './'}"${signInAttributes(signIn)}><p class="boot">Loading the dashboard…</p></div>
<noscript>The dashboard needs JavaScript. The GraphQL endpoint is /graphql.</noscript>
</body>
</html>
`;
}

/**
 * GET /dashboard, and each view's path (DASHBOARD_VIEWS): the page (no-cache,
 * as it names the current hashed files; 503 with how to build it while it is
 * not built), with its security policy. GET /dashboard/ sends the browser to
 * /dashboard. GET /dashboard/<hashed name>: the bundle's files, cached for a
 * year, gzipped when accepted.
 */
export function registerDashboard(fastify: FastifyInstance, bundle: DashboardBundle): void {
  const policy = dashboardContentSecurityPolicy(bundle.signIn);
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    const html = bundle.page(assetPrefix(request.url));
    return reply
      .code(bundle.isNotBuiltPage(html) ? 503 : 200)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', policy)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(html);
  };
  fastify.get(DASHBOARD_PATH, page);
  for (const [view, things] of Object.entries(DASHBOARD_VIEWS)) {
    fastify.get(`${DASHBOARD_ASSETS_PATH}${view}`, page);
    if (things) fastify.get(`${DASHBOARD_ASSETS_PATH}${view}/*`, page);
  }
  fastify.get(DASHBOARD_ASSETS_PATH, async (_request, reply) => reply.redirect('../dashboard', 301));
  registerBundleAssets(fastify, DASHBOARD_ASSETS_PATH, bundle);
}
