import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { FastifyInstance, onSendHookHandler } from 'fastify';
import { extname, resolve } from 'node:path';
import type { Logger } from 'pino';
import { BUNDLE_MANIFEST, registerBundleAssets, WebBundle, type BundleManifest } from './web-bundle';

export { acceptsGzip } from './web-bundle';

/**
 * GraphiQL, served by this server and nothing else: `GET /graphql` from a
 * browser (Accept: text/html) answers with a small HTML page (Apollo's landing
 * page, rendered by the plugin below), which loads one script and one
 * stylesheet from /graphiql/. scripts/build-graphiql.ts bundles them from
 * web/graphiql/ into dist/graphiql/; this module only reads that folder.
 */

/** The file in the bundle folder that names the hashed files. */
export const GRAPHIQL_MANIFEST = BUNDLE_MANIFEST;

/** The URL path the bundle's files are served under. */
export const GRAPHIQL_ASSETS_PATH = '/graphiql/';

/** manifest.json, written by scripts/build-graphiql.ts. */
export type GraphiqlManifest = BundleManifest;

/**
 * The page's security policy: scripts, styles and requests only from this
 * origin (GraphiQL's fonts are data: URLs inside its stylesheet). It also makes
 * the "nothing from another host" promise hold if a later GraphiQL version
 * tried otherwise.
 */
export const GRAPHIQL_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  // CodeMirror and GraphiQL set style attributes from script.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Answered, with status 503, while the bundle is not built. */
export const GRAPHIQL_NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>GraphiQL is not built</title></head>
<body>
<h1>GraphiQL is not built</h1>
<p>This server serves GraphiQL from its own files, and they have not been built yet.
Run <code>npm run build:graphiql</code> (<code>npm run build</code> and <code>npm start</code> do it too), then reload this page.</p>
<p>The GraphQL endpoint itself works: POST queries to this URL.</p>
</body>
</html>
`;

/** dist/graphiql of this checkout, whether this file runs from src/http (tests, scripts) or from dist/src/http (npm start). */
export function defaultGraphiqlDir(): string {
  const fromSource = extname(__filename) === '.ts';
  return fromSource ? resolve(__dirname, '..', '..', 'dist', 'graphiql') : resolve(__dirname, '..', '..', 'graphiql');
}

/** The built GraphiQL bundle (about 1.7 MB, and 0.7 MB more of gzip copies, once read); its page() is the HTML for GET /graphql. */
export class GraphiqlBundle extends WebBundle {
  constructor(dir: string, log?: Pick<Logger, 'warn'>) {
    super(
      dir,
      {
        title: 'GraphiQL',
        route: 'GET /graphql',
        buildCommand: 'npm run build:graphiql',
        renderPage,
        notBuiltPage: GRAPHIQL_NOT_BUILT_PAGE,
      },
      log,
    );
  }
}

/**
 * The page. Asset URLs are relative (graphiql/… from /graphql), so the page
 * also works behind a proxy that serves this server under a path prefix.
 */
function renderPage(manifest: GraphiqlManifest): string {
  const asset = (name: string) => `.${GRAPHIQL_ASSETS_PATH}${name}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphiQL · tool/resource registry</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${asset(manifest.stylesheet)}">
<script defer src="${asset(manifest.script)}"></script>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<noscript>GraphiQL needs JavaScript. The GraphQL endpoint itself is this URL: POST queries to it.</noscript>
</body>
</html>
`;
}

/** Apollo's landing page (what GET /graphql answers to a browser): our GraphiQL page instead of Apollo Sandbox from a CDN. */
export function graphiqlLandingPage<TContext extends BaseContext>(
  bundle: GraphiqlBundle,
): ApolloServerPlugin<TContext> {
  return {
    async serverWillStart() {
      return {
        async renderLandingPage() {
          // A function, not a string: rendered per request, so a bundle built after start-up is picked up.
          return { html: async () => bundle.page() };
        },
      };
    },
  };
}

/**
 * For the /graphql route: Apollo sends its landing page as `text/html` with
 * status 200 and no other headers. This adds the charset, the security policy
 * and no-cache (the page names the current hashed files), and turns the
 * "not built" page into a 503. GraphQL responses pass untouched.
 */
export function graphiqlPageHeaders(): onSendHookHandler {
  return (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('text/html')) return done(null, payload);
    void reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', GRAPHIQL_CONTENT_SECURITY_POLICY)
      .header('x-content-type-options', 'nosniff');
    if (payload === GRAPHIQL_NOT_BUILT_PAGE) void reply.code(503);
    done(null, payload);
  };
}

/** GET /graphiql/<hashed name>: the bundle's files, gzipped when the client accepts it, cached for a year. Anything else is the usual 404. */
export function registerGraphiqlAssets(fastify: FastifyInstance, bundle: GraphiqlBundle): void {
  registerBundleAssets(fastify, GRAPHIQL_ASSETS_PATH, bundle);
}
