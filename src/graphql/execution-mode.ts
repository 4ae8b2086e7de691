import type { ExecutionMode } from '../config';

/** What each engine runs (see EXECUTION_MODES in src/config.ts): the one place EXECUTION is read. */
export interface EngineParts {
  /** Queries compiled with graphql-jit (else graphql-js for everything). */
  readonly compiledQueries: boolean;
  /** Pages of connections assembled from kept parts (./page-assembly.ts), with the store of those parts. */
  readonly pageAssembly: boolean;
  /** Field resolvers and root queries called without type-graphql's per-call wrapper (./direct-resolvers.ts). */
  readonly directResolvers: boolean;
  /** A compiled query that succeeds answered past Apollo's request pipeline (src/http/direct-execution.ts). */
  readonly directPath: boolean;
}

/** The parts of an engine. */
export function engineParts(mode: ExecutionMode): EngineParts {
  const fast = mode === 'fast';
  return { compiledQueries: fast, pageAssembly: fast, directResolvers: fast, directPath: fast };
}
