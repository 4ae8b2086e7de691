/** Gives a place back (at most once: later calls do nothing). */
export type Release = () => void;

/** Heap the parsed documents of live subscriptions may take together, counting a document shared by several once. */
export const LIVE_DOCUMENT_BYTES = 32 * 1024 * 1024;

/** Why a subscription could not have a place. */
export type CapacityRefusal = 'SUBSCRIPTIONS' | 'SUBSCRIPTION_DOCUMENTS';

/**
 * How many live subscriptions this process serves at once, over every
 * transport (WS_MAX_SUBSCRIPTIONS), and the heap their parsed documents hold
 * (LIVE_DOCUMENT_BYTES: the same query text is parsed once and shared, see
 * ./operation.ts, so many subscriptions of one query cost one document). A
 * subscription takes a place when it is accepted and gives it back when it
 * ends, however it ends.
 */
export class SubscriptionCapacity {
  private active = 0;
  private bytes = 0;
  private readonly holders = new Map<object, { count: number; bytes: number }>();

  constructor(
    readonly limit: number,
    readonly documentBytesLimit = LIVE_DOCUMENT_BYTES,
  ) {}

  /** A place for a subscription of `document` (of about `bytes` of heap), or why there is none. */
  take(document: object, bytes: number): Release | CapacityRefusal {
    if (this.active >= this.limit) return 'SUBSCRIPTIONS';
    const held = this.holders.get(document);
    if (!held && this.bytes + bytes > this.documentBytesLimit) return 'SUBSCRIPTION_DOCUMENTS';
    this.active++;
    if (held) held.count++;
    else {
      this.holders.set(document, { count: 1, bytes });
      this.bytes += bytes;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      const holder = this.holders.get(document)!;
      if (--holder.count === 0) {
        this.holders.delete(document);
        this.bytes -= holder.bytes;
      }
    };
  }

  /** Places taken now. */
  get size(): number {
    return this.active;
  }

  /** The estimated heap of the documents held. */
  get documentBytes(): number {
    return this.bytes;
  }
}

/**
 * One connection's subscriptions, by the id its client gave each
 * (WS_MAX_SUBSCRIPTIONS_PER_CONNECTION), each with its place in the process's
 * capacity. Everything is given back when the connection closes.
 */
export class ConnectionSubscriptions {
  private readonly held = new Map<string, Release>();

  constructor(readonly limit: number) {}

  get full(): boolean {
    return this.held.size >= this.limit;
  }

  hold(id: string, release: Release): void {
    this.held.get(id)?.();
    this.held.set(id, release);
  }

  /** The subscription `id` ended. */
  end(id: string): void {
    this.held.get(id)?.();
    this.held.delete(id);
  }

  /** The connection closed. */
  endAll(): void {
    for (const release of this.held.values()) release();
    this.held.clear();
  }
}
