import { isPromise } from './is-promise';
import type { PromiseOrValue } from './promise-or-value';

/** `use` of a value now when it is one, or once its promise settles (a plain answer stays plain). */
export function thenNow<T, R>(value: PromiseOrValue<T>, use: (value: T) => PromiseOrValue<R>): PromiseOrValue<R> {
  return isPromise(value) ? value.then(use) : use(value);
}
