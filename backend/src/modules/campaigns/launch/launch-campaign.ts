import type { Config } from '../../../platform/config';
import type { Db } from '../../../platform/db/knex';
import type { Logger } from '../../../platform/logger';
import { PermanentJobError } from '../../../platform/jobs/job';
import { recordLaunchAttempt } from '../../../platform/metrics';
import { Campaign, type CampaignStatus } from '../campaign.model';
import { transitionCampaign } from '../campaign-transitions';
import { findListingForCampaign } from '../listing-access';
import { AdPlatformError, type AdPlatform } from '../providers/ad-platform';
import { buildLaunchPlan, LaunchInputError } from './launch-plan';
import type { Queue } from '../../../platform/jobs/queue';
import { notifyCampaignLive } from '../../notifications';

/**
 * How long one attempt may hold its campaign. Longer than the job's expireInSeconds (120): pg-boss
 * gives up on an attempt before its lease lapses, and a retry of the same job takes the lease over at
 * once (same job id), while any other job waits for it to lapse.
 */
export const LAUNCH_LEASE_SECONDS = 150;

export interface LaunchDeps {
  db: Db;
  config: Config;
  logger: Logger;
  platform: AdPlatform;
  /** For the go-live email, enqueued with the move to active (the launch job passes its queue). */
  queue?: Pick<Queue, 'send'>;
}

export interface LaunchAttempt {
  jobId: string;
  /** 0 on the job's first attempt. */
  retryCount: number;
  retryLimit: number;
}

type Claim =
  | { kind: 'claimed'; campaign: Campaign; attempt: number }
  | { kind: 'done'; status: CampaignStatus }
  | { kind: 'busy' }
  | { kind: 'refused'; reason: string };

/**
 * Launch a paid campaign on the ad platform: paid | launching | launch_failed → launching → active.
 *
 * Crash safety, step by step:
 *  1. Claim, in one short transaction on the locked row: the status moves to launching (the attempt is
 *     counted), and this job takes the launch lease. active/completed/canceled: nothing to do.
 *  2. Each platform object is recorded the moment the platform answers — facebook_campaign_id on
 *     campaigns, the ad_sets row's facebook_ad_set_id, the ads row's creative_id then facebook_ad_id —
 *     so a later attempt starts after the last recorded step and never creates a second campaign.
 *  3. Before creating an object that is not recorded, a retry (any attempt after the campaign's first)
 *     asks the platform for it by its name (which carries our campaign id): a crash between the
 *     platform's answer and our write is found. The first attempt has nothing to find and skips that.
 *  4. Success: launching → active with starts_at/ends_at; ad set and ad active.
 * Failures: a refusal (invalid parameter, bad data) → launch_failed with the reason, and a
 * PermanentJobError (dead-letter, no retries). Anything transient → the reason is recorded and the
 * error rethrown for pg-boss's retry with backoff; on the last attempt the campaign is marked
 * launch_failed first. A dead-lettered launch is redriven by ops and resumes like any retry.
 */
export async function launchCampaign(deps: LaunchDeps, campaignId: number, attempt: LaunchAttempt): Promise<void> {
  const { db, logger, platform, config } = deps;
  const log = logger.child({ campaignId, provider: platform.name });

  const claim = await claimLaunch(db, campaignId, attempt.jobId);
  if (claim.kind === 'done') {
    log.info({ status: claim.status }, 'launch: nothing to do');
    return;
  }
  if (claim.kind === 'refused') throw new PermanentJobError(claim.reason);
  // Another job holds the lease (a duplicate): retry later; by then that launch has finished or lapsed.
  if (claim.kind === 'busy') throw new Error(`campaign ${campaignId} is being launched by another job`);

  const c = claim.campaign;
  log.info({ attempt: claim.attempt, jobAttempt: attempt.retryCount + 1 }, 'launch: started');
  try {
    const listing = await findListingForCampaign(c.listingId);
    if (!listing) throw new LaunchInputError(`Listing ${c.listingId} no longer exists`);
    const plan = buildLaunchPlan(c, listing, { publicUrl: config.PUBLIC_URL, requireAbsoluteLink: platform.name === 'meta' });
    // Only an earlier attempt can have created something we did not record: the first one skips the lookups.
    const earlier = claim.attempt > 1;
    if (plan.fairHousingFindings) log.info({ findings: plan.fairHousingFindings }, 'launch: Fair Housing rewrite changed the ad copy');

    // The ad set's row first (our database, no platform call): the creative is recorded on the ads row,
    // which belongs to it, so both branches below can record what they create the moment they have it.
    let adSet = (await db('adSets').where({ campaignId: c.id }).first()) ?? (await upsertAdSet(db, c.id, { dailyBudget: plan.dailyBudgetCents, targeting: plan.targeting }));
    let ad = await db('ads').where({ adSetId: adSet.id }).first();

    // 1. The campaign, then the ad set — while the image is uploaded and the creative made (2).
    let platformCampaignId = c.facebookCampaignId;
    const campaignAndAdSet = async (): Promise<string> => {
      let campaignId = platformCampaignId;
      if (!campaignId) {
        campaignId = (earlier ? await platform.findCampaign(plan.names.campaign) : undefined) ?? (await platform.createCampaign(plan.campaign));
        await db('campaigns').where({ id: c.id }).whereNull('facebookCampaignId').update({ facebookCampaignId: campaignId, updatedAt: db.fn.now() });
        platformCampaignId = campaignId;
        log.info({ platformCampaignId }, 'launch: campaign recorded');
      }
      // Its window is fixed (and written) before it is created, so a retry that finds it sends nothing different.
      let platformAdSetId: string | undefined = adSet.facebookAdSetId ?? undefined;
      if (!platformAdSetId) {
        platformAdSetId = earlier ? await platform.findAdSet(plan.names.adSet, campaignId) : undefined;
        if (!platformAdSetId) {
          const window = await fixWindow(db, c.id, plan.timeframeDays * config.CAMPAIGN_TIME_SCALE);
          platformAdSetId = await platform.createAdSet({
            name: plan.names.adSet,
            platformCampaignId: campaignId,
            dailyBudgetCents: plan.dailyBudgetCents,
            startTime: window.startsAt,
            endTime: window.endsAt,
            targeting: plan.targeting,
          });
        }
        adSet = await upsertAdSet(db, c.id, { dailyBudget: plan.dailyBudgetCents, targeting: plan.targeting, facebookAdSetId: platformAdSetId });
        log.info({ platformAdSetId }, 'launch: ad set recorded');
      }
      return platformAdSetId;
    };

    // 2. The creative (the image upload is part of it). A retry looks for an ad first (below): it may carry
    // the creative an earlier attempt made, so only a first attempt makes the creative right away.
    const creative = async (): Promise<void> => {
      if (earlier || ad?.facebookAdId || ad?.creativeId) return;
      // An orphan creative (a crash right after this call) never delivers on its own; the retry makes another.
      const creativeId = await platform.createCreative({ name: plan.names.creative, ...plan.creative });
      ad = await upsertAd(db, adSet.id, plan, { creativeId });
      log.info({ creativeId }, 'launch: creative recorded');
    };

    // Both branches finish (and record what they made) before a failure of either is handled.
    const [adSetResult, creativeResult] = await Promise.allSettled([campaignAndAdSet(), creative()]);
    if (adSetResult.status === 'rejected') throw adSetResult.reason;
    if (creativeResult.status === 'rejected') throw creativeResult.reason;
    const platformAdSetId = adSetResult.value;

    // 3. The ad.
    if (!ad?.facebookAdId) {
      const found = earlier ? await platform.findAd(plan.names.ad, platformAdSetId) : undefined;
      let platformAdId = found?.id;
      let creativeId: string | undefined = found?.creativeId ?? ad?.creativeId ?? undefined;
      if (!platformAdId) {
        if (!creativeId) {
          creativeId = await platform.createCreative({ name: plan.names.creative, ...plan.creative });
          ad = await upsertAd(db, adSet.id, plan, { creativeId });
          log.info({ creativeId }, 'launch: creative recorded');
        }
        platformAdId = await platform.createAd({ name: plan.names.ad, platformAdSetId, creativeId });
      }
      ad = await upsertAd(db, adSet.id, plan, { creativeId, facebookAdId: platformAdId });
      log.info({ platformAdId }, 'launch: ad recorded');
    }

    // 4. Active.
    const paidSecondsAgo = await db.transaction(async (trx) => {
      const moved = await transitionCampaign(trx, c.id, ['launching'], 'active', `launched on ${platform.name}`);
      await trx('campaigns')
        .where({ id: c.id })
        .update({ launchError: null, launchLeaseJob: null, launchLeaseUntil: null, updatedAt: trx.fn.now() });
      if (moved) {
        await trx('adSets').where({ campaignId: c.id }).update({ status: 'active' });
        await trx('ads').where({ adSetId: adSet.id }).update({ status: 'active' });
        if (deps.queue) {
          const live = await trx('campaigns').where({ id: c.id }).first('startsAt', 'endsAt');
          await notifyCampaignLive({ queue: deps.queue }, trx, {
            campaignId: c.id,
            agentId: c.agentId,
            headline: plan.creative.headline,
            primaryText: plan.creative.primaryText,
            imageUrl: plan.creative.images[0] ?? null,
            listingAddress: `${listing.city}, ${listing.state}`,
            targeting: [`${plan.targeting.location.label} (+${plan.targeting.location.radiusMiles} mi)`, ...plan.targeting.interests].join(' · '),
            budgetCents: c.budgetCents,
            impressions: c.impressionsRequested,
            startsAt: live?.startsAt ? new Date(live.startsAt).toISOString() : null,
            endsAt: live?.endsAt ? new Date(live.endsAt).toISOString() : null,
          });
        }
        // From the payment to now: the launch's latency as the agent sees it (platform/metrics).
        const paid = await trx('campaignTransitions').where({ campaignId: c.id, toStatus: 'paid' }).max('createdAt as at').first<{ at: Date | null }>();
        return paid?.at ? Math.max(0, (Date.now() - new Date(paid.at).getTime()) / 1000) : undefined;
      }
      return undefined;
    });
    recordLaunchAttempt(platform.name, 'active', paidSecondsAgo);
    log.info({ platformCampaignId }, 'launch: active');
  } catch (err) {
    const reason = describe(err);
    const permanent = err instanceof LaunchInputError || (err instanceof AdPlatformError && !err.transient);
    recordLaunchAttempt(platform.name, permanent || attempt.retryCount >= attempt.retryLimit ? 'failed' : 'retrying');
    if (permanent) {
      await markLaunchFailed(db, c.id, attempt.jobId, reason);
      log.warn({ reason }, 'launch: failed; not retried');
      throw new PermanentJobError(reason);
    }
    if (attempt.retryCount >= attempt.retryLimit) {
      const total = attempt.retryLimit + 1;
      await markLaunchFailed(db, c.id, attempt.jobId, `${reason} (gave up after ${total} attempt${total === 1 ? '' : 's'})`);
      log.error({ reason }, 'launch: failed; retries exhausted, dead-lettered');
    } else {
      // Still launching: the reason is visible while pg-boss waits to retry.
      await db('campaigns')
        .where({ id: c.id, status: 'launching', launchLeaseJob: attempt.jobId })
        .update({ launchError: `${reason} (retrying)`, launchLeaseUntil: null, updatedAt: db.fn.now() });
      log.warn({ reason, retryCount: attempt.retryCount }, 'launch: attempt failed; will retry');
    }
    throw err;
  }
}

async function claimLaunch(db: Db, campaignId: number, jobId: string): Promise<Claim> {
  return db.transaction(async (trx) => {
    const row = await trx('campaigns')
      .where({ id: campaignId })
      .forUpdate()
      .first<{ status: CampaignStatus; launchAttempts: number; leaseLive: boolean; launchLeaseJob: string | null } | undefined>(
        'status',
        'launchAttempts',
        'launchLeaseJob',
        trx.raw('(launch_lease_until is not null and launch_lease_until > now()) as lease_live'),
      );
    if (!row) return { kind: 'refused', reason: `Campaign ${campaignId} does not exist` };
    if (row.status === 'active' || row.status === 'completed' || row.status === 'canceled') return { kind: 'done', status: row.status };
    if (row.status === 'draft' || row.status === 'pending_payment') return { kind: 'refused', reason: `Campaign ${campaignId} is not paid (status ${row.status})` };
    if (row.leaseLive && row.launchLeaseJob !== jobId) return { kind: 'busy' };
    const attempt = row.launchAttempts + 1;
    if (row.status !== 'launching') await transitionCampaign(trx, campaignId, ['paid', 'launch_failed'], 'launching', `launch attempt ${attempt}`);
    await trx('campaigns')
      .where({ id: campaignId })
      .update({
        launchAttempts: attempt,
        launchLeaseJob: jobId,
        launchLeaseUntil: trx.raw(`now() + make_interval(secs => ?)`, [LAUNCH_LEASE_SECONDS]),
        updatedAt: trx.fn.now(),
      });
    const campaign = await Campaign.query(trx).findById(campaignId);
    return { kind: 'claimed', campaign: campaign!, attempt };
  });
}

/** starts_at/ends_at for a new ad set: from now for the timeframe's days, written before the ad set is created. */
/** The flight: from now for `days` (shortened by CAMPAIGN_TIME_SCALE in tests and demos: fractions of a day). */
async function fixWindow(db: Db, campaignId: number, days: number): Promise<{ startsAt: Date; endsAt: Date }> {
  const [row] = await db('campaigns')
    .where({ id: campaignId })
    .update({
      startsAt: db.raw("date_trunc('second', now())"),
      endsAt: db.raw(`date_trunc('second', now()) + make_interval(secs => ?)`, [Math.max(1, Math.round(days * 86_400))]),
      updatedAt: db.fn.now(),
    })
    .returning(['startsAt', 'endsAt']);
  return { startsAt: row.startsAt, endsAt: row.endsAt };
}

async function upsertAdSet(db: Db, campaignId: number, values: { dailyBudget: number; targeting: unknown; facebookAdSetId?: string }) {
  const [row] = await db('adSets')
    .insert({ campaignId, dailyBudget: values.dailyBudget, targeting: JSON.stringify(values.targeting), facebookAdSetId: values.facebookAdSetId ?? null })
    .onConflict('campaignId')
    .merge(values.facebookAdSetId ? ['facebookAdSetId'] : ['dailyBudget', 'targeting'])
    .returning('*');
  return row as { id: number; facebookAdSetId: string | null };
}

async function upsertAd(db: Db, adSetId: number, plan: ReturnType<typeof buildLaunchPlan>, ids: { creativeId?: string; facebookAdId?: string }) {
  const cr = plan.creative;
  const [row] = await db('ads')
    .insert({
      adSetId,
      creativeId: ids.creativeId ?? null,
      facebookAdId: ids.facebookAdId ?? null,
      headline: cr.headline.slice(0, 255),
      primaryText: cr.primaryText,
      description: cr.description,
      link: cr.link,
      imageUrl: cr.images[0],
    })
    .onConflict('adSetId')
    .merge(ids.facebookAdId ? ['facebookAdId', 'creativeId'] : ['creativeId'])
    .returning('*');
  return row as { id: number; creativeId: string | null; facebookAdId: string | null };
}

/** launching → launch_failed with the reason, if this job still holds the launch. */
async function markLaunchFailed(db: Db, campaignId: number, jobId: string, reason: string): Promise<void> {
  await db.transaction(async (trx) => {
    const held = await trx('campaigns').where({ id: campaignId, launchLeaseJob: jobId }).forUpdate().first('id');
    if (!held) return;
    await transitionCampaign(trx, campaignId, ['launching'], 'launch_failed', reason.slice(0, 1000));
    await trx('campaigns')
      .where({ id: campaignId })
      .update({ launchError: reason.slice(0, 2000), launchLeaseJob: null, launchLeaseUntil: null, updatedAt: trx.fn.now() });
    await trx('adSets').where({ campaignId, status: 'pending' }).update({ status: 'failed' });
  });
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
