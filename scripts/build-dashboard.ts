/**
 * Bundles the dashboard's browser code (web/dashboard/: React 19, graphql-ws's
 * client) with esbuild into dist/dashboard/: one script and one stylesheet
 * with content-hashed names, a gzip copy of each, and manifest.json naming
 * them, which the server reads (src/http/dashboard.ts).
 *
 * `npm run build:dashboard` (part of `npm run build`, so of `npm start`)
 * builds only when the bundle is missing or older than its sources, as the
 * browser test's ensureDashboardBuilt() does; `-- --force` always builds.
 */
import { join, resolve } from 'node:path';
import { defaultDashboardDir } from '../src/http/dashboard';
import {
  buildFromCommandLine,
  buildWebBundle,
  ensureWebBundleBuilt,
  webBundleIsCurrent,
  type WebBundleBuild,
  type WebBundleSpec,
} from './web-bundle';

const DASHBOARD: WebBundleSpec = {
  web: join(resolve(__dirname, '..'), 'web', 'dashboard'),
  script: 'main.tsx',
  stylesheet: 'style.css',
  name: 'dashboard',
  alsoFrom: [__filename],
};

/** Builds dist/dashboard (or `dir`), replacing what was there in one step. */
export function buildDashboard(dir: string = defaultDashboardDir()): Promise<WebBundleBuild> {
  return buildWebBundle(DASHBOARD, dir);
}

/** Whether `dir` holds a complete bundle at least as new as every source file. */
export function dashboardBuildIsCurrent(dir: string = defaultDashboardDir()): boolean {
  return webBundleIsCurrent(DASHBOARD, dir);
}

/** Builds the bundle unless an up-to-date one is there; says which happened. */
export function ensureDashboardBuilt(dir: string = defaultDashboardDir()): Promise<'built' | 'current'> {
  return ensureWebBundleBuilt(DASHBOARD, dir);
}

if (require.main === module) buildFromCommandLine('Dashboard', DASHBOARD, defaultDashboardDir());
