/**
 * Bundles a browser page's code (a folder under web/) with esbuild into a
 * folder under dist/: one script and one stylesheet with content-hashed
 * names, a gzip copy of each, and manifest.json naming them, which the server
 * reads (src/http/web-bundle.ts). scripts/build-graphiql.ts and
 * scripts/build-dashboard.ts are the two bundles built this way.
 */
import { build, stop, type Loader } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BUNDLE_MANIFEST, type BundleManifest } from '../src/http/web-bundle';

const ROOT = resolve(__dirname, '..');

/** One bundle: where its sources are, what its files are called, and where it goes. */
export interface WebBundleSpec {
  /** The folder of the page's sources, e.g. web/graphiql. */
  readonly web: string;
  /** The script entry and the stylesheet entry, inside `web`. */
  readonly script: string;
  readonly stylesheet: string;
  /** The files' name before the hash, e.g. graphiql → graphiql-3F2K7QZB.js. */
  readonly name: string;
  /** Files the stylesheet points at, inlined as data: URLs rather than fetched (by extension). */
  readonly inline?: Record<string, Loader>;
  /** Other files whose change makes a built bundle stale (the build script itself). */
  readonly alsoFrom?: readonly string[];
}

/** What one build wrote. */
export interface WebBundleBuild {
  readonly dir: string;
  readonly manifest: BundleManifest;
  /** Bytes per written file, e.g. { 'graphiql-AB12.js': 1400000, 'graphiql-AB12.js.gz': 450000 }. */
  readonly sizes: Record<string, number>;
}

/**
 * Builds into a fresh folder beside `dir`, then puts it in place of `dir`, so
 * a reader never sees a half-written bundle (a running server keeps the copy
 * it has already loaded in memory).
 */
export async function buildWebBundle(spec: WebBundleSpec, dir: string): Promise<WebBundleBuild> {
  // esbuild's JS API keeps a service process alive; stop it after the build so a test run can exit.
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [
      { in: join(spec.web, spec.script), out: spec.name },
      { in: join(spec.web, spec.stylesheet), out: spec.name },
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
    loader: spec.inline ?? {},
    logLevel: 'warning',
  }).finally(() => stop());

  const files = result.outputFiles.map((file) => ({ name: basename(file.path), contents: file.contents }));
  const script = files.find((f) => extname(f.name) === '.js');
  const stylesheet = files.find((f) => extname(f.name) === '.css');
  if (!script || !stylesheet || files.length !== 2)
    throw new Error(`esbuild wrote ${files.map((f) => f.name).join(', ')}; expected one .js and one .css file`);
  const manifest: BundleManifest = { script: script.name, stylesheet: stylesheet.name, gzip: true };

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
  writeFileSync(join(staging, BUNDLE_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);

  mkdirSync(dirname(dir), { recursive: true });
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  return { dir, manifest, sizes };
}

/** Newest modification time of the files a bundle is made from (package-lock.json stands for node_modules). */
function newestSourceTime(spec: WebBundleSpec): number {
  const times = [join(ROOT, 'package-lock.json'), __filename, ...(spec.alsoFrom ?? [])].map((f) => statSync(f).mtimeMs);
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else times.push(statSync(path).mtimeMs);
    }
  };
  walk(spec.web);
  return Math.max(...times);
}

/** Whether `dir` holds a complete bundle at least as new as every source file. */
export function webBundleIsCurrent(spec: WebBundleSpec, dir: string): boolean {
  const manifestPath = join(dir, BUNDLE_MANIFEST);
  if (!existsSync(manifestPath)) return false;
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as BundleManifest;
    if (
      ![manifest.script, manifest.stylesheet].every((name) => typeof name === 'string' && existsSync(join(dir, name)))
    )
      return false;
  } catch {
    return false;
  }
  return statSync(manifestPath).mtimeMs >= newestSourceTime(spec);
}

/** Builds the bundle unless an up-to-date one is there; says which happened. */
export async function ensureWebBundleBuilt(spec: WebBundleSpec, dir: string): Promise<'built' | 'current'> {
  if (webBundleIsCurrent(spec, dir)) return 'current';
  await buildWebBundle(spec, dir);
  return 'built';
}

/**
 * The command-line entry of a build script (`npm run build:graphiql`, `build:dashboard`, and so `npm run build`
 * and `npm start`): builds only when the sources changed since the last build, then lists the files and their
 * sizes; `--force` always builds.
 */
export function buildFromCommandLine(title: string, spec: WebBundleSpec, dir: string): void {
  if (!process.argv.includes('--force') && webBundleIsCurrent(spec, dir)) {
    console.log(`${title} bundle in ${dir} is up to date (--force rebuilds it)`);
    return;
  }
  buildWebBundle(spec, dir).then(
    ({ sizes }) => {
      const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} kB`;
      console.log(`${title} bundle in ${dir}:`);
      for (const [name, bytes] of Object.entries(sizes)) console.log(`  ${name.padEnd(36)} ${kb(bytes).padStart(8)}`);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
