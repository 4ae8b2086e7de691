import type { ChangeFilter, ChangePageRequest, ChangeRecord, Page } from '../persistence/records';
import { requireWellFormedRef } from './registry-writes';
import type { ReadSession } from './versioning';

/** The change log: who changed what, when, and what it did to bindings. */
export class ChangeLogService {
  /** A page of entries, oldest first, matching the filter. */
  list(filter: ChangeFilter, request: ChangePageRequest, session: ReadSession): Promise<Page<ChangeRecord>> {
    if (filter.ref !== null) requireWellFormedRef('filter.ref', filter.ref);
    return session.pageChanges(filter, request);
  }
}
