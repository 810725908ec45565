import type { Db } from '../../platform/db/knex';
import type { Logger } from '../../platform/logger';

/** How often a process adds its counts to listing_page_views. */
export const VIEW_FLUSH_MS = 5_000;
/** Distinct (page, day) keys held between flushes at most: past it, a flush starts at once. */
const MAX_KEYS = 5_000;

/**
 * Listing-page views, counted without cookies or any visitor data: a view is one increment in this
 * process's memory (no I/O on the page's path); every VIEW_FLUSH_MS the counts go to listing_page_views in
 * one statement that adds them (so every process's counts add up). A crash loses at most the last seconds of
 * counts, which the reports can bear.
 */
export class PageViewCounter {
  private counts = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly flushMs = VIEW_FLUSH_MS,
  ) {}

  count(mlsId: string, now = Date.now()): void {
    const key = `${new Date(now).toISOString().slice(0, 10)}|${mlsId}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    if (this.counts.size >= MAX_KEYS) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  /** Writes the counts held now (one statement); counts made meanwhile wait for the next flush. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flushing;
    if (!this.counts.size) return;
    const batch = this.counts;
    this.counts = new Map();
    const rows = [...batch].map(([key, views]) => ({ day: key.slice(0, 10), mls_id: key.slice(11), views }));
    this.flushing = this.db
      .raw(
        `insert into listing_page_views as v (mls_id, day, views)
         select r.mls_id, r.day, r.views from jsonb_to_recordset(?::jsonb) as r(mls_id text, day date, views int)
         on conflict (mls_id, day) do update set views = v.views + excluded.views`,
        [JSON.stringify(rows)],
      )
      .then(() => undefined)
      .catch((err: Error) => this.logger.warn({ err: err.message, keys: rows.length }, 'listing-page views: a flush failed; its counts are lost'));
    await this.flushing;
  }
}

/** Views of listing pages within windows of days (inclusive), as counts, keyed as the caller likes (reports). */
export async function listingPageViews(db: Db, windows: { key: number; mlsId: string; fromDay: string; toDay: string }[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!windows.length) return out;
  const { rows } = await db.raw<{ rows: { key: number; n: number }[] }>(
    `select w.key, coalesce(sum(v.views), 0)::int as n
       from jsonb_to_recordset(?::jsonb) as w(key int, mls_id text, from_day date, to_day date)
       left join listing_page_views v on v.mls_id = w.mls_id and v.day between w.from_day and w.to_day
      group by w.key`,
    [JSON.stringify(windows.map((w) => ({ key: w.key, mls_id: w.mlsId, from_day: w.fromDay, to_day: w.toDay })))],
  );
  for (const r of rows) out.set(r.key, r.n);
  return out;
}
