import net from 'node:net';
import { Client, Pool } from 'pg';
import { PipelinedConnection, runPipelinedTransaction } from './pipelined-connection';
import { createTestDatabase } from '../../../test/helpers';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let pipeline: PipelinedConnection;
beforeAll(async () => {
  database = await createTestDatabase();
  pipeline = new PipelinedConnection({ connectionString: database.url, application_name: 'pipeline-test' });
});
let pool: Pool;
beforeAll(async () => {
  pool = new Pool({ connectionString: database.url, pipeline: true, max: 2 });
  const setup = new Client({ connectionString: database.url });
  await setup.connect();
  await setup.query('create table pipelined_rows (n int primary key)');
  await setup.end();
});
afterAll(async () => {
  await pool.end();
  await pipeline.end();
  await database.drop();
});

/** The backends this test's connection runs on (by application_name). */
async function backends(): Promise<number[]> {
  const admin = new Client({ connectionString: database.url });
  await admin.connect();
  try {
    const { rows } = await admin.query(`select pid from pg_stat_activity where application_name = 'pipeline-test' order by pid`);
    return rows.map((r) => Number(r.pid));
  } finally {
    await admin.end();
  }
}

describe('PipelinedConnection', () => {
  it('answers statements sent together, in order, over one connection', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => pipeline.query<{ n: number; pid: number }>({ text: 'select $1::int as n, pg_backend_pid() as pid', values: [i] })));
    expect(results.map((r) => r.rows[0].n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(new Set(results.map((r) => r.rows[0].pid)).size).toBe(1);
    expect(await backends()).toEqual([results[0].rows[0].pid]);
  });

  it('sends the statements made in one event-loop turn in one write to the socket', async () => {
    await pipeline.query({ text: 'select 1' }); // connected
    const writes = [jest.spyOn(net.Socket.prototype as unknown as { _writev: () => void }, '_writev'), jest.spyOn(net.Socket.prototype as unknown as { _write: () => void }, '_write')];
    try {
      const results = await Promise.all(Array.from({ length: 5 }, (_, i) => pipeline.query<{ n: number }>({ text: 'select $1::int as n', values: [i] })));
      expect(results.map((r) => r.rows[0].n)).toEqual([0, 1, 2, 3, 4]);
      expect(writes.reduce((sum, spy) => sum + spy.mock.calls.length, 0)).toBe(1);
    } finally {
      for (const spy of writes) spy.mockRestore();
    }
  });

  it('fails a bad statement alone: the ones sent beside it are answered', async () => {
    const [before, bad, after] = await Promise.allSettled([
      pipeline.query({ text: 'select 1 as one' }),
      pipeline.query({ text: 'select 1/0 as boom' }),
      pipeline.query({ name: 'pipeline-test-two', text: 'select 2 as two' }),
    ]);
    expect(before).toMatchObject({ status: 'fulfilled', value: { rows: [{ one: 1 }] } });
    expect(bad).toMatchObject({ status: 'rejected', reason: { code: '22012' } });
    expect(after).toMatchObject({ status: 'fulfilled', value: { rows: [{ two: 2 }] } });
  });

  it('opens a new connection at the next statement after its connection is broken', async () => {
    const { rows } = await pipeline.query<{ pid: number }>({ text: 'select pg_backend_pid() as pid' });
    const admin = new Client({ connectionString: database.url });
    await admin.connect();
    await admin.query('select pg_terminate_backend($1)', [rows[0].pid]);
    await admin.end();
    // The statement that meets the broken connection fails; the next one runs on a new backend.
    await pipeline.query({ text: 'select 1' }).catch(() => undefined);
    const again = await pipeline.query<{ pid: number }>({ text: 'select pg_backend_pid() as pid' });
    expect(again.rows[0].pid).not.toBe(rows[0].pid);
  });

  it('closes with end(), and opens again for a later statement', async () => {
    await pipeline.query({ text: 'select 1' });
    await pipeline.end();
    // The backend leaves pg_stat_activity a moment after the socket closes.
    for (let tries = 0; (await backends()).length > 0 && tries < 50; tries++) await new Promise((r) => setTimeout(r, 20));
    expect(await backends()).toEqual([]);
    await expect(pipeline.query<{ ok: number }>({ text: 'select 1 as ok' })).resolves.toMatchObject({ rows: [{ ok: 1 }] });
  });
});

describe('runPipelinedTransaction', () => {
  const rows = async () => (await pool.query('select n from pipelined_rows order by n')).rows.map((r) => r.n);
  beforeEach(() => pool.query('delete from pipelined_rows'));

  it('commits statements sent together, and announces each when sent and again once committed', async () => {
    const announced: string[] = [];
    const out = await runPipelinedTransaction(pool, (text) => announced.push(text), async (tx) => {
      const inserts = [1, 2, 3].map((n) => tx.query({ text: 'insert into pipelined_rows (n) values ($1) returning n', values: [n] }));
      const [done] = await Promise.all([Promise.all(inserts), tx.commit()]);
      return done.map((r) => r.rows[0].n);
    });
    expect(out).toEqual([1, 2, 3]);
    expect(await rows()).toEqual([1, 2, 3]);
    const insert = 'insert into pipelined_rows (n) values ($1) returning n';
    expect(announced).toEqual([insert, insert, insert, insert]);
  });

  it('sends BEGIN, the statements made in the same turn and COMMIT in one write', async () => {
    const client = await pool.connect(); // the pool's connection, opened before the count
    client.release();
    const writes = [jest.spyOn(net.Socket.prototype as unknown as { _writev: () => void }, '_writev'), jest.spyOn(net.Socket.prototype as unknown as { _write: () => void }, '_write')];
    try {
      await runPipelinedTransaction(pool, () => undefined, async (tx) => {
        await Promise.all([tx.query({ text: 'insert into pipelined_rows (n) values (1), (2)' }), tx.query({ text: 'insert into pipelined_rows (n) values (3)' }), tx.commit()]);
      });
      expect(writes.reduce((sum, spy) => sum + spy.mock.calls.length, 0)).toBe(1);
    } finally {
      for (const spy of writes) spy.mockRestore();
    }
    expect(await rows()).toEqual([1, 2, 3]);
  });

  it('rolls back everything when a statement fails, and rejects with that failure, not the refusals behind it', async () => {
    const outcome = runPipelinedTransaction(pool, () => undefined, async (tx) => {
      const sent = [1, 1, 2].map((n) => tx.query({ text: 'insert into pipelined_rows (n) values ($1)', values: [n] }));
      await Promise.allSettled(sent);
      await tx.commit();
    });
    await expect(outcome).rejects.toMatchObject({ code: '23505' });
    expect(await rows()).toEqual([]);
    // The connection went back clean: the next transaction commits.
    await runPipelinedTransaction(pool, () => undefined, (tx) => tx.query({ text: 'insert into pipelined_rows (n) values (9)' }));
    expect(await rows()).toEqual([9]);
  });

  it('rolls back what was sent when the caller fails before COMMIT', async () => {
    const outcome = runPipelinedTransaction(pool, () => undefined, async (tx) => {
      await tx.query({ text: 'insert into pipelined_rows (n) values (5)' });
      throw new Error('changed my mind');
    });
    await expect(outcome).rejects.toThrow('changed my mind');
    expect(await rows()).toEqual([]);
  });

  it('refuses a statement after COMMIT', async () => {
    await expect(
      runPipelinedTransaction(pool, () => undefined, async (tx) => {
        await tx.commit();
        await tx.query({ text: 'select 1' });
      }),
    ).rejects.toThrow('a statement after COMMIT');
  });
});
