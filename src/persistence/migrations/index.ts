import { InitialSchema1764489600000 } from './1764489600000-initial-schema';

/** Every migration, oldest first. */
export const MIGRATIONS = [InitialSchema1764489600000];
