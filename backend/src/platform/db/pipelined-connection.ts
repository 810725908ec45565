import pg from 'pg';

/**
 * One PostgreSQL connection in node-postgres's pipeline mode, for many small independent statements from
 * concurrent requests (the rate-limit counts): each statement is written at once, without waiting for the
 * ones before it to be answered, and PostgreSQL answers them in order. Against a pool, a statement costs no
 * checkout and waits for no free connection; statements on the same row (a busy listing's count) run one
 * after another on one backend instead of queueing on the row's lock.
 *
 * Each statement has its own Sync, so one that fails fails alone. The connection is opened at the first
 * statement; when it breaks, the statements on it fail and the next one opens a new connection. Not for
 * transactions (a statement that fails would not stop the ones already sent behind it) or cursors.
 */
export class PipelinedConnection {
  private client: pg.Client | undefined;
  private opening: Promise<pg.Client> | undefined;

  constructor(private readonly settings: pg.ClientConfig) {}

  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>> {
    const client = this.client ?? (await this.open());
    return client.query<R>(config);
  }

  private open(): Promise<pg.Client> {
    this.opening ??= (async () => {
      const client = new pg.Client({ ...this.settings, pipeline: true });
      const drop = () => {
        if (this.client === client) this.client = undefined;
      };
      // A broken connection fails the statements on it (node-postgres rejects them); the next opens anew.
      client.on('error', drop);
      client.on('end', drop);
      try {
        await client.connect();
      } catch (err) {
        this.opening = undefined;
        throw err;
      }
      this.opening = undefined;
      this.client = client;
      return client;
    })();
    return this.opening;
  }

  /** Closes the connection once the statements already sent are answered; a later statement opens a new one. */
  async end(): Promise<void> {
    const client = this.client ?? (await this.opening?.catch(() => undefined));
    this.client = undefined;
    if (client) await client.end();
  }
}
