import type { ExecutionMode } from '../config';
import type { RequestContext } from '../graphql/context';
import type { AnswerPartStore } from './answer-parts';
import type { AssemblyHost } from './page-assembly';

/** What each engine runs (see EXECUTION_MODES in src/config.ts): the one place EXECUTION is read. */
export interface EngineParts {
  /** Queries compiled with graphql-jit (else graphql-js for everything). */
  readonly compiledQueries: boolean;
  /** Pages of connections assembled from kept parts (./page-assembly.ts), with the store of those parts. */
  readonly pageAssembly: boolean;
  /** Field resolvers and root queries called without type-graphql's per-call wrapper (./direct-resolvers.ts). */
  readonly directResolvers: boolean;
  /** A compiled query that succeeds answered past Apollo's request pipeline (./direct-execution.ts). */
  readonly directPath: boolean;
}

/** The parts of an engine. */
export function engineParts(mode: ExecutionMode): EngineParts {
  const fast = mode === 'fast';
  return { compiledQueries: fast, pageAssembly: fast, directResolvers: fast, directPath: fast };
}

/** What assembling pages from kept parts needs (./page-assembly.ts): the store of parts, and a request's context. */
export const requestAssembly = (parts: AnswerPartStore): AssemblyHost<RequestContext> => ({
  parts,
  sessionOf: (context) => context.session,
  withSession: (context, session) => ({ ...context, session }),
  // Reading and writing are all an item's answer can differ by (no field of a tool, project or resource reads who
  // asks): no field shows more to a writer, but none is assumed not to.
  audienceOf: (context) => `${context.access.canRead ? 'r' : '-'}${context.access.principal ? 'w' : '-'}`,
});
