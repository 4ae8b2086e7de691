/**
 * Who is looking and what they may change, as the server answers it for the
 * credential in use: `viewer { principal groups }` once, and
 * `viewer { can(operation, ref) }` for every button a page shows, asked in
 * batches (the buttons drawn together are asked in one request) and kept
 * until the credential changes or a write is refused (a grant was revoked,
 * say), when everything is asked again.
 */
import { request, RequestError } from './api';
import { MAX_CAN_PER_REQUEST, VIEWER, viewerCanDocument, type ViewerCanData, type ViewerQuery } from './operations';
import { CHECKING, permissionOf, type Operation, type Permission, type Viewer, type Who } from './permissions';

/** What is known of the principal: loading, known, or not found out (with why). */
export type PrincipalState =
  | { readonly state: 'loading' }
  | { readonly state: 'known'; readonly principal: string | null; readonly groups: readonly string[] }
  | { readonly state: 'failed'; readonly code: string | null };

type Answer = boolean | null | 'asking';

export class ViewerStore implements Viewer {
  private answers = new Map<string, Answer>();
  private queue: [Operation, string][] = [];
  private listeners = new Set<() => void>();
  private stopped = false;
  /** Bumped on every change, for useSyncExternalStore. */
  version = 0;
  who: PrincipalState = { state: 'loading' };

  constructor(private readonly signInAvailable: boolean) {}

  /** Asks who the credential is (again, after a stop). */
  start(): void {
    this.stopped = false;
    // What was asked before a stop is dropped: asked again when the buttons next ask.
    this.answers = new Map();
    this.queue = [];
    request<ViewerQuery>(VIEWER).then(
      (data) => this.update(() => (this.who = { state: 'known', ...data.viewer })),
      (error: unknown) =>
        this.update(() => (this.who = { state: 'failed', code: error instanceof RequestError ? error.code : null })),
    );
  }

  /** Drops every answer that arrives from now on, until started again. */
  stop(): void {
    this.stopped = true;
  }

  /** Forgets every answer (they are asked again as the buttons ask). */
  forget(): void {
    this.update(() => (this.answers = new Map()));
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  can(operation: Operation, ref: string): Permission {
    const key = `${operation} ${ref}`;
    const answer = this.answers.get(key);
    if (answer === undefined) {
      this.answers.set(key, 'asking');
      this.queue.push([operation, ref]);
      queueMicrotask(() => this.flush());
    }
    // A refusal names who is asking: it waits for that answer too.
    if (answer === 'asking' || (answer === false && this.who.state === 'loading')) return CHECKING;
    const principal = this.who.state === 'known' ? this.who.principal : null;
    const who: Who = { principal, signInAvailable: this.signInAvailable };
    return permissionOf(answer, operation, ref, who);
  }

  private update(change: () => void): void {
    if (this.stopped) return;
    change();
    this.version += 1;
    for (const listener of this.listeners) listener();
  }

  /** Sends what is queued, MAX_CAN_PER_REQUEST pairs a request. */
  private flush(): void {
    if (this.stopped || this.queue.length === 0) return;
    const asked = this.queue;
    this.queue = [];
    const answers = this.answers;
    for (let start = 0; start < asked.length; start += MAX_CAN_PER_REQUEST) {
      const batch = asked.slice(start, start + MAX_CAN_PER_REQUEST);
      const variables: Record<string, string> = {};
      batch.forEach(([operation, ref], i) => {
        variables[`o${i}`] = operation;
        variables[`r${i}`] = ref;
      });
      const settle = (answer: (i: number) => boolean | null) =>
        this.update(() => {
          // Answers to a map forgotten meanwhile are dropped: they may be stale.
          if (answers !== this.answers) return;
          batch.forEach(([operation, ref], i) => answers.set(`${operation} ${ref}`, answer(i)));
        });
      request<ViewerCanData>(viewerCanDocument(batch.length), variables).then(
        (data) => settle((i) => data.viewer[`c${i}`] === true),
        () => settle(() => null),
      );
    }
  }
}
