import type { Knex } from 'knex';
import type { CampaignStatus } from './campaign.model';

/**
 * Move a campaign to `to` if, and only if, its status is one of `from`, and record the move in
 * campaign_transitions (DESIGN §2: every transition with its time). One conditional UPDATE decides,
 * so two concurrent callers (the success screen and the Stripe webhook) cannot both move it:
 * the second one's row no longer matches and it gets `false`. Run it in the caller's transaction,
 * next to the work the transition stands for.
 *
 * Returns true when the campaign moved.
 */
export async function transitionCampaign(
  trx: Knex | Knex.Transaction,
  campaignId: number,
  from: readonly CampaignStatus[],
  to: CampaignStatus,
  reason?: string,
): Promise<boolean> {
  if (from.length === 0) return false;
  // `prev` reads the status before the update (and locks the row); rows of a raw result keep their SQL names.
  const result = await trx.raw<{ rows: { from_status: CampaignStatus }[] }>(
    `with prev as (
       select id, status from campaigns where id = ? and status in (${from.map(() => '?').join(', ')}) for update
     )
     update campaigns c
        set status = ?, status_changed_at = now(), updated_at = now()
       from prev
      where c.id = prev.id
     returning prev.status as from_status`,
    [campaignId, ...from, to],
  );
  const moved = result.rows[0];
  if (!moved) return false;
  await trx('campaignTransitions').insert({ campaignId, fromStatus: moved.from_status, toStatus: to, reason: reason ?? null });
  return true;
}

/** The first transition of a new campaign: from nothing to its initial status. */
export async function recordInitialStatus(trx: Knex | Knex.Transaction, campaignId: number, status: CampaignStatus, reason: string): Promise<void> {
  await trx('campaignTransitions').insert({ campaignId, fromStatus: null, toStatus: status, reason });
}

/**
 * The batch form of transitionCampaign, for sweeps (the metrics job ending campaigns): moves every
 * campaign in `from` that matches `where` (SQL over the campaigns table, aliased c) to `to`, and
 * records each move, in one statement. Returns the ids that moved.
 */
export async function transitionCampaignsWhere(
  trx: Knex | Knex.Transaction,
  from: CampaignStatus,
  to: CampaignStatus,
  reason: string,
  where: { sql: string; bindings?: readonly Knex.Value[] },
): Promise<number[]> {
  const result = await trx.raw<{ rows: { id: number }[] }>(
    `with moved as (
       update campaigns c
          set status = ?, status_changed_at = now(), updated_at = now()
        where c.status = ? and (${where.sql})
       returning c.id
     ), recorded as (
       insert into campaign_transitions (campaign_id, from_status, to_status, reason)
       select id, ?, ?, ? from moved
     )
     select id from moved order by id`,
    [to, from, ...(where.bindings ?? []), from, to, reason],
  );
  return result.rows.map((r) => r.id);
}
