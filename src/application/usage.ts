/** How many users of a thing a CONFLICT on delete lists in `usedBy`. */
export const USED_BY_SHOWN = 50;
