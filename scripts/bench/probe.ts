/** The parent's side of the fairness probe's process (./probe-process.ts). */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { LoadResult } from './loads';

/**
 * The fairness probe in a child process (scripts/bench/probe-process.ts),
 * ready when this resolves: `go` starts it sending, `stop` returns its
 * figures, `close` ends the process; `pid` is for counting its CPU with the client's.
 */
export async function startProbeProcess(
  root: string,
  url: string,
): Promise<{ readonly pid: number; go(): void; stop(name: LoadResult['name']): Promise<LoadResult>; close(): void }> {
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join(root, 'scripts', 'bench', 'probe-process.ts'), url],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const next = () =>
    new Promise<{ ready?: boolean; result?: LoadResult }>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the probe process exited (code ${code})`));
      child.once('exit', exited);
      child.once('message', (message) => {
        child.off('exit', exited);
        resolve(message as { ready?: boolean; result?: LoadResult });
      });
    });
  await next();
  return {
    pid: child.pid!,
    go: () => child.send({ go: true }),
    close: () => child.disconnect(),
    async stop(name) {
      const answer = next();
      child.send({ stop: name });
      const { result } = await answer;
      if (!result) throw new Error('the probe process sent no result');
      return result;
    },
  };
}
