import pg from 'pg';

/**
 * Whether statements may be prepared by name (each named statement is parsed and planned once per connection).
 * Behind a transaction pooler (PgBouncer without `max_prepared_statements`) a connection is the server's for one
 * transaction only: a name prepared there is missing (or already taken) on the next one, so every statement goes
 * unnamed: parsed and planned each time it runs.
 */
export type StatementNames = 'named' | 'unnamed';

/** `config` as sent under `names`: unnamed ones lose their name. */
export function asSent(config: pg.QueryConfig, names: StatementNames): pg.QueryConfig {
  return names === 'named' || config.name === undefined ? config : { ...config, name: undefined };
}

/** The sockets corked for the current event-loop turn (`coalesceWrites`). */
const corked = new WeakSet<object>();

/**
 * Holds what `client` writes until the end of this event-loop turn (`setImmediate`), then sends it in one write:
 * the statements that concurrent requests make in one turn leave together. node-postgres writes each statement
 * on its own (one `writev` per statement), and each write wakes the server's backend, which on a busy machine
 * takes the CPU from this process at every statement; a flood of leads makes five or six statements a lead.
 * Corks nest (node-postgres corks each statement's messages too), so the socket sends when the turn's own cork is
 * taken away.
 */
export function coalesceWrites(client: pg.ClientBase): void {
  const stream = (client as pg.Client).connection?.stream as (NodeJS.WritableStream & { cork?: () => void; uncork?: () => void }) | undefined;
  if (!stream?.cork || !stream.uncork || corked.has(stream)) return;
  corked.add(stream);
  stream.cork();
  setImmediate(() => {
    corked.delete(stream);
    stream.uncork!();
  });
}

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
  private inFlight = 0;
  private readonly settled = () => {
    this.inFlight -= 1;
  };

  constructor(
    private readonly settings: pg.ClientConfig,
    /** Statements sent with a name (rate-limiter-flexible names its own) keep it only when 'named'. */
    private readonly names: StatementNames = 'named',
  ) {}

  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>> {
    this.inFlight += 1;
    let result: Promise<pg.QueryResult<R>>;
    try {
      // A socket already broken (its write failed, before node-postgres says so) is not reused.
      if (this.client && !this.client.connection?.stream?.writable) this.client = undefined;
      const client = this.client ?? (await this.open());
      coalesceWrites(client);
      result = client.query<R>(asSent(config, this.names));
    } catch (err) {
      this.settled();
      throw err;
    }
    result.then(this.settled, this.settled);
    return result;
  }

  /** For the pool gauges (platform/metrics): whether the connection is open, and the statements not yet answered. */
  stats(): { open: boolean; inFlight: number } {
    return { open: this.client !== undefined, inFlight: this.inFlight };
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

/** Runs statements (node-postgres query configs, `$n` parameters) on one connection. */
export interface SqlExecutor {
  /** Sends a statement now, behind the ones sent before it; resolves with its result. */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>>;
}

/**
 * A transaction on a pipelined connection: its statements are written as soon as they are made, without
 * waiting for the ones before them, so a transaction of independent statements costs one round trip, and
 * BEGIN travels with the first statement and COMMIT with the last. When a statement fails, PostgreSQL
 * refuses every later one ("current transaction is aborted") and answers COMMIT with a rollback; `commit()`
 * then rejects with the first failure, not the refusals that followed it.
 */
export class PipelinedTransaction implements SqlExecutor {
  private firstError: unknown;
  private committing: Promise<void> | undefined;
  /** The statements sent, for `announce` again once the transaction has ended. */
  readonly sent = new Set<string>();

  constructor(
    private readonly client: pg.ClientBase,
    /** Told of every statement as it is sent, and again once the transaction has ended (read caches empty themselves). */
    private readonly announce: (text: string) => void = () => undefined,
    private readonly names: StatementNames = 'named',
  ) {}

  /** Sends BEGIN. */
  begin(): void {
    this.send({ text: 'BEGIN' });
  }

  query<R extends pg.QueryResultRow = pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>> {
    if (this.committing) return Promise.reject(new Error('pipelined transaction: a statement after COMMIT'));
    this.announce(config.text);
    this.sent.add(config.text);
    return this.send<R>(asSent(config, this.names));
  }

  /** Sends COMMIT behind the statements sent so far; resolves once it is committed. */
  commit(): Promise<void> {
    this.committing ??= this.client.query('COMMIT').then((res) => {
      if (res.command !== 'COMMIT') throw this.firstError ?? new Error(`pipelined transaction: ${res.command} instead of COMMIT`);
    });
    return this.committing;
  }

  /** Ends the transaction after a failure in the caller's code: waits for a COMMIT already sent, or rolls back. */
  async abandon(): Promise<void> {
    if (this.committing) await this.committing.catch(() => undefined);
    else await this.client.query('ROLLBACK');
  }

  /** The first statement that failed in this transaction, if any. */
  get failure(): unknown {
    return this.firstError;
  }

  private send<R extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>> {
    coalesceWrites(this.client);
    const sent = this.client.query<R>(config);
    // Kept for commit(); the caller still gets the rejection from the promise it holds.
    sent.catch((err: unknown) => {
      this.firstError ??= err;
    });
    return sent;
  }
}

/**
 * Runs `work` in a transaction on a connection of `pool` (whose clients are in pipeline mode). `work`
 * sends its statements on the transaction and calls `commit()` once it has sent the last one (COMMIT then
 * goes with it); if it returns without committing, the commit is sent then. A failure rolls back whatever
 * was sent and rejects with the first statement's error (or the caller's own); a connection that broke is
 * not reused.
 */
export async function runPipelinedTransaction<T>(
  pool: pg.Pool,
  announce: (text: string) => void,
  work: (tx: PipelinedTransaction) => Promise<T>,
  names: StatementNames = 'named',
): Promise<T> {
  const client = await pool.connect();
  const tx = new PipelinedTransaction(client, announce, names);
  let broken: Error | undefined;
  // Checked out, the client has no pool listener: a connection lost between its statements (the database gone)
  // is emitted as 'error', which would crash the process. Kept here, it fails this transaction and is not reused.
  const lost = (err: Error) => {
    broken = err;
  };
  client.on('error', lost);
  try {
    tx.begin();
    const out = await work(tx);
    await tx.commit();
    return out;
  } catch (err) {
    await tx.abandon().catch((end: Error) => {
      broken = end;
    });
    throw tx.failure ?? err;
  } finally {
    client.removeListener('error', lost);
    client.release(broken);
    for (const text of tx.sent) announce(text);
  }
}
