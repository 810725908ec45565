import { createDb, holdOpen, pipelinedTransaction, type Db } from './knex';
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
