import type { GraphQLResolveInfo } from 'graphql';
import type { ChangeOutcome, ChangeRequest } from '../application/registry-writes';
import { UnauthenticatedError } from '../core/errors';
import type { RequestContext } from './context';

/** Every mutation's `dryRun` argument. */
export const DRY_RUN = {
  nullable: true,
  defaultValue: false,
  description:
    'Check and compute everything, binding impact included, in a transaction that is rolled back: nothing is stored, versioned or logged.',
} as const;

/** The change a mutation asks for: who, through which field, and whether only as a preview. */
export function changeRequest(ctx: RequestContext, info: GraphQLResolveInfo, dryRun: boolean | null): ChangeRequest {
  const { principal } = ctx.access;
  // The authChecker let no mutation through without a principal.
  if (principal === null) throw new UnauthenticatedError('changing the registry needs a credential');
  return { session: ctx.session, principal, operation: info.fieldName, dryRun: dryRun ?? false };
}

/** A payload with the changed object under its field (null for a dry run: nothing was stored). */
export function objectPayload<T>(field: 'resourceType' | 'resource' | 'project' | 'tool', outcome: ChangeOutcome<T>) {
  return {
    [field]: outcome.dryRun ? null : outcome.result,
    dryRun: outcome.dryRun,
    registryVersion: outcome.registryVersion,
    impact: outcome.impact,
  };
}

/** A delete's payload: the deleted id. */
export function deletePayload(outcome: ChangeOutcome<string>) {
  return {
    deletedId: outcome.result,
    dryRun: outcome.dryRun,
    registryVersion: outcome.registryVersion,
    impact: outcome.impact,
  };
}
