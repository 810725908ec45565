import { createDb, holdOpen, pipelinedTransaction, pipelineOf, sqlOf, type Db } from './knex';
import { createTestDatabase } from '../../../test/helpers';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
  const setup = createDb(database.url, { max: 1 });
  await setup.raw('create table held_writes (n int primary key)');
  await setup.destroy();
});
afterAll(() => database.drop());

describe('holdOpen', () => {
  it('keeps the pools and the pipelined connections open until the held write has landed', async () => {
    const db: Db = createDb(database.url, { max: 2 });
    const events: string[] = [];
    // A write that starts after the close was asked for (a lead still waiting for its group commit).
    const write = holdOpen(
      db,
      (async () => {
        await new Promise((r) => setTimeout(r, 300));
        await pipelinedTransaction(db, async (tx) => {
          await tx.query({ text: 'insert into held_writes (n) values (1)' });
        });
        events.push('written');
      })(),
    );
    await db.destroy();
    events.push('closed');
    await write;
    expect(events).toEqual(['written', 'closed']);
    const check = createDb(database.url, { max: 1 });
    expect(await check('held_writes').pluck('n')).toEqual([1]);
    await check.destroy();
  });

  it('waits for a held write that fails, and passes its failure on', async () => {
    const db = createDb(database.url, { max: 1 });
    const write = holdOpen(db, (async () => db.raw('select 1/0'))());
    await db.destroy();
    await expect(write).rejects.toThrow(/division by zero/);
  });
});

describe('createDb with pooler: transaction', () => {
  /** Named statements prepared on the connection of a pipelined transaction that runs `text` by name. */
  async function preparedAfter(pooler: 'none' | 'transaction'): Promise<string[]> {
    const db = createDb(database.url, { max: 1, pooler });
    try {
      return await pipelinedTransaction(db, async (tx) => {
        await tx.query({ name: 'test.named', text: 'select 1 as one' });
        const { rows } = await tx.query<{ name: string }>({ text: 'select name from pg_prepared_statements' });
        return rows.map((r) => r.name);
      });
    } finally {
      await db.destroy();
    }
  }

  it('sends statements unnamed (a transaction pooler cannot keep them), and by name otherwise', async () => {
    expect(await preparedAfter('none')).toEqual(['test.named']);
    expect(await preparedAfter('transaction')).toEqual([]);
  });

  it('also on the pipelined connection and in a knex transaction (pg-boss inserts, rate-limit counts)', async () => {
    for (const pooler of ['none', 'transaction'] as const) {
      const db = createDb(database.url, { max: 1, pooler });
      const named = { name: 'test.named-side', text: 'select 1 as one' };
      await pipelineOf(db).query(named);
      const onPipeline = (await pipelineOf(db).query<{ n: number }>({ text: 'select count(*)::int as n from pg_prepared_statements' })).rows[0].n;
      const inTrx = await db.transaction(async (trx) => {
        const sql = await sqlOf(trx);
        await sql.query(named);
        return (await sql.query<{ n: number }>({ text: 'select count(*)::int as n from pg_prepared_statements' })).rows[0].n;
      });
      await db.destroy();
      expect({ pooler, onPipeline, inTrx }).toEqual({ pooler, onPipeline: pooler === 'none' ? 1 : 0, inTrx: pooler === 'none' ? 1 : 0 });
    }
  });
});
