import { Client } from 'pg';

/** The channel every write transaction notifies on PostgreSQL, with the version it commits as payload. */
export const CHANGE_CHANNEL = 'registry_changes';

/** How the LISTEN connection names itself to PostgreSQL (visible in pg_stat_activity). */
export const LISTENER_APPLICATION_NAME = 'registry-change-listener';

/** What the listener reports: a committed version, or that it (re)connected and may have missed some. */
export interface ChangeListenerEvents {
  /** A change committed on some instance (NOTIFY is delivered on commit, in commit order). */
  changed(version: number): void;
  /** The connection was (re)established: anything committed while it was down must be read from the log. */
  connected(): void;
  /** The connection failed; it is retried. */
  lost(error: Error): void;
}

/**
 * LISTEN on a dedicated PostgreSQL connection (outside every pool: a pooled
 * connection would be handed back and lose the LISTEN). When the connection
 * drops it reconnects with a growing delay (up to 5 s), and says so, so the
 * caller catches up from the change log.
 */
export class PostgresChangeListener {
  private client: Client | null = null;
  private stopped = false;
  private retryDelay = 100;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly events: ChangeListenerEvents,
  ) {}

  /** Connects and listens; resolves once listening (a failure is retried in the background). */
  async start(): Promise<void> {
    await this.connect().catch((error: unknown) => this.retry(error));
  }

  /** Stops listening and closes the connection. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  /** Closes the current connection as if the network had dropped it (for tests). */
  async dropConnection(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (!client) return;
    client.removeAllListeners('end');
    await client.end().catch(() => undefined);
    this.retry(new Error('connection dropped'));
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.url,
      connectionTimeoutMillis: 5000,
      application_name: LISTENER_APPLICATION_NAME,
    });
    client.on('error', (error) => this.onFailure(client, error));
    client.on('end', () => this.onFailure(client, new Error('connection ended')));
    client.on('notification', (message) => {
      if (message.channel !== CHANGE_CHANNEL) return;
      const version = Number(message.payload);
      if (Number.isSafeInteger(version)) this.events.changed(version);
    });
    await client.connect();
    await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    if (this.stopped) {
      await client.end();
      return;
    }
    this.client = client;
    this.retryDelay = 100;
    this.events.connected();
  }

  private onFailure(client: Client, error: Error): void {
    if (this.client !== client) return;
    this.client = null;
    client.removeAllListeners();
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    this.retry(error);
  }

  private retry(error: unknown): void {
    if (this.stopped) return;
    this.events.lost(error instanceof Error ? error : new Error(String(error)));
    const delay = this.retryDelay;
    this.retryDelay = Math.min(this.retryDelay * 2, 5000);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect().catch((failure: unknown) => this.retry(failure));
    }, delay);
    this.timer.unref();
  }
}
