import type { Knex } from 'knex';
import { AUTOPILOT_PENDING_STATUSES, type AutopilotRunKind, type AutopilotRunStatus, type AutopilotRunView } from '@app/contracts';
import type { Db } from '../../platform/db/knex';
import { campaignSummaries } from '../campaigns';

/**
 * autopilot_runs: what autopilot did about one listing event for one agent (one row per event, agent and
 * kind). Its status moves only by conditional updates (`moveRun`): whoever moves it from a status does
 * the work that move stands for, and nobody else.
 */

/** What the dashboard and the emails show of a run, fixed when it was made. */
export interface RunSummary {
  listingAddress?: string;
  listingPriceCents?: number;
  adLabel?: string;
  headline?: string;
  description?: string;
  imageUrl?: string | null;
  budgetCents?: number;
  impressions?: number;
  /** On a sale: the Just Listed campaign that was stopped. */
  stoppedCampaignId?: number | null;
}

export interface RunRow {
  id: number;
  agentId: number;
  eventId: number;
  feed: string;
  listingKey: string;
  kind: AutopilotRunKind;
  status: AutopilotRunStatus;
  campaignId: number | null;
  targetCampaignIds: number[];
  detectedAt: Date;
  launchAt: Date | null;
  expiresAt: Date | null;
  reason: string | null;
  summary: RunSummary;
  attempts: number;
  lastAttemptAt: Date | null;
  launchedAt: Date | null;
  launchedBy: 'window' | 'launch_now' | 'checkout' | null;
  createdAt: Date;
  updatedAt: Date;
}

export const RUNS = 'autopilotRuns';

export function toRun(raw: Record<string, unknown>): RunRow {
  const r = raw as unknown as RunRow & { id: string | number; eventId: string | number };
  return { ...r, id: Number(r.id), eventId: Number(r.eventId), targetCampaignIds: (r.targetCampaignIds ?? []).map(Number), summary: r.summary ?? {} };
}

export async function findRun(db: Db | Knex.Transaction, id: number): Promise<RunRow | undefined> {
  const row = await db(RUNS).where({ id }).first();
  return row ? toRun(row) : undefined;
}

/**
 * Move a run from one of `from` to `to` (and set `values`), if and only if it is in one of them now: true when
 * this call moved it. Two workers, a tap and a sweep racing for one run: one of them moves it.
 */
export async function moveRun(
  trx: Db | Knex.Transaction,
  id: number,
  from: readonly AutopilotRunStatus[],
  to: AutopilotRunStatus,
  values: Record<string, unknown> = {},
  where?: (q: Knex.QueryBuilder) => void,
): Promise<RunRow | undefined> {
  const q = trx(RUNS)
    .where({ id })
    .whereIn('status', from as AutopilotRunStatus[])
    .update({ ...values, status: to, updatedAt: trx.fn.now() })
    .returning('*');
  if (where) where(q);
  const [row] = await q;
  return row ? toRun(row) : undefined;
}

const dollars = (cents: number | undefined) => (cents === undefined ? null : cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2));

/** Runs as the wire shows them (with their campaign's status, through the campaigns door). */
export async function presentRuns(runs: RunRow[]): Promise<AutopilotRunView[]> {
  const campaigns = await campaignSummaries(runs.map((r) => r.campaignId ?? r.targetCampaignIds[0]).filter((id): id is number => !!id));
  return runs.map((r) => {
    const campaignId = r.campaignId ?? r.targetCampaignIds[0] ?? null;
    const c = campaignId ? campaigns.get(campaignId) : undefined;
    return {
      id: r.id,
      kind: r.kind,
      status: r.status,
      listingKey: r.listingKey,
      listingAddress: r.summary.listingAddress ?? null,
      headline: r.summary.headline ?? c?.headline ?? null,
      imageUrl: r.summary.imageUrl ?? c?.imageUrl ?? null,
      price: dollars(r.summary.budgetCents),
      campaignId,
      campaignStatus: c?.status ?? null,
      detectedAt: r.detectedAt.toISOString(),
      launchAt: r.launchAt?.toISOString() ?? null,
      expiresAt: r.expiresAt?.toISOString() ?? null,
      reason: r.reason,
      updatedAt: r.updatedAt.toISOString(),
    };
  });
}

/** The agent's runs still ahead (soonest first) and its history (newest first). */
export async function agentRuns(db: Db, agentId: number, historyLimit = 50): Promise<{ scheduled: RunRow[]; history: RunRow[] }> {
  const [scheduled, history] = await Promise.all([
    db(RUNS).where({ agentId }).whereIn('status', AUTOPILOT_PENDING_STATUSES as AutopilotRunStatus[]).orderByRaw('coalesce(launch_at, expires_at, created_at) asc').limit(100),
    db(RUNS).where({ agentId }).whereNotIn('status', AUTOPILOT_PENDING_STATUSES as AutopilotRunStatus[]).orderBy('updatedAt', 'desc').orderBy('id', 'desc').limit(historyLimit),
  ]);
  return { scheduled: scheduled.map(toRun), history: history.map(toRun) };
}
