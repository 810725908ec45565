/**
 * Group commit for small writes that many requests make at once (a lead from a listing page): the writes
 * submitted in one turn of the event loop start together at its end; those that arrive while `maxInFlight`
 * batches are being written wait and go together as the next batch, in one transaction of `write`. A lone
 * request waits for nothing but the end of its turn; under load, twenty concurrent requests cost a few
 * transactions (and commits) instead of twenty.
 *
 * Each process groups only its own requests: correctness rests on the database (unique keys, one
 * transaction per batch), never on this queue. When a batch of several fails, each of its writes is tried
 * again alone, so one bad write cannot refuse the others; a write that fails alone rejects its caller.
 */
export class GroupCommit<I, O> {
  private readonly waiting: { item: I; resolve(out: O): void; reject(err: unknown): void }[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    /** Writes the items in one transaction; answers one result per item, in their order. */
    private readonly write: (items: I[]) => Promise<O[]>,
    private readonly opts: { maxBatch: number; maxInFlight: number } = { maxBatch: 50, maxInFlight: 2 },
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      // Writes submitted in the same turn of the event loop (requests whose reads answered together) start
      // as one batch, at the end of that turn.
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.pump();
      });
    });
  }

  private pump(): void {
    while (this.inFlight < this.opts.maxInFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.opts.maxBatch);
      this.inFlight += 1;
      void this.run(batch).finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  }

  private async run(batch: GroupCommit<I, O>['waiting']): Promise<void> {
    try {
      const out = await this.write(batch.map((b) => b.item));
      if (out.length !== batch.length) throw new Error(`group commit: ${out.length} results for ${batch.length} writes`);
      batch.forEach((b, i) => b.resolve(out[i]));
    } catch (err) {
      if (batch.length === 1) {
        batch[0].reject(err);
        return;
      }
      await Promise.all(
        batch.map(async (b) => {
          try {
            const [out] = await this.write([b.item]);
            b.resolve(out);
          } catch (alone) {
            b.reject(alone);
          }
        }),
      );
    }
  }
}
