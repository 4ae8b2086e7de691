/**
 * One build of dist/ at a time across the test workers (mocha runs files in
 * parallel processes): `npm pack` (which builds) in the package test and the
 * compiled server of the process tests would otherwise write the same files
 * at once, and a server started meanwhile could load a half-written module.
 * The lock is a directory, made atomically; one left behind by a killed run
 * is taken over after STALE_MS.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const LOCK = join(tmpdir(), `tool-registry-build-${createHash('sha1').update(ROOT).digest('hex').slice(0, 12)}.lock`);
/** Longer than any build takes (npm pack's, the slowest, takes about a minute). */
const STALE_MS = 10 * 60_000;
const POLL_MS = 100;

function tryLock(): boolean {
  try {
    mkdirSync(LOCK);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    try {
      if (Date.now() - statSync(LOCK).mtimeMs > STALE_MS) rmSync(LOCK, { recursive: true, force: true });
    } catch {
      // Released meanwhile: the next try takes it.
    }
    return false;
  }
}

function unlock(): void {
  rmSync(LOCK, { recursive: true, force: true });
}

/** Runs `build` holding the lock, waiting for it synchronously. */
export function withBuildLockSync<T>(build: () => T): T {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (!tryLock()) Atomics.wait(pause, 0, 0, POLL_MS);
  try {
    return build();
  } finally {
    unlock();
  }
}

/** Runs `build` holding the lock. */
export async function withBuildLock<T>(build: () => Promise<T>): Promise<T> {
  while (!tryLock()) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  try {
    return await build();
  } finally {
    unlock();
  }
}
