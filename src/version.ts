import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';

/** What this server is: package.json's version and the git commit it was built from. */
export interface BuildInfo {
  readonly version: string;
  /** The commit (12 hex digits, `-dirty` when the tree had changes), or `unknown` outside a git checkout. */
  readonly commit: string;
}

/** Written by the build (scripts/build-info.ts) beside dist/src, and shipped in the package. */
export const BUILD_INFO_FILE = 'build-info.json';

let known: BuildInfo | null = null;

/** The running server's version: recorded at build time, or, when run from source, read from the checkout. */
export function buildInfo(): BuildInfo {
  return (known ??= readBuildInfo());
}

function readBuildInfo(): BuildInfo {
  const fromSource = extname(__filename) === '.ts';
  if (!fromSource) {
    try {
      const recorded = JSON.parse(readFileSync(join(__dirname, '..', BUILD_INFO_FILE), 'utf8')) as BuildInfo;
      if (typeof recorded.version === 'string' && typeof recorded.commit === 'string') return recorded;
    } catch {
      // a build without its record (tsc alone): read the checkout below
    }
  }
  return checkoutBuildInfo(packageRoot());
}

/** The folder of this package (its package.json), whether this file runs from src/ or from dist/src/. */
export function packageRoot(): string {
  return extname(__filename) === '.ts' ? resolve(__dirname, '..') : resolve(__dirname, '..', '..');
}

/** The version in `root`'s package.json and the commit its git checkout is at (what the build records). */
export function checkoutBuildInfo(root: string): BuildInfo {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return { version, commit: gitCommit(root) };
}

function gitCommit(root: string): string {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 })
      .toString()
      .trim();
  try {
    const commit = git('rev-parse', '--short=12', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') === '' ? commit : `${commit}-dirty`;
  } catch {
    return 'unknown';
  }
}
