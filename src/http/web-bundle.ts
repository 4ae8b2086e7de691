import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Logger } from 'pino';

/**
 * A browser page that this server serves from its own files (GraphiQL, the
 * dashboard): one script and one stylesheet with content-hashed names, built
 * by scripts/web-bundle.ts into a folder under dist/, and named by the
 * folder's manifest.json. This module only reads that folder.
 */

/** The file in a bundle folder that names the hashed files. */
export const BUNDLE_MANIFEST = 'manifest.json';

/** manifest.json, written by scripts/web-bundle.ts. */
export interface BundleManifest {
  /** The script's file name, content-hashed, e.g. graphiql-3F2K7QZB.js. */
  readonly script: string;
  /** The stylesheet's file name, content-hashed. */
  readonly stylesheet: string;
  /** Whether each file has a gzip copy beside it (<name>.gz). */
  readonly gzip: boolean;
}

/** Hashed names never change content, so browsers may keep them for a year without asking again. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

interface Asset {
  readonly body: Buffer;
  readonly gzip: Buffer | null;
  readonly contentType: string;
}

interface Loaded {
  readonly manifest: BundleManifest;
  readonly pages: Map<string, string>;
  readonly assets: ReadonlyMap<string, Asset>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** What tells one bundle from another. */
export interface WebBundleOptions {
  /** What the page is called in log lines, e.g. "GraphiQL". */
  readonly title: string;
  /** Where the page is, for log lines, e.g. "GET /graphql". */
  readonly route: string;
  /** The command that builds the bundle, e.g. "npm run build:graphiql". */
  readonly buildCommand: string;
  /** The page's HTML, naming the hashed files; `variant` tells versions of one page apart (the dashboard's: where it is). */
  readonly renderPage: (manifest: BundleManifest, variant: string) => string;
  /** The page answered, with status 503, while the bundle is not built. */
  readonly notBuiltPage: string;
}

/**
 * A built bundle, read into memory once. While it is missing, every page or
 * asset request looks again, so building it while the server runs is enough;
 * once read, a rebuild does not change what this process serves (its hashed
 * names stay valid until a restart).
 */
export class WebBundle {
  private loaded: Loaded | null = null;
  private warned = false;

  constructor(
    readonly dir: string,
    private readonly options: WebBundleOptions,
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
          `${this.options.title} is not built; ${this.options.route} answers 503 to browsers until \`${this.options.buildCommand}\` runs`,
        );
      }
    }
    return this.loaded;
  }

  /** The page's HTML (made once per variant), or the "not built" page. */
  page(variant = ''): string {
    const loaded = this.load();
    if (!loaded) return this.options.notBuiltPage;
    let page = loaded.pages.get(variant);
    if (page === undefined) {
      page = this.options.renderPage(loaded.manifest, variant);
      loaded.pages.set(variant, page);
    }
    return page;
  }

  /** Whether `html` is this bundle's "not built" page (answered with 503). */
  isNotBuiltPage(html: unknown): boolean {
    return html === this.options.notBuiltPage;
  }

  private read(): Loaded {
    const manifest = JSON.parse(readFileSync(join(this.dir, BUNDLE_MANIFEST), 'utf8')) as Partial<BundleManifest>;
    const assets = new Map<string, Asset>();
    for (const name of [manifest.script, manifest.stylesheet]) {
      // The names go into HTML and URLs unescaped: accept only what esbuild writes.
      if (typeof name !== 'string' || !/^[A-Za-z0-9_-]+\.(js|css)$/.test(name))
        throw new Error(`${BUNDLE_MANIFEST} names an unexpected file: ${JSON.stringify(name)}`);
      assets.set(name, {
        body: readFileSync(join(this.dir, name)),
        gzip: manifest.gzip === true ? readFileSync(join(this.dir, `${name}.gz`)) : null,
        contentType: CONTENT_TYPES[extname(name)],
      });
    }
    return { manifest: manifest as BundleManifest, pages: new Map(), assets };
  }
}

/** GET <path><hashed name>: a bundle's files, gzipped when the client accepts it, cached for a year. Anything else is the usual 404. */
export function registerBundleAssets(fastify: FastifyInstance, path: string, bundle: WebBundle): void {
  fastify.get<{ Params: { file: string } }>(`${path}:file`, async (request, reply) => {
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
