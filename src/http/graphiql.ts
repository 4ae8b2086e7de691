import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { FastifyInstance, onSendHookHandler } from 'fastify';
import { readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import type { Logger } from 'pino';

/**
 * GraphiQL, served by this server and nothing else: `GET /graphql` from a
 * browser (Accept: text/html) answers with a small HTML page (Apollo's landing
 * page, rendered by the plugin below), which loads one script and one
 * stylesheet from /graphiql/. scripts/build-graphiql.ts bundles them from
 * web/graphiql/ into dist/graphiql/; this module only reads that folder.
 */

/** The file in the bundle folder that names the hashed files. */
export const GRAPHIQL_MANIFEST = 'manifest.json';

/** The URL path the bundle's files are served under. */
export const GRAPHIQL_ASSETS_PATH = '/graphiql/';

/** manifest.json, written by scripts/build-graphiql.ts. */
export interface GraphiqlManifest {
  /** The script's file name, content-hashed, e.g. graphiql-3F2K7QZB.js. */
  readonly script: string;
  /** The stylesheet's file name, content-hashed. */
  readonly stylesheet: string;
  /** Whether each file has a gzip copy beside it (<name>.gz). */
  readonly gzip: boolean;
}

/** Hashed names never change content, so browsers may keep them for a year without asking again. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

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

interface Asset {
  readonly body: Buffer;
  readonly gzip: Buffer | null;
  readonly contentType: string;
}

interface Loaded {
  readonly page: string;
  readonly assets: ReadonlyMap<string, Asset>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * The built bundle, read into memory once (about 1.7 MB, and 0.7 MB more of
 * gzip copies). While it is missing, every page or asset request looks again,
 * so building it while the server runs is enough; once read, a rebuild does
 * not change what this process serves (its hashed names stay valid until a
 * restart).
 */
export class GraphiqlBundle {
  private loaded: Loaded | null = null;
  private warned = false;

  constructor(
    readonly dir: string,
    private readonly log?: Pick<Logger, 'warn'>,
  ) {}

  /** The page and its files, or null while the bundle is not built. */
  load(): Loaded | null {
    if (this.loaded) return this.loaded;
    try {
      this.loaded = this.read();
    } catch (error) {
      if (!this.warned) {
        this.warned = true;
        this.log?.warn(
          { dir: this.dir, reason: (error as Error).message },
          'GraphiQL is not built; GET /graphql answers 503 to browsers until `npm run build:graphiql` runs',
        );
      }
    }
    return this.loaded;
  }

  /** The HTML for GET /graphql, or the "not built" page. */
  page(): string {
    return this.load()?.page ?? GRAPHIQL_NOT_BUILT_PAGE;
  }

  private read(): Loaded {
    const manifest = JSON.parse(readFileSync(join(this.dir, GRAPHIQL_MANIFEST), 'utf8')) as Partial<GraphiqlManifest>;
    const assets = new Map<string, Asset>();
    for (const name of [manifest.script, manifest.stylesheet]) {
      // The names go into HTML and URLs unescaped: accept only what esbuild writes.
      if (typeof name !== 'string' || !/^[A-Za-z0-9_-]+\.(js|css)$/.test(name))
        throw new Error(`${GRAPHIQL_MANIFEST} names an unexpected file: ${JSON.stringify(name)}`);
      assets.set(name, {
        body: readFileSync(join(this.dir, name)),
        gzip: manifest.gzip === true ? readFileSync(join(this.dir, `${name}.gz`)) : null,
        contentType: CONTENT_TYPES[extname(name)],
      });
    }
    return { page: renderPage(manifest as GraphiqlManifest), assets };
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
  fastify.get<{ Params: { file: string } }>(`${GRAPHIQL_ASSETS_PATH}:file`, async (request, reply) => {
    const asset = bundle.load()?.assets.get(request.params.file);
    if (!asset) return reply.callNotFound();
    const gzip = asset.gzip !== null && acceptsGzip(request.headers['accept-encoding']);
    void reply
      .header('content-type', asset.contentType)
      .header('cache-control', IMMUTABLE)
      .header('x-content-type-options', 'nosniff');
    if (asset.gzip) void reply.header('vary', 'accept-encoding');
    if (gzip) void reply.header('content-encoding', 'gzip');
    return reply.send(gzip ? asset.gzip : asset.body);
  });
}

/** Whether an Accept-Encoding header allows gzip (`gzip`, `x-gzip` or `*`, with a q above 0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let gzip: number | undefined;
  let any: number | undefined;
  for (const part of header.split(',')) {
    const [coding, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (coding === 'gzip' || coding === 'x-gzip') gzip = weight;
    else if (coding === '*') any = weight;
  }
  const weight = gzip ?? any ?? 0;
  return Number.isFinite(weight) && weight > 0;
}
