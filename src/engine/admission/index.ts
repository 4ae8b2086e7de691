/**
 * The limits on one GraphQL request, all enforced before any resolver runs,
 * one job per file:
 *
 * - limits.ts: the numbers (QUERY_LIMITS);
 * - document-rules.ts: depth, aliases, directives and `__schema`, as validation rules;
 * - cost.ts: the estimated cost and its limit;
 * - argument-checks.ts: page sizes and list lengths, from literals and variables;
 * - verdict.ts: a request's verdict (arguments and cost), its error, and the memo of recent verdicts;
 * - heavy-lane.ts: one heavy request at a time, and the refusal when the queue is full;
 * - admission.ts: the verdict, then for a heavy request its place in the lane (RequestLimits);
 * - apollo-plugin.ts: admission in Apollo's pipeline (the direct path, ../direct-execution.ts, calls RequestLimits.admit itself).
 */
export { RequestLimits, type OperationToAdmit } from './admission';
export { requestLimitsPlugin } from './apollo-plugin';
export { argumentError, argumentProblems } from './argument-checks';
export { costError, estimateCost, MATRIX_CELL_COST, MAX_COSTED_NODES } from './cost';
export { limitRules, schemaIntrospectionRule } from './document-rules';
export { HEAVY_COST, HEAVY_QUEUE_LIMIT, Lane, LaneFullError, LANE_RETRY_AFTER_SECONDS } from './heavy-lane';
export { QUERY_LIMITS } from './limits';
export { requestLimitError, verdictVariablesKey, VerdictMemo } from './verdict';
