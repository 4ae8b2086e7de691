/** A value now, or the promise of it: what a read that may answer at once returns. */
export type PromiseOrValue<T> = T | Promise<T>;
