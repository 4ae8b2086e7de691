/** Admission: the limits every operation passes before it runs, and a heavy one's place in the heavy lane. */
import { OperationTypeNode, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { RequestContext } from '../../graphql/context';
import { fairShareOf } from '../fair-share';
import { argumentProblems } from './argument-checks';
import { estimateCost } from './cost';
import { enterOrRefuse, HEAVY_COST, HEAVY_QUEUE_LIMIT, Lane } from './heavy-lane';
import { verdictError, verdictVariablesKey, VerdictMemo } from './verdict';
import type { StageTracer } from '../../observability/tracing';

/** One operation to admit, as the limits see it: parsed and validated, with its variables. */
export interface OperationToAdmit {
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode | null | undefined;
  readonly operationName: string | undefined;
  readonly variables: Record<string, unknown>;
  /** What identifies the query text: Apollo's query hash (sha256 of it, in hex). */
  readonly queryKey: string;
  readonly contextValue: RequestContext;
}

/**
 * The limits every operation passes before it runs, wherever it runs
 * (Apollo's pipeline, or a compiled query sent directly): out-of-bounds
 * arguments and a cost over the limit refuse it (see requestLimitError),
 * and a heavy one waits for the heavy lane and then shares the thread
 * (../fair-share.ts). The verdict is computed once per (query, operation,
 * variables) while it stays in a memo bounded by bytes.
 */
export class RequestLimits {
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly memo = new VerdictMemo(),
    private readonly heavyLane = new Lane(1, HEAVY_QUEUE_LIMIT),
    /** Traces each admission as a stage of its request, when tracing is on. */
    private readonly tracer: StageTracer | null = null,
  ) {}

  /**
   * Throws the GraphQLError that refuses the operation, or admits it: for a
   * heavy one, once it has its place in the lane, with its context's share of
   * the thread started. The function returned ends the admission (gives back the
   * lane's place, stops the share); call it once the answer is complete.
   */
  admit(request: OperationToAdmit): Promise<() => void> {
    return this.tracer ? this.tracer.stage('admission', () => this.admitNow(request)) : this.admitNow(request);
  }

  private async admitNow(request: OperationToAdmit): Promise<() => void> {
    const { document, operation, operationName, variables, contextValue } = request;
    const key = `${request.queryKey}\u0000${operationName ?? ''}\u0000${verdictVariablesKey(operation, variables, this.schema)}`;
    const verdict = this.memo.of(key, () => ({
      problems: argumentProblems(this.schema, document, operationName, variables),
      cost: estimateCost(this.schema, document, operationName, variables),
    }));
    const error = verdictError(verdict);
    if (error) throw error;
    if (verdict.cost === null || verdict.cost < HEAVY_COST) return NOTHING_TO_END;
    // A heavy query reads the registry version before it waits for the lane, not in it: on PostgreSQL that read is
    // a round trip, which would otherwise hold the lane, one heavy request at a time, with the thread idle (a read
    // sent once the request has arrived sees every write committed before it, whenever the request then runs).
    if (operation?.operation === OperationTypeNode.QUERY && !contextValue.session.pinnedNow())
      await contextValue.session.currentVersion();
    // A heavy request waits for its turn, then shares the thread as it runs (../fair-share.ts).
    const leave = await enterOrRefuse(this.heavyLane);
    const share = fairShareOf(contextValue);
    share?.start();
    return () => {
      share?.stop();
      leave();
    };
  }
}

const NOTHING_TO_END = (): void => {};
