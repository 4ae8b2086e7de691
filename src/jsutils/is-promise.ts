import type { PromiseOrValue } from './promise-or-value';

/** Whether a value is a promise (a read that must be waited for). */
export function isPromise<T>(value: PromiseOrValue<T>): value is Promise<T> {
  return value instanceof Promise;
}
