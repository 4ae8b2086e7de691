/**
 * The page's one live connection: the `registryChanged` subscription over a
 * WebSocket to /graphql (graphql-ws's client, protocol graphql-transport-ws).
 * It starts after the newest version the page has read, so nothing that
 * commits after the page loaded is missed, and after a drop it subscribes
 * again after the last version it has seen: the server replays what came
 * meanwhile, with no gap and no duplicate. There is no polling.
 *
 * Entries that come together (a replay, a forced delete's several entries)
 * are handed over in one batch, so the views ask the server once for them.
 */
import { createClient, type Client } from 'graphql-ws/client';
import { REGISTRY_CHANGED, type LiveEntry, type RegistryChangedSubscription } from './operations';

export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'offline';

export interface LiveStatus {
  readonly state: LiveState;
  /** Why it is offline or reconnecting, for the badge's tooltip. */
  readonly detail: string | null;
  /** The newest version seen, from which the next connection resumes. */
  readonly version: number | null;
}

export interface LiveOptions {
  readonly url: string;
  readonly token: string | null;
  /** The version the page's data is at least as new as: the feed replays what came after it. */
  readonly afterVersion: number | null;
  readonly onEntries: (entries: readonly LiveEntry[]) => void;
  readonly onStatus: (status: LiveStatus) => void;
}

/** Failed attempts in a row after which the badge says "offline" (it keeps trying, less often). */
const ATTEMPTS_BEFORE_OFFLINE = 3;
/** How long entries are gathered into one batch. */
const BATCH_MS = 40;

/** graphql-ws's close code for a connection the server refused (no read token). */
const FORBIDDEN = 4403;

function closeCode(error: unknown): number | null {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'number'
    ? error.code
    : null;
}

export class LiveFeed {
  private client: Client | null = null;
  private unsubscribe: (() => void) | null = null;
  private version: number | null;
  private failures = 0;
  private connectedOnce = false;
  private stopped = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private batch: LiveEntry[] = [];
  private batchTimer: ReturnType<typeof setTimeout> | null = null;
  private status: LiveStatus;
  private readonly online = () => this.reconnectNow();

  constructor(private readonly options: LiveOptions) {
    this.version = options.afterVersion;
    this.status = { state: 'connecting', detail: null, version: this.version };
  }

  start(): void {
    window.addEventListener('online', this.online);
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    window.removeEventListener('online', this.online);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.batchTimer) clearTimeout(this.batchTimer);
    this.drop();
  }

  /** Tries again at once (the badge's "Reconnect" button, or the browser coming back online). */
  reconnectNow(): void {
    if (this.stopped || this.status.state === 'live') return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.drop();
    this.connect();
  }

  private setStatus(state: LiveState, detail: string | null = null): void {
    this.status = { state, detail, version: this.version };
    this.options.onStatus(this.status);
  }

  private connect(): void {
    if (this.stopped) return;
    this.setStatus(this.connectedOnce || this.failures > 0 ? 'reconnecting' : 'connecting', this.status.detail);
    const client = createClient({
      url: this.options.url,
      connectionParams: this.options.token ? { authorization: `Bearer ${this.options.token}` } : {},
      lazy: true,
      // Reconnecting is done here, so each new subscription can resume from the newest version seen.
      retryAttempts: 0,
      on: {
        connected: () => {
          if (client !== this.client) return;
          this.failures = 0;
          this.connectedOnce = true;
          this.setStatus('live');
        },
      },
    });
    this.client = client;
    this.unsubscribe = client.subscribe<RegistryChangedSubscription>(
      { query: REGISTRY_CHANGED, variables: { afterVersion: this.version } },
      {
        next: (result) => {
          if (client !== this.client) return;
          const entry = result.data?.registryChanged;
          if (entry) this.receive(entry);
        },
        error: (error) => {
          if (client === this.client) this.lost(error);
        },
        complete: () => {
          if (client === this.client) this.lost(null);
        },
      },
    );
  }

  private receive(entry: LiveEntry): void {
    this.version = Math.max(this.version ?? 0, entry.version);
    this.batch.push(entry);
    this.batchTimer ??= setTimeout(() => {
      this.batchTimer = null;
      const entries = this.batch;
      this.batch = [];
      this.status = { ...this.status, version: this.version };
      this.options.onStatus(this.status);
      this.options.onEntries(entries);
    }, BATCH_MS);
  }

  private drop(): void {
    const client = this.client;
    this.client = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    void client?.dispose();
  }

  private lost(error: unknown): void {
    this.drop();
    if (this.stopped) return;
    const code = closeCode(error);
    if (code === FORBIDDEN) {
      this.setStatus('offline', 'the server needs a token to read: enter it in the token box');
      return;
    }
    if (Array.isArray(error)) {
      const messages = (error as { message?: string }[]).map((e) => e.message ?? JSON.stringify(e));
      this.setStatus('offline', `the server refused the subscription: ${messages.join('; ')}`);
      return;
    }
    this.failures += 1;
    const detail =
      code === null
        ? 'the connection failed'
        : `the connection closed (${code}${code === 1013 ? ': too far behind' : ''})`;
    this.setStatus(this.failures >= ATTEMPTS_BEFORE_OFFLINE ? 'offline' : 'reconnecting', detail);
    // 0.5 s, 1 s, 2 s, … up to 15 s, with some jitter so many pages do not come back at once.
    const wait = Math.min(15_000, 500 * 2 ** (this.failures - 1)) * (0.8 + Math.random() * 0.4);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, wait);
  }
}
