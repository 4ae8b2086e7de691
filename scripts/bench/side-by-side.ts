/**
 * Two servers measured side by side: each on its own copy of the same
 * registry, only one under load at a time, every load measured on one and
 * then the other over rounds in alternating order, so that drift on a shared
 * machine falls on both sides alike. Compare mode (./compare.ts: two builds)
 * and metrics mode (./metrics-mode.ts: one build, metrics off and on) are
 * made of it.
 */
import type { LoadDefinition, LoadName, LoadResult } from './loads';
import type { BenchOptions } from './options';
import type { RegistryServer } from './processes';
import { measured, settings, withServer, type PreparedRegistry, type ServerOptions } from './run';

/** How two servers are measured side by side (see sideBySide). */
export interface SideBySide<S extends string> {
  /** The two sides: a name and how its server starts. */
  readonly sides: readonly [[S, ServerOptions], [S, ServerOptions]];
  /** The loads each side runs, in order (the same loads on both). */
  readonly plan: (server: RegistryServer, side: S) => LoadDefinition<unknown>[];
  /** A measurement's name in the report. */
  readonly name: (load: string, side: S) => LoadName;
  readonly rounds: number;
  /** Started once both servers are ready, stopped after the last load (e.g. a scraper of one of them). */
  readonly beside?: (servers: Readonly<Record<S, RegistryServer>>) => { stop(): Promise<void> };
}

/**
 * Two servers side by side, each on its own copy of the registry, only one under load at a time. Each round
 * starts a fresh pair (a server process has luck of its own: in one run a server held 0.65 × the speed of its
 * twin for its whole life, using 1.25 cores against 1.0), then measures every load on one side and then the
 * other, the side first alternating from load to load and from round to round, for half the load's duration
 * each time. Returns every measurement, in the order taken.
 */
export async function sideBySide<S extends string>(
  root: string,
  options: BenchOptions,
  registry: PreparedRegistry,
  how: SideBySide<S>,
): Promise<LoadResult[]> {
  const [[first, firstOptions], [second, secondOptions]] = how.sides;
  const loads: LoadResult[] = [];
  for (let round = 0; round < how.rounds; round++) {
    await withServer(
      root,
      registry,
      (one) =>
        withServer(
          root,
          registry,
          async (other) => {
            const servers = { [first]: one, [second]: other } as Record<S, RegistryServer>;
            const plans = { [first]: how.plan(one, first), [second]: how.plan(other, second) } as Record<
              S,
              LoadDefinition<unknown>[]
            >;
            const beside = how.beside?.(servers);
            try {
              for (let i = 0; i < plans[first].length; i++) {
                for (const side of (round + i) % 2 === 0 ? [first, second] : [second, first]) {
                  const load = plans[side][i];
                  const at = {
                    ...settings(options, servers[side]),
                    durationSeconds: Math.max(1, options.durationSeconds / 2),
                  };
                  loads.push(await measured({ ...load, name: how.name(load.name, side) }, at));
                }
              }
            } finally {
              await beside?.stop();
            }
          },
          secondOptions,
        ),
      firstOptions,
    );
  }
  return loads;
}
