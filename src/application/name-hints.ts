import type { NotFoundError } from '../core/errors';
import { isIdRef } from '../core/grammar';
import { closestNames } from '../core/names';
import type { ChangeKind } from '../core/registry-edit';
import type { ReadSession } from './versioning';

/** The named kinds a NOT_FOUND can hint at, with their change-log kind and table. */
const KINDS = {
  'resource type': { kind: 'RESOURCE_TYPE', table: 'resource_type' },
  resource: { kind: 'RESOURCE', table: 'resource' },
  project: { kind: 'PROJECT', table: 'project' },
  tool: { kind: 'TOOL', table: 'tool' },
} as const satisfies Record<string, { kind: ChangeKind; table: string }>;

/**
 * Rule: a NOT_FOUND for a name says what the thing is called now when the
 * change log knows it was renamed, else suggests up to three close existing
 * names ("did you mean …"). Ids get no hints.
 */
export class NameHints {
  /** Adds the hints to the error (in place) and returns it. */
  async enrich(error: NotFoundError, session: ReadSession): Promise<NotFoundError> {
    const known = KINDS[error.kind as keyof typeof KINDS] as (typeof KINDS)[keyof typeof KINDS] | undefined;
    if (!known || isIdRef(error.ref) || error.suggestions.length > 0 || error.renamedTo) return error;
    const renamedId = await session.renamedFrom(known.kind, error.ref);
    const renamedTo = renamedId ? await this.currentName(known.table, renamedId, session) : null;
    if (renamedTo) return error.withHints({ renamedTo, suggestions: [] });
    const candidates =
      known.table === 'resource_type'
        ? (await session.hierarchy()).all().map((t) => t.name)
        : await session.nameCandidates(known.table, error.ref);
    return error.withHints({ renamedTo: null, suggestions: closestNames(error.ref, candidates) });
  }

  private async currentName(table: string, id: string, session: ReadSession): Promise<string | null> {
    switch (table) {
      case 'resource_type':
        return (await session.hierarchy()).byId(id)?.name ?? null;
      case 'resource':
        return (await session.resourceById.load(id))?.name ?? null;
      case 'project':
        return (await session.projectById.load(id))?.name ?? null;
      default:
        return (await session.toolById.load(id))?.name ?? null;
    }
  }
}
