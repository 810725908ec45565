import type { Knex } from 'knex';
import { AUTOPILOT_EXPIRY_HOURS, AUTOPILOT_KIND_LABELS, type AutopilotRunKind, type AutopilotSettings } from '@app/contracts';
import { AppError } from '../../platform/errors';
import { mlsAgentsByMlsIds } from '../agents';
import {
  buildAutopilotDraft,
  campaignSummaries,
  cancelDraft,
  insertAutopilotDraft,
  liveCampaignsForListing,
  stopDeliveryForListing,
  recordDeliveryStopped,
  type AutopilotAdKind,
} from '../campaigns';
import { findListingEvents, importFeedListing, type ListingEvent } from '../mls';
import { notifyAutopilot } from '../notifications';
import { settleCampaignNow } from '../reports';
import { savedCardOf } from '../payments';
import { draftTimes, nowOf, scaledMs, type AutopilotDeps } from './deps';
import { enabledSettings, enabledSince, loadSettings } from './settings';
import { findRun, moveRun, RUNS, toRun, type RunRow, type RunSummary } from './runs';
import { launchDueJob } from './jobs/launch-due.job';

/**
 * What autopilot does about a listing event (DESIGN §7), for one agent with autopilot on:
 * - new → a Just Listed draft; price_drop → a Price Improved draft (if that trigger is on);
 * - sold → the running Just Listed ad stops, and a Just Sold draft follows;
 * - pending, withdrawn → the running ad pauses at the ad platform (if pause on pending is on);
 * - back_on_market → a resume is offered.
 * A draft waits out the veto window (scheduled, launchAt = detectedAt + window), then launch.ts charges and
 * launches it. Each (event, agent, kind) is one run: a replayed event or a second worker finds it there.
 */

/** The events of one replicated page → one handling job per (event, agent) for the agents with autopilot on. */
export async function eventsForAgents(deps: Pick<AutopilotDeps, 'db'>, eventIds: readonly number[]): Promise<{ eventId: number; agentId: number }[]> {
  const events = await findListingEvents(deps.db, eventIds);
  const mlsIds = [...new Set(events.map((e) => e.agentMlsId).filter((id): id is string => !!id))];
  const agents = await mlsAgentsByMlsIds(mlsIds);
  const enabled = await enabledSettings(deps.db, agents.map((a) => a.id));
  const out: { eventId: number; agentId: number }[] = [];
  for (const e of events) {
    for (const a of agents) if (a.mlsId === e.agentMlsId && enabled.has(a.id)) out.push({ eventId: e.id, agentId: a.id });
  }
  return out;
}

export type EventOutcome = { runs: RunRow[] };

/** Handle one event for one agent: the runs it made or found. Safe to run again (replays, retries, two workers). */
export async function handleListingEvent(deps: AutopilotDeps, eventId: number, agentId: number): Promise<EventOutcome> {
  const settings = await loadSettings(deps.db, agentId);
  const [event] = await findListingEvents(deps.db, [eventId]);
  if (!event || !settings.enabled) return { runs: [] };
  // A change from before autopilot was turned on is not its business (a replay of old pages, say).
  const since = await enabledSince(deps.db, agentId);
  if (!since || event.detectedAt < since) return { runs: [] };
  const runs: RunRow[] = [];
  const add = (r: RunRow | null) => r && runs.push(r);
  switch (event.type) {
    case 'new':
      if (settings.triggers.justListed) add(await draftRun(deps, event, agentId, settings, 'just_listed'));
      break;
    case 'price_drop':
      if (settings.triggers.priceImproved) add(await draftRun(deps, event, agentId, settings, 'price_improved'));
      break;
    case 'sold': {
      await skipPendingDrafts(deps, event, agentId, ['just_listed', 'price_improved'], 'the home sold');
      const stopped = await deliveryRun(deps, event, agentId, 'stop', 'the home sold');
      add(stopped);
      if (settings.triggers.justSold) add(await draftRun(deps, event, agentId, settings, 'just_sold', stopped?.targetCampaignIds[0] ?? null));
      break;
    }
    case 'pending':
    case 'withdrawn': {
      const why = event.type === 'pending' ? 'the home went under contract' : `the home is off the market (${event.reason ?? 'withdrawn'})`;
      await skipPendingDrafts(deps, event, agentId, ['just_listed', 'price_improved'], why);
      if (settings.pauseOnPending) add(await deliveryRun(deps, event, agentId, 'pause', why));
      break;
    }
    case 'back_on_market':
      add(await resumeOfferRun(deps, event, agentId));
      break;
  }
  return { runs };
}

const addressOf = (listing: { address: string; city: string; state: string }) => [listing.address, listing.city, listing.state].filter(Boolean).join(', ');

/**
 * A draft for the event, scheduled for launchAt = detectedAt + the veto window, and its email, in one
 * transaction with the run: the run's (event, agent, kind) key lets only one draft exist, however many
 * workers build one. The copywriter runs before (it may be a network call); a loser's copy is dropped.
 */
async function draftRun(deps: AutopilotDeps, event: ListingEvent, agentId: number, settings: AutopilotSettings, kind: AutopilotAdKind, stoppedCampaignId: number | null = null): Promise<RunRow | null> {
  const existing = await runFor(deps.db, event.id, agentId, kind);
  if (existing) return existing;
  const { launchAt, expiresAt } = draftTimes(deps.config, event.detectedAt, settings.vetoWindowHours);
  const listingId = await deps.db.transaction((trx) => importFeedListing(trx, event.feed, agentId, event.listingKey));
  let content: Awaited<ReturnType<typeof buildAutopilotDraft>> | null = null;
  let failure: string | null = listingId === null ? 'The MLS record cannot be shown as a listing (no price or address)' : null;
  if (listingId !== null) {
    try {
      content = await buildAutopilotDraft(deps, { agentId, listingId, kind, adFormat: settings.adFormat, price: settings.budget, previousPriceCents: event.previousPriceCents });
    } catch (err) {
      // Bad data no retry can fix (no photo…) is recorded; anything else (the copywriter is down) is retried by the job.
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      failure = err.message;
    }
  }
  const card = await savedCardOf(deps.db, agentId);
  return deps.db.transaction(async (trx) => {
    const base = { agentId, eventId: event.id, feed: event.feed, listingKey: event.listingKey, kind, detectedAt: event.detectedAt };
    if (!content) {
      const [row] = await trx(RUNS).insert({ ...base, status: 'failed', reason: failure, summary: JSON.stringify({ adLabel: AUTOPILOT_KIND_LABELS[kind] }) }).onConflict(['eventId', 'agentId', 'kind']).ignore().returning('*');
      return row ? toRun(row) : ((await runFor(trx, event.id, agentId, kind)) ?? null);
    }
    const [row] = await trx(RUNS)
      .insert({ ...base, status: 'scheduled', launchAt, expiresAt, launchedBy: null })
      .onConflict(['eventId', 'agentId', 'kind'])
      .ignore()
      .returning('*');
    // Another worker (or an earlier run of this job) made it: its draft stands, this copy is dropped.
    if (!row) return (await runFor(trx, event.id, agentId, kind)) ?? null;
    const run = toRun(row);
    const draft = await insertAutopilotDraft(trx, deps.config, content, `autopilot: ${event.type} ${event.listingKey}`);
    const listingAddress = addressOf(draft.listing);
    const summary: RunSummary = {
      listingAddress,
      listingPriceCents: draft.listing.priceCents,
      adLabel: AUTOPILOT_KIND_LABELS[kind],
      headline: draft.headline,
      description: draft.description,
      imageUrl: draft.imageUrl,
      budgetCents: draft.budgetCents,
      impressions: draft.impressions,
      stoppedCampaignId,
    };
    const [updated] = await trx(RUNS).where({ id: run.id }).update({ campaignId: draft.campaignId, summary: JSON.stringify(summary), updatedAt: trx.fn.now() }).returning('*');
    await notifyAutopilot({ queue: deps.queue }, trx, {
      kind: 'autopilot.scheduled',
      ad: {
        runId: run.id,
        agentId,
        campaignId: draft.campaignId,
        adLabel: summary.adLabel!,
        headline: draft.headline,
        description: draft.description,
        imageUrl: draft.imageUrl,
        listingAddress,
        listingPriceCents: draft.listing.priceCents,
        budgetCents: draft.budgetCents,
        impressions: draft.impressions,
        launchAt: launchAt.toISOString(),
        card: card ? `${cap(card.brand)} •••• ${card.last4}` : null,
        stoppedCampaignId,
      },
    });
    // The launch, due at launchAt (the sweep is the backstop if this job is lost).
    await deps.queue.send(launchDueJob, { runId: run.id }, { trx, startAfter: launchAt, singletonKey: `autopilot-run-${run.id}` });
    return toRun(updated);
  });
}

const cap = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/** How the agent's earlier autopilot emails named the home, else its MLS number. */
async function addressOfListing(deps: Pick<AutopilotDeps, 'db'>, agentId: number, listingKey: string): Promise<string> {
  const row = (await deps.db(RUNS).where({ agentId, listingKey }).whereRaw(`jsonb_exists(summary, 'listingAddress')`).orderBy('id', 'desc').first('summary')) as { summary: RunSummary } | undefined;
  return row?.summary.listingAddress ?? `MLS # ${listingKey}`;
}

async function runFor(db: AutopilotDeps['db'] | Knex.Transaction, eventId: number, agentId: number, kind: AutopilotRunKind): Promise<RunRow | undefined> {
  const row = await db(RUNS).where({ eventId, agentId, kind }).first();
  return row ? toRun(row) : undefined;
}

/** Drafts of this listing not launched yet are skipped when it leaves the market: never an ad for a home under contract. */
async function skipPendingDrafts(deps: AutopilotDeps, event: ListingEvent, agentId: number, kinds: AutopilotRunKind[], why: string): Promise<void> {
  const rows = await deps.db(RUNS).where({ agentId, listingKey: event.listingKey, feed: event.feed }).whereIn('kind', kinds).whereIn('status', ['scheduled', 'needs_card', 'needs_authentication', 'charge_failed']).select('id');
  for (const { id } of rows) {
    await deps.db.transaction(async (trx) => {
      const run = await moveRun(trx, Number(id), ['scheduled', 'needs_card', 'needs_authentication', 'charge_failed'], 'skipped', { reason: `Skipped: ${why}` });
      if (run?.campaignId) await cancelDraft(trx, run.campaignId, `autopilot: ${why}`);
    });
  }
}

/**
 * Pause (pending, withdrawn) or stop (sold) the agent's running campaigns for the listing: at the ad platform,
 * within the poll that saw the change (this job runs right after it), with the impressions not delivered
 * recorded for the guarantee. A campaign still launching is tried again (the job's retries). The email is
 * sent by the move that finishes the run, once.
 */
async function deliveryRun(deps: AutopilotDeps, event: ListingEvent, agentId: number, mode: 'pause' | 'stop', why: string): Promise<RunRow | null> {
  let run = await runFor(deps.db, event.id, agentId, mode);
  if (!run) {
    const targets = (await liveCampaignsForListing(agentId, event.listingKey)).filter((c) => (mode === 'pause' ? c.status !== 'paused' : true));
    if (!targets.length) return null;
    const [row] = await deps.db(RUNS)
      .insert({
        agentId,
        eventId: event.id,
        feed: event.feed,
        listingKey: event.listingKey,
        kind: mode,
        status: mode === 'pause' ? 'pausing' : 'stopping',
        targetCampaignIds: JSON.stringify(targets.map((c) => c.id)),
        detectedAt: event.detectedAt,
        reason: why,
        summary: JSON.stringify({ headline: targets[0].headline, imageUrl: targets[0].imageUrl, budgetCents: targets[0].budgetCents }),
      })
      .onConflict(['eventId', 'agentId', 'kind'])
      .ignore()
      .returning('*');
    run = row ? toRun(row) : await runFor(deps.db, event.id, agentId, mode);
  }
  if (!run || (run.status !== 'pausing' && run.status !== 'stopping')) return run ?? null;
  const listingAddress = await addressOfListing(deps, agentId, event.listingKey);
  const reason = mode === 'pause' ? `Paused: ${why}` : `Stopped: ${why}`;
  let delivered = 0;
  let unused = 0;
  for (const campaignId of run.targetCampaignIds) {
    if (mode === 'pause') {
      const outcome = await stopDeliveryForListing(deps, campaignId, 'pause', reason);
      // Still launching: pg-boss runs this job again (backoff) and the pause happens once it is live.
      if (!outcome.done) throw new Error(`campaign ${campaignId}: ${outcome.why}; trying again`);
      continue;
    }
    // Sold: the campaign ends early and is settled now (reports' door: stopped at the ad platform, read once more,
    // completed, then the credit for the part not delivered, the final report and the seller link). A paused
    // campaign is completed here first (it is stopped at the platform already), then settled the same way.
    const summary = (await campaignSummaries([campaignId])).get(campaignId);
    if (summary?.status === 'paid' || summary?.status === 'launching') throw new Error(`campaign ${campaignId}: the campaign is still launching; trying again`);
    if (summary?.status === 'paused') await stopDeliveryForListing(deps, campaignId, 'stop', reason);
    if (summary?.status === 'active' || summary?.status === 'paused' || summary?.status === 'completed') {
      await settleCampaignNow(deps, campaignId, reason);
      await recordDeliveryStopped(deps.db, campaignId, reason);
    }
  }
  for (const c of (await campaignSummaries(run.targetCampaignIds)).values()) {
    delivered += c.impressionsDelivered;
    unused += c.unusedImpressions ?? Math.max(0, c.impressionsRequested - c.impressionsDelivered);
  }
  return deps.db.transaction(async (trx) => {
    const moved = await moveRun(trx, run!.id, [mode === 'pause' ? 'pausing' : 'stopping'], mode === 'pause' ? 'paused' : 'stopped', { reason });
    if (!moved) return (await findRun(trx, run!.id)) ?? null;
    await notifyAutopilot({ queue: deps.queue }, trx, {
      kind: 'autopilot.delivery_stopped',
      stopped: { agentId, campaignId: run!.targetCampaignIds[0], listingAddress, mode: mode === 'pause' ? 'paused' : 'stopped', reason: why, delivered, unusedImpressions: unused },
    });
    return moved;
  });
}

/** Back on the market with a paused ad: offer to resume it (an email with a one-tap link, and the dashboard). */
async function resumeOfferRun(deps: AutopilotDeps, event: ListingEvent, agentId: number): Promise<RunRow | null> {
  const existing = await runFor(deps.db, event.id, agentId, 'resume_offer');
  if (existing) return existing;
  const paused = (await liveCampaignsForListing(agentId, event.listingKey)).filter((c) => c.status === 'paused');
  if (!paused.length) return null;
  const expiresAt = new Date(nowOf(deps).getTime() + scaledMs(deps.config, AUTOPILOT_EXPIRY_HOURS));
  return deps.db.transaction(async (trx) => {
    const [row] = await trx(RUNS)
      .insert({
        agentId,
        eventId: event.id,
        feed: event.feed,
        listingKey: event.listingKey,
        kind: 'resume_offer',
        status: 'offered',
        targetCampaignIds: JSON.stringify(paused.map((c) => c.id)),
        detectedAt: event.detectedAt,
        expiresAt,
        summary: JSON.stringify({ headline: paused[0].headline, imageUrl: paused[0].imageUrl, budgetCents: paused[0].budgetCents }),
      })
      .onConflict(['eventId', 'agentId', 'kind'])
      .ignore()
      .returning('*');
    if (!row) return (await runFor(trx, event.id, agentId, 'resume_offer')) ?? null;
    const run = toRun(row);
    await notifyAutopilot({ queue: deps.queue }, trx, {
      kind: 'autopilot.resume_offer',
      offer: { runId: run.id, agentId, campaignId: paused[0].id, listingAddress: await addressOfListing(deps, agentId, event.listingKey), unusedImpressions: paused[0].unusedImpressions, expiresAt: expiresAt.toISOString() },
    });
    return run;
  });
}

