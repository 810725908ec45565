import { GroupCommit } from './group-commit';

/** A write whose batches are held until the test lets them finish. */
function heldWrites(fail: (item: number) => boolean = () => false) {
  const batches: { items: number[]; finish(): void }[] = [];
  const write = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push({
        items,
        finish: () => (items.some(fail) ? reject(new Error(`bad item in ${items.join(',')}`)) : resolve(items.map((i) => `stored ${i}`))),
      });
    });
  return { batches, write };
}
const settle = () => new Promise((r) => setImmediate(r));

describe('GroupCommit', () => {
  it('writes a lone item at once, and groups the items that arrive while a batch is being written', async () => {
    const { batches, write } = heldWrites();
    const group = new GroupCommit(write, { maxBatch: 10, maxInFlight: 1 });
    const first = group.submit(1);
    await settle();
    expect(batches.map((b) => b.items)).toEqual([[1]]);
    const later = [2, 3, 4].map((i) => group.submit(i));
    await settle();
    expect(batches).toHaveLength(1);
    batches[0].finish();
    await expect(first).resolves.toBe('stored 1');
    await settle();
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3, 4]]);
    batches[1].finish();
    await expect(Promise.all(later)).resolves.toEqual(['stored 2', 'stored 3', 'stored 4']);
  });

  it('keeps to maxInFlight batches at once and maxBatch items a batch', async () => {
    const { batches, write } = heldWrites();
    const group = new GroupCommit(write, { maxBatch: 2, maxInFlight: 2 });
    const all = [1, 2, 3, 4, 5, 6, 7].map((i) => group.submit(i));
    await settle();
    expect(batches.map((b) => b.items)).toEqual([[1, 2], [3, 4]]);
    batches[0].finish();
    await settle();
    expect(batches.map((b) => b.items)).toEqual([[1, 2], [3, 4], [5, 6]]);
    batches[1].finish();
    batches[2].finish();
    await settle();
    expect(batches.map((b) => b.items)).toEqual([[1, 2], [3, 4], [5, 6], [7]]);
    batches[3].finish();
    await expect(Promise.all(all)).resolves.toEqual([1, 2, 3, 4, 5, 6, 7].map((i) => `stored ${i}`));
  });

  it('starts the writes submitted in one turn of the event loop as one batch, at the end of that turn', async () => {
    const { batches, write } = heldWrites();
    const group = new GroupCommit(write, { maxBatch: 10, maxInFlight: 2 });
    const turn = [1, 2, 3].map((i) => group.submit(i));
    expect(batches).toHaveLength(0);
    await settle();
    expect(batches.map((b) => b.items)).toEqual([[1, 2, 3]]);
    // A write of a later turn takes the free slot at once.
    const later = group.submit(4);
    await settle();
    expect(batches.map((b) => b.items)).toEqual([[1, 2, 3], [4]]);
    for (const b of batches) b.finish();
    await expect(Promise.all([...turn, later])).resolves.toEqual([1, 2, 3, 4].map((i) => `stored ${i}`));
  });

  it('when a batch fails, writes each of its items alone: only the bad one is refused', async () => {
    const { batches, write } = heldWrites((i) => i === 3);
    const group = new GroupCommit(write, { maxBatch: 10, maxInFlight: 1 });
    const first = group.submit(1);
    await settle();
    const rest = [2, 3, 4].map((i) => group.submit(i));
    await settle();
    batches[0].finish();
    await first;
    await settle();
    batches[1].finish(); // [2, 3, 4] fails
    await settle();
    expect(batches.slice(2).map((b) => b.items)).toEqual([[2], [3], [4]]);
    for (const b of batches.slice(2)) b.finish();
    const results = await Promise.allSettled(rest);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('bad item in 3');
  });

  it('refuses a write that answers the wrong number of results', async () => {
    const group = new GroupCommit(async () => ['one'], { maxBatch: 10, maxInFlight: 1 });
    await expect(group.submit(1)).resolves.toBe('one');
    const group2 = new GroupCommit(async (items: number[]) => items.slice(1), { maxBatch: 10, maxInFlight: 1 });
    await expect(group2.submit(1)).rejects.toThrow('0 results for 1 writes');
  });
});
