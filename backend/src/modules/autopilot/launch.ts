import type { Knex } from 'knex';
import type { AutopilotRunStatus } from '@app/contracts';
import { campaignSummaries, cancelDraft, pausedCampaignsPastFlight, resumeDelivery, stopDeliveryForListing } from '../campaigns';
import { settleCampaignNow } from '../reports';
import { chargeSavedCard, savedCardsSavedAt } from '../payments';
import { MlsProviderError, recheckFeedListing } from '../mls';
import { notifyAutopilot } from '../notifications';
import type { Queue } from '../../platform/jobs/queue';
import { nowOf, type AutopilotDeps } from './deps';
import { findRun, moveRun, RUNS, toRun, type RunRow } from './runs';
import { runMovedOn, runNotFound } from './autopilot.errors';

/**
 * A draft's launch (DESIGN §7). At launchAt — never before, unless the agent taps Launch now — the run moves
 * scheduled → charging (one conditional update: of two workers, one charges), the listing is re-read (it must
 * still be on the market: a home that went under contract gets no ad), the saved card is charged off-session
 * (payments: one idempotency key per campaign), and a paid campaign goes to the existing exactly-once launch.
 * A charge that fails or needs the agent launches nothing and emails the agent; the run waits, is tried again
 * when the agent saves a card, and expires 72 h after its launch time.
 */

export type LaunchOutcome = { run: RunRow; charged: boolean };

/** Statuses waiting for the agent: a card, an authentication, a better card. */
export const WAITING: readonly AutopilotRunStatus[] = ['needs_card', 'needs_authentication', 'charge_failed'];
/** A run stuck in `charging` this long (its worker died) is taken again: the charge itself is idempotent. */
const STALE_CHARGING_MINUTES = 10;

const DRAFT_PHASE: Record<string, 'active' | 'sold'> = { just_listed: 'active', price_improved: 'active', just_sold: 'sold' };

/** Launch a due draft: the one call that takes it (scheduled, due) charges it. Undefined when it was not this call's to take. */
export async function launchDue(deps: AutopilotDeps, runId: number, opts: { retryWaiting?: boolean } = {}): Promise<LaunchOutcome | undefined> {
  const now = nowOf(deps);
  const before = await findRun(deps.db, runId);
  if (!before) return undefined;
  // Where the run goes back to when the charge cannot be tried now (an outage): where it was.
  const back: AutopilotRunStatus = before.status === 'charging' ? 'scheduled' : before.status;
  const from: AutopilotRunStatus[] = opts.retryWaiting ? [...WAITING] : ['scheduled', 'charging'];
  const run = await moveRun(deps.db, runId, from, 'charging', { attempts: deps.db.raw('attempts + 1'), lastAttemptAt: now }, (q) => {
    q.where('launchAt', '<=', now);
    // A charging run is another worker's, unless that worker is long gone.
    q.andWhere((w) => w.whereNot('status', 'charging').orWhere('lastAttemptAt', '<', new Date(now.getTime() - STALE_CHARGING_MINUTES * 60_000)));
  });
  if (!run) return undefined;
  if (!run.campaignId) return { run: (await finish(deps, run, 'failed', 'The draft is gone')) ?? run, charged: false };

  // The listing must still be what the ad says: re-read from the MLS (a 404 there is a deletion).
  const wanted = DRAFT_PHASE[run.kind];
  let phase: string;
  try {
    phase = await recheckFeedListing({ db: deps.db, queue: deps.queue, logger: deps.logger, provider: deps.mls }, run.listingKey);
  } catch (err) {
    if (!(err instanceof MlsProviderError)) throw err;
    // The MLS is not answering: not now; the job tries again.
    await moveRun(deps.db, run.id, ['charging'], back);
    throw err;
  }
  if (wanted && phase !== wanted) {
    const skipped = await deps.db.transaction(async (trx) => {
      const moved = await moveRun(trx, run.id, ['charging'], 'skipped', { reason: `Skipped: the listing is ${phase.replace('_', ' ')} now` });
      if (moved?.campaignId) await cancelDraft(trx, moved.campaignId, 'autopilot: the listing left the market before launch');
      return moved;
    });
    return { run: skipped ?? run, charged: false };
  }

  let charge: Awaited<ReturnType<typeof chargeSavedCard>>;
  try {
    charge = await chargeSavedCard({ db: deps.db, queue: deps.queue as Queue, logger: deps.logger, providers: deps.payments }, { campaignId: run.campaignId, reason: `autopilot run ${run.id}` });
  } catch (err) {
    // The payment provider is down: the charge is tried again (same key, same intent).
    await moveRun(deps.db, run.id, ['charging'], back);
    throw err;
  }
  switch (charge.outcome) {
    case 'succeeded':
    case 'already_paid':
      return { run: (await launched(deps, run, run.launchedBy ?? 'window')) ?? run, charged: charge.outcome === 'succeeded' };
    case 'canceled':
      return { run: (await finish(deps, run, 'skipped', 'The campaign was canceled')) ?? run, charged: false };
    case 'no_card':
      return { run: (await waitForAgent(deps, run, before.status, 'needs_card', 'A card is needed to launch', 'autopilot.card_needed', null)) ?? run, charged: false };
    case 'authentication_required':
      return { run: (await waitForAgent(deps, run, before.status, 'needs_authentication', 'Your bank asks you to confirm the payment', 'autopilot.confirm_payment', charge.message)) ?? run, charged: false };
    case 'failed':
      return { run: (await waitForAgent(deps, run, before.status, 'charge_failed', `The payment failed: ${charge.message ?? 'declined'}`, 'autopilot.payment_failed', charge.message)) ?? run, charged: false };
  }
}

async function launched(deps: AutopilotDeps, run: RunRow, by: 'window' | 'launch_now' | 'checkout', from: AutopilotRunStatus[] = ['charging']): Promise<RunRow | undefined> {
  return moveRun(deps.db, run.id, from, 'launched', { launchedAt: nowOf(deps), launchedBy: by, reason: null });
}

async function finish(deps: AutopilotDeps, run: RunRow, to: AutopilotRunStatus, reason: string): Promise<RunRow | undefined> {
  return deps.db.transaction(async (trx) => {
    const moved = await moveRun(trx, run.id, ['charging'], to, { reason });
    if (moved?.campaignId && to !== 'launched') await cancelDraft(trx, moved.campaignId, `autopilot: ${reason}`);
    return moved;
  });
}

/** Nothing launched: the run waits for the agent, who gets one email about it (in the move's transaction). */
async function waitForAgent(
  deps: AutopilotDeps,
  run: RunRow,
  was: AutopilotRunStatus,
  to: 'needs_card' | 'needs_authentication' | 'charge_failed',
  reason: string,
  email: 'autopilot.card_needed' | 'autopilot.confirm_payment' | 'autopilot.payment_failed',
  message: string | null,
): Promise<RunRow | undefined> {
  return deps.db.transaction(async (trx) => {
    const moved = await moveRun(trx, run.id, ['charging'], to, { reason });
    // The same problem again (a retry that failed the same way) is not news.
    if (moved && moved.status !== was) {
      await notifyAutopilot({ queue: deps.queue }, trx, {
        kind: email,
        problem: {
          runId: run.id,
          agentId: run.agentId,
          campaignId: run.campaignId!,
          adLabel: run.summary.adLabel ?? 'Autopilot',
          headline: run.summary.headline ?? '',
          listingAddress: run.summary.listingAddress ?? run.listingKey,
          budgetCents: run.summary.budgetCents ?? 0,
          message,
          expiresAt: (run.expiresAt ?? new Date()).toISOString(),
        },
      });
    }
    return moved;
  });
}

/** Launch now (the email's link, the dashboard): the veto window ends at once, then the usual launch. */
export async function launchNow(deps: AutopilotDeps, runId: number): Promise<RunRow> {
  const now = nowOf(deps);
  const moved = await moveRun(deps.db, runId, ['scheduled'], 'scheduled', { launchAt: now, launchedBy: 'launch_now' });
  const run = moved ?? (await findRun(deps.db, runId));
  if (!run) throw runNotFound();
  if (!moved && !WAITING.includes(run.status)) throw runMovedOn(`This ad is ${run.status.replace('_', ' ')}: it cannot be launched now.`);
  const out = await launchDue(deps, runId, { retryWaiting: !moved });
  return out?.run ?? (await findRun(deps.db, runId))!;
}

/** Skip (the email's link, the dashboard, ops): nothing is charged, ever; the draft is canceled. */
export async function skipRun(deps: AutopilotDeps, runId: number, why = 'Skipped by the agent'): Promise<RunRow> {
  const run = await deps.db.transaction(async (trx) => {
    const moved = await moveRun(trx, runId, ['scheduled', ...WAITING], 'skipped', { reason: why });
    if (moved?.campaignId) await cancelDraft(trx, moved.campaignId, `autopilot: ${why}`);
    return moved;
  });
  if (run) return run;
  const current = await findRun(deps.db, runId);
  if (!current) throw runNotFound();
  if (current.status === 'skipped') return current;
  throw runMovedOn(current.status === 'charging' || current.status === 'launched' ? 'Too late: this ad is already launching.' : `This ad is ${current.status.replace('_', ' ')}: it cannot be skipped.`);
}

/** Resume (the back-on-market offer): the paused campaigns deliver again. */
export async function resumeRun(deps: AutopilotDeps, runId: number): Promise<RunRow> {
  const run = await findRun(deps.db, runId);
  if (!run) throw runNotFound();
  if (run.kind !== 'resume_offer') throw runNotFound();
  if (run.status === 'resumed') return run;
  if (run.status !== 'offered') throw runMovedOn(`This offer is ${run.status}.`);
  for (const id of run.targetCampaignIds) await resumeDelivery(deps, id, 'autopilot: the listing is back on the market');
  return (await moveRun(deps.db, run.id, ['offered'], 'resumed', { reason: 'Resumed: the home is back on the market' })) ?? (await findRun(deps.db, run.id))!;
}

/**
 * The minute's sweep (and `npm run ops -- autopilot run-due`): due drafts whose job was lost are launched;
 * waiting drafts whose campaign the agent paid on the checkout page count as launched, those for which a new
 * card was saved are tried again, and those past their expiry expire (their draft canceled, nothing charged).
 * Resume offers past theirs expire. A paused ad whose flight is over is ended and settled (reports' door), so the
 * guarantee's credit for what it did not deliver is not left waiting for a listing that never comes back.
 */
export async function sweep(deps: AutopilotDeps): Promise<{ launched: number; retried: number; expired: number; settled: number }> {
  const now = nowOf(deps);
  const out = { launched: 0, retried: 0, expired: 0, settled: 0 };
  for (const campaignId of await pausedCampaignsPastFlight(deps.db, now, 100)) {
    try {
      const reason = 'Stopped: the flight ended while paused';
      await stopDeliveryForListing(deps, campaignId, 'stop', reason);
      // paused → completed (stopped at the platform already), its unused impressions recorded; then settled.
      if (await settleCampaignNow(deps, campaignId, reason)) out.settled++;
    } catch (err) {
      deps.logger.warn({ campaignId, err: (err as Error).message }, 'autopilot: settling a paused ad past its flight failed; tried again later');
    }
  }
  const due = await deps.db(RUNS).whereIn('status', ['scheduled', 'charging']).where('launchAt', '<=', now).orderBy('launchAt').limit(200).select('id');
  for (const { id } of due) {
    try {
      if (await launchDue(deps, Number(id))) out.launched++;
    } catch (err) {
      deps.logger.warn({ runId: Number(id), err: (err as Error).message }, 'autopilot: a due launch failed; tried again later');
    }
  }
  const waiting = (await deps.db(RUNS).whereIn('status', [...WAITING, 'offered']).orderBy('id').limit(500)).map(toRun);
  const campaigns = await campaignSummaries(waiting.map((r) => r.campaignId).filter((id): id is number => !!id));
  const cards = await savedCardsSavedAt(deps.db, [...new Set(waiting.map((r) => r.agentId))]);
  for (const run of waiting) {
    const paid = run.campaignId ? campaigns.get(run.campaignId) : undefined;
    if (run.kind !== 'resume_offer' && paid && !['draft', 'pending_payment', 'canceled'].includes(paid.status)) {
      if (await launched(deps, run, 'checkout', [...WAITING])) out.launched++;
      continue;
    }
    if (run.expiresAt && run.expiresAt <= now) {
      const expired = await deps.db.transaction(async (trx: Knex.Transaction) => {
        const moved = await moveRun(trx, run.id, [...WAITING, 'offered'], 'expired', { reason: run.kind === 'resume_offer' ? 'Expired: the offer was not taken' : 'Expired: not paid within 72 hours of its launch time' });
        if (moved?.campaignId) await cancelDraft(trx, moved.campaignId, 'autopilot: expired unpaid');
        return moved;
      });
      if (expired) out.expired++;
      continue;
    }
    const savedAt = cards.get(run.agentId);
    if (run.kind !== 'resume_offer' && savedAt && (!run.lastAttemptAt || savedAt > run.lastAttemptAt)) {
      try {
        if (await launchDue(deps, run.id, { retryWaiting: true })) out.retried++;
      } catch (err) {
        deps.logger.warn({ runId: run.id, err: (err as Error).message }, 'autopilot: a retry failed; tried again later');
      }
    }
  }
  return out;
}

