import type { AccessCache } from './access-cache';
import type { ChangeIndex } from './change-index';
import type { HierarchyCache } from './hierarchy-cache';
import type { NameIndexes } from './name-index';
import type { RecordCache } from './record-cache';
import type { RegistryClock } from './registry-clock';

/** The caches every session shares, and the clock that says which registry version they must match. */
export interface SessionCaches {
  readonly clock: RegistryClock;
  readonly hierarchy: HierarchyCache;
  /** Null when records are not cached (RECORD_CACHE=false): every record is read from the database. */
  readonly records: RecordCache | null;
  /** Every tool, project and resource by name, for pages with no filter; null when records are not cached either. */
  readonly names: NameIndexes | null;
  /** Which version last touched each dependency key. */
  readonly changes: ChangeIndex;
  /** Grants and API tokens, as every authenticated request reads them. */
  readonly access: AccessCache;
}
