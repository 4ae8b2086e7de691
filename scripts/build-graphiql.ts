/**
 * Bundles the GraphiQL page's browser code (web/graphiql/: GraphiQL 4, React
 * 19) with esbuild into dist/graphiql/: one script and one stylesheet with
 * content-hashed names, a gzip copy of each, and manifest.json naming them,
 * which the server reads (src/http/graphiql.ts).
 *
 * `npm run build:graphiql` (part of `npm run build`, so of `npm start`)
 * builds only when the bundle is missing or older than its sources, as the
 * browser test's ensureGraphiqlBuilt() does; `-- --force` always builds.
 */
import { build, stop } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { defaultGraphiqlDir, GRAPHIQL_MANIFEST, type GraphiqlManifest } from '../src/http/graphiql';

const ROOT = resolve(__dirname, '..');
const WEB = join(ROOT, 'web', 'graphiql');

/** What one build wrote. */
export interface GraphiqlBuild {
  readonly dir: string;
  readonly manifest: GraphiqlManifest;
  /** Bytes per written file, e.g. { 'graphiql-AB12.js': 1400000, 'graphiql-AB12.js.gz': 450000 }. */
  readonly sizes: Record<string, number>;
}

/**
 * Builds into a fresh folder beside `dir`, then puts it in place of `dir`, so
 * a reader never sees a half-written bundle (a running server keeps the copy
 * it has already loaded in memory).
 */
export async function buildGraphiql(dir: string = defaultGraphiqlDir()): Promise<GraphiqlBuild> {
  // esbuild's JS API keeps a service process alive; stop it after the build so a test run can exit.
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [
      { in: join(WEB, 'main.tsx'), out: 'graphiql' },
      { in: join(WEB, 'style.css'), out: 'graphiql' },
    ],
    entryNames: '[name]-[hash]',
    outdir: dir,
    write: false,
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    // GraphiQL's stylesheet inlines its fonts; anything else it points at would be inlined too rather than fetched.
    loader: { '.woff': 'dataurl', '.woff2': 'dataurl', '.ttf': 'dataurl', '.svg': 'dataurl', '.png': 'dataurl' },
    logLevel: 'warning',
  }).finally(() => stop());

  const files = result.outputFiles.map((file) => ({ name: basename(file.path), contents: file.contents }));
  const script = files.find((f) => extname(f.name) === '.js');
  const stylesheet = files.find((f) => extname(f.name) === '.css');
  if (!script || !stylesheet || files.length !== 2)
    throw new Error(`esbuild wrote ${files.map((f) => f.name).join(', ')}; expected one .js and one .css file`);
  const manifest: GraphiqlManifest = { script: script.name, stylesheet: stylesheet.name, gzip: true };

  const staging = `${dir}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const sizes: Record<string, number> = {};
  const write = (name: string, contents: Uint8Array | string) => {
    writeFileSync(join(staging, name), contents);
    sizes[name] = Buffer.byteLength(contents);
  };
  for (const file of files) {
    write(file.name, file.contents);
    write(`${file.name}.gz`, gzipSync(file.contents, { level: 9 }));
  }
  writeFileSync(join(staging, GRAPHIQL_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);

  mkdirSync(dirname(dir), { recursive: true });
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  return { dir, manifest, sizes };
}

/** Newest modification time of the files the bundle is made from (package-lock.json stands for node_modules). */
function newestSourceTime(): number {
  const times = [statSync(join(ROOT, 'package-lock.json')).mtimeMs, statSync(__filename).mtimeMs];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else times.push(statSync(path).mtimeMs);
    }
  };
  walk(WEB);
  return Math.max(...times);
}

/** Whether `dir` holds a complete bundle at least as new as every source file. */
export function graphiqlBuildIsCurrent(dir: string = defaultGraphiqlDir()): boolean {
  const manifestPath = join(dir, GRAPHIQL_MANIFEST);
  if (!existsSync(manifestPath)) return false;
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as GraphiqlManifest;
    if (
      ![manifest.script, manifest.stylesheet].every((name) => typeof name === 'string' && existsSync(join(dir, name)))
    )
      return false;
  } catch {
    return false;
  }
  return statSync(manifestPath).mtimeMs >= newestSourceTime();
}

/** Builds the bundle unless an up-to-date one is there; says which happened. */
export async function ensureGraphiqlBuilt(dir: string = defaultGraphiqlDir()): Promise<'built' | 'current'> {
  if (graphiqlBuildIsCurrent(dir)) return 'current';
  await buildGraphiql(dir);
  return 'built';
}

if (require.main === module) {
  // `npm run build:graphiql` (and so `npm run build` and `npm start`) builds only when the sources changed; --force always builds.
  const force = process.argv.includes('--force');
  const dir = defaultGraphiqlDir();
  if (!force && graphiqlBuildIsCurrent(dir)) {
    console.log(`GraphiQL bundle in ${dir} is up to date (--force rebuilds it)`);
  } else {
    buildGraphiql(dir).then(
      ({ sizes }) => {
        const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} kB`;
        console.log(`GraphiQL bundle in ${dir}:`);
        for (const [name, bytes] of Object.entries(sizes)) console.log(`  ${name.padEnd(36)} ${kb(bytes).padStart(8)}`);
      },
      (error: unknown) => {
        console.error(error instanceof Error ? error.message : error);
        process.exit(1);
      },
    );
  }
}
