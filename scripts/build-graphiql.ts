/**
 * Bundles the GraphiQL page's browser code (web/graphiql/: GraphiQL 4, React
 * 19) with esbuild into dist/graphiql/: one script and one stylesheet with
 * content-hashed names, a gzip copy of each, and manifest.json naming them,
 * which the server reads (src/http/graphiql.ts). The build itself is
 * scripts/web-bundle.ts, shared with the dashboard.
 *
 * `npm run build:graphiql` (part of `npm run build`, so of `npm start`)
 * builds only when the bundle is missing or older than its sources, as the
 * browser test's ensureGraphiqlBuilt() does; `-- --force` always builds.
 */
import { join, resolve } from 'node:path';
import { defaultGraphiqlDir } from '../src/http/graphiql';
import {
  buildFromCommandLine,
  buildWebBundle,
  ensureWebBundleBuilt,
  webBundleIsCurrent,
  type WebBundleBuild,
  type WebBundleSpec,
} from './web-bundle';

const GRAPHIQL: WebBundleSpec = {
  web: join(resolve(__dirname, '..'), 'web', 'graphiql'),
  script: 'main.tsx',
  stylesheet: 'style.css',
  name: 'graphiql',
  // GraphiQL's stylesheet inlines its fonts; anything else it points at would be inlined too rather than fetched.
  inline: { '.woff': 'dataurl', '.woff2': 'dataurl', '.ttf': 'dataurl', '.svg': 'dataurl', '.png': 'dataurl' },
  alsoFrom: [__filename],
};

/** What one build wrote. */
export type GraphiqlBuild = WebBundleBuild;

/** Builds dist/graphiql (or `dir`), replacing what was there in one step. */
export function buildGraphiql(dir: string = defaultGraphiqlDir()): Promise<GraphiqlBuild> {
  return buildWebBundle(GRAPHIQL, dir);
}

/** Whether `dir` holds a complete bundle at least as new as every source file. */
export function graphiqlBuildIsCurrent(dir: string = defaultGraphiqlDir()): boolean {
  return webBundleIsCurrent(GRAPHIQL, dir);
}

/** Builds the bundle unless an up-to-date one is there; says which happened. */
export function ensureGraphiqlBuilt(dir: string = defaultGraphiqlDir()): Promise<'built' | 'current'> {
  return ensureWebBundleBuilt(GRAPHIQL, dir);
}

if (require.main === module) buildFromCommandLine('GraphiQL', GRAPHIQL, defaultGraphiqlDir());
