/**
 * Removes compiled files of dist/ whose TypeScript source is gone (`npm run
 * build` runs it before `tsc -b`). tsc in build mode recompiles what changed
 * but never deletes the output of a deleted or moved source, and a stale
 * `dist/src/config.js` beside a new `dist/src/config/` would be what
 * `require('./config')` finds. Only .js, .js.map and .d.ts files are removed.
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..');
const DIST = join(ROOT, 'dist');
const COMPILED = /\.(js|js\.map|d\.ts)$/;

/** The compiled files under `dir` whose source (the same path under the repository, as .ts) does not exist. */
export function staleOutputs(dist: string, root: string, dir = dist): string[] {
  const stale: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      stale.push(...staleOutputs(dist, root, path));
      continue;
    }
    if (!COMPILED.test(name)) continue;
    const source = join(root, relative(dist, path).replace(COMPILED, '.ts'));
    if (!existsSync(source)) stale.push(path);
  }
  return stale;
}

if (require.main === module) {
  // Only the TypeScript output: the web bundles (dist/graphiql, dist/dashboard) are built, and pruned, by their scripts.
  for (const part of ['src', 'scripts']) {
    const dir = join(DIST, part);
    if (!existsSync(dir)) continue;
    for (const path of staleOutputs(DIST, ROOT, dir)) rmSync(path);
  }
  if (existsSync(join(DIST, 'ormconfig.js')) && !existsSync(join(ROOT, 'ormconfig.ts')))
    rmSync(join(DIST, 'ormconfig.js'));
}
