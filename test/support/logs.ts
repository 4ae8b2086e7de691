import { Writable } from 'node:stream';
import pino from 'pino';

/** Runs `work` with a logger at trace level that keeps every line. */
export async function captureLogs(work: (logger: pino.Logger) => Promise<void>): Promise<any[]> {
  const lines: any[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  await work(pino({ level: 'trace' }, sink));
  return lines;
}

/** A logger at trace level that keeps every line, for a server that outlives one call (a describe's `before`). */
export function capturedLogger(): { logger: pino.Logger; lines: () => any[] } {
  const lines: any[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'trace' }, sink), lines: () => lines };
}
