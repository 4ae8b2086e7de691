/**
 * Records the version and git commit of this build in dist/build-info.json,
 * which `tool-registry --version`, /healthz and the start log read
 * (src/version.ts). Part of `npm run build`; the file is rewritten only when
 * what it records changed.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BUILD_INFO_FILE, checkoutBuildInfo } from '../src/version';

const ROOT = resolve(__dirname, '..');

/** Writes dist/build-info.json unless it already says the same; returns what it records. */
export function writeBuildInfo(dist: string = join(ROOT, 'dist')): { text: string; written: boolean } {
  const text = `${JSON.stringify(checkoutBuildInfo(ROOT))}\n`;
  const file = join(dist, BUILD_INFO_FILE);
  let current: string | null = null;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // not written yet
  }
  if (current === text) return { text, written: false };
  mkdirSync(dist, { recursive: true });
  writeFileSync(file, text);
  return { text, written: true };
}

if (require.main === module) {
  const { text, written } = writeBuildInfo();
  console.log(`build info ${written ? 'written' : 'is up to date'}: ${text.trim()}`);
}
