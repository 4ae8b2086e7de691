import { Presets, SingleBar } from 'cli-progress';

/** Progress of one long piece of work: how much is done of how much, and on what. */
export interface Progress {
  update(done: number, total: number, detail?: string): void;
  stop(): void;
}

/** Draws nothing: the output is not a terminal, or --no-progress. */
const SILENT: Progress = { update() {}, stop() {} };

/**
 * A progress bar on stderr (cli-progress) when it is a terminal and `wanted`;
 * otherwise a Progress that draws nothing, so piped output and logs stay clean.
 */
export function progressBar(label: string, unit: string, wanted = true): Progress {
  if (!wanted || !process.stderr.isTTY) return SILENT;
  const bar = new SingleBar(
    {
      format: `${label} {bar} {value}/{total} ${unit}  {detail}`,
      hideCursor: true,
      clearOnComplete: true,
      stream: process.stderr,
    },
    Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total, detail = '') {
      if (!started) {
        bar.start(total, done, { detail });
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(done, { detail });
      }
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
