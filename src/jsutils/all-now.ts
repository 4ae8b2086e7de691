/** The answers of several reads, each awaited. */
type Answers<T extends readonly unknown[]> = { -readonly [K in keyof T]: Awaited<T[K]> };

/** Several reads at once: their answers now when none must be waited for, else the promise of them all. */
export function allNow<T extends readonly unknown[]>(reads: T): Answers<T> | Promise<Answers<T>> {
  return reads.some((read) => read instanceof Promise) ? Promise.all(reads) : (reads as unknown as Answers<T>);
}
