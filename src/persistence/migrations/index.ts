import { InitialSchema1764489600000 } from './1764489600000-initial-schema';
import { SafeChange1764576000000 } from './1764576000000-safe-change';
import { PageIds1764662400000 } from './1764662400000-page-ids';
import { ImpactComplete1764748800000 } from './1764748800000-impact-complete';
import { Access1764835200000 } from './1764835200000-access';
import { BatchKeys1764921600000 } from './1764921600000-batch-keys';

/** Every migration, oldest first. */
export const MIGRATIONS = [
  InitialSchema1764489600000,
  SafeChange1764576000000,
  PageIds1764662400000,
  ImpactComplete1764748800000,
  Access1764835200000,
  BatchKeys1764921600000,
];

/** The migration that creates the schema: a start that applies it has made a new database. */
export const SCHEMA_CREATING_MIGRATION = 'InitialSchema1764489600000';
