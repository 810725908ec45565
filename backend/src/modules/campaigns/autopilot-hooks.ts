import type { Knex } from 'knex';
import {
  DEFAULT_CALL_TO_ACTION,
  DEFAULT_TARGET_AUDIENCE,
  carouselImagesForListing,
  defaultHeadline,
  defaultSubtitle,
  defaultTargetingDraft,
  formatUsd,
  impressionsForBudget,
  listingImages,
  listingPagePath,
  type AdFormat,
  campaignDraftSchema,
  type CampaignDraftPayload,
  type CampaignStatus,
  type TemplateType,
} from '@app/contracts';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/knex';
import type { Logger } from '../../platform/logger';
import { notFound } from '../../platform/errors';
import { findAgent } from '../agents';
import { Campaign } from './campaign.model';
import { transitionCampaign } from './campaign-transitions';
import { insertDraft } from './campaigns.service';
import { findListingForCampaign, type CampaignListing } from './listing-access';
import { optimizeAdCopy } from './ad-copy/ad-copy.service';
import { createAdCopyProvider } from './ad-copy/providers';
import { rewriteForFairHousing } from './fair-housing/fair-housing';
import { adPlatformForCampaignId, AdPlatformError } from './providers';

/**
 * What the autopilot module may do to campaigns (DESIGN §7), through this door only:
 * - build a draft exactly as the wizard would (the same defaults, AI copy through the Fair Housing
 *   rewrite, the agent's branding, compliant default targeting) and insert it in autopilot's transaction;
 * - cancel a draft that was skipped or expired;
 * - pause a running campaign at the ad platform when its listing goes under contract or off the market,
 *   resume it, or stop it when the listing sells, recording the impressions not delivered for the guarantee.
 */

export type AutopilotAdKind = 'just_listed' | 'just_sold' | 'price_improved';

export interface AutopilotDraftRequest {
  agentId: number;
  listingId: number;
  kind: AutopilotAdKind;
  adFormat: AdFormat;
  /** The budget in whole dollars, on the budget grid. */
  price: number;
  /** For a Price Improved ad: the list price before the drop, in cents. */
  previousPriceCents?: number | null;
}

/** A draft's content, worked out before the transaction that stores it (the copywriter may be a network call). */
export interface AutopilotDraftContent {
  payload: CampaignDraftPayload;
  listing: CampaignListing;
}

/** A stored draft, with what an email shows of it. */
export interface AutopilotDraft {
  campaignId: number;
  headline: string;
  description: string;
  imageUrl: string | null;
  budgetCents: number;
  impressions: number;
  templateType: TemplateType;
  listing: { mlsId: string; address: string; city: string; state: string; priceCents: number };
}

const KIND_TEMPLATE: Record<AutopilotAdKind, TemplateType> = { just_listed: 'just-listed', just_sold: 'just-sold', price_improved: 'just-listed' };

/**
 * The draft the wizard would make for this listing, with the agent's chosen format and budget: the listing's
 * defaults (headline, subtitle, call to action, audience), its photos, its public page as the link, the ad
 * copy the copywriter writes for the listing (variant 0, rewritten for Fair Housing), and the default
 * targeting around the listing (its city, the default radius and interests: no age, gender or ZIP).
 * A Price Improved ad is a Just Listed ad that leads with the new price.
 */
export async function buildAutopilotDraft(deps: { config: Config; logger: Logger }, request: AutopilotDraftRequest): Promise<AutopilotDraftContent> {
  const listing = await findListingForCampaign(request.listingId);
  if (!listing || listing.agentId !== request.agentId) throw notFound('listing');
  const templateType = KIND_TEMPLATE[request.kind];
  let description = await optimizeAdCopy(createAdCopyProvider(deps.config, deps.logger), { listing, templateType, variant: 0, refresh: false });
  let headline = defaultHeadline(templateType, listing.city);
  if (request.kind === 'price_improved') {
    headline = `Price Improved in ${listing.city.trim()}`;
    const was = request.previousPriceCents ? ` (was ${formatUsd(request.previousPriceCents / 100)})` : '';
    description = rewriteForFairHousing(`New price: ${formatUsd(Number(listing.price))}${was}. ${description}`).text;
  }
  const images = listingImages(listing);
  const adFormat: AdFormat = request.adFormat === 'carousel' && images.length >= 2 ? 'carousel' : 'single';
  // The same schema as POST /api/campaigns: the draft passes every check a wizard's draft passes.
  const payload: CampaignDraftPayload = campaignDraftSchema.parse({
    agentId: request.agentId,
    listingId: listing.id,
    templateType,
    adFormat,
    headline,
    description,
    subtitle: defaultSubtitle(templateType),
    callToAction: DEFAULT_CALL_TO_ACTION,
    targetAudience: DEFAULT_TARGET_AUDIENCE,
    price: String(request.price),
    imageUrl: images[0] ?? null,
    carouselImages: adFormat === 'carousel' ? carouselImagesForListing(listing) : [],
    // Absolute, as the wizard's (it uses the page's origin): PUBLIC_URL, else this server.
    link: new URL(listingPagePath(listing.mlsId), deps.config.PUBLIC_URL ?? `http://localhost:${deps.config.PORT}`).toString(),
    impressions: impressionsForBudget(request.price),
    status: 'draft',
    ...defaultTargetingDraft(listing),
  });
  return { payload, listing };
}

/** Store a built draft in the caller's transaction (autopilot's: one draft per listing event). */
export async function insertAutopilotDraft(trx: Knex.Transaction, config: Config, content: AutopilotDraftContent, reason: string): Promise<AutopilotDraft> {
  const agent = await findAgent(content.payload.agentId);
  if (!agent) throw notFound('agent');
  // The agent's own branding (the signed-in agent's view: autopilot is turned on signed in), no browser's draft.
  const seen = { id: agent.id, state: agent.state, name: agent.name, email: agent.email, phone: agent.phone, brokerage: agent.brokerage, profileImageUrl: agent.profileImageUrl, logoUrl: agent.logoUrl };
  const c = await insertDraft(trx, config, content.payload, seen, content.listing, reason, null);
  return {
    campaignId: c.id,
    headline: c.headline ?? '',
    description: c.description ?? '',
    imageUrl: c.imageUrl,
    budgetCents: c.budgetCents,
    impressions: c.impressionsRequested || impressionsForBudget(c.budgetCents / 100),
    templateType: c.templateType,
    listing: { mlsId: content.listing.mlsId, address: content.listing.address, city: content.listing.city, state: content.listing.state, priceCents: Math.round(Number(content.listing.price) * 100) },
  };
}

/** A skipped or expired draft: draft | pending_payment → canceled (checkout then refuses it). True when it moved. */
export async function cancelDraft(trx: Knex.Transaction, campaignId: number, reason: string): Promise<boolean> {
  return transitionCampaign(trx, campaignId, ['draft', 'pending_payment'], 'canceled', reason);
}

/** What autopilot shows of its campaigns. */
export interface CampaignSummary {
  id: number;
  agentId: number;
  status: CampaignStatus;
  templateType: TemplateType;
  headline: string | null;
  imageUrl: string | null;
  budgetCents: number;
  impressionsRequested: number;
  impressionsDelivered: number;
  unusedImpressions: number | null;
  mlsListingId: string | null;
}

export async function campaignSummaries(ids: readonly number[], trx?: Knex.Transaction): Promise<Map<number, CampaignSummary>> {
  if (!ids.length) return new Map();
  const rows = await Campaign.query(trx)
    .whereIn('id', ids as number[])
    .select('id', 'agentId', 'status', 'templateType', 'headline', 'imageUrl', 'budgetCents', 'impressionsRequested', 'impressionsDelivered', 'unusedImpressions', 'mlsListingId');
  return new Map(rows.map((c) => [c.id, { id: c.id, agentId: c.agentId, status: c.status, templateType: c.templateType, headline: c.headline, imageUrl: c.imageUrl, budgetCents: c.budgetCents, impressionsRequested: c.impressionsRequested, impressionsDelivered: c.impressionsDelivered, unusedImpressions: c.unusedImpressions, mlsListingId: c.mlsListingId }]));
}

/** The agent's paid campaigns for a listing (by its MLS id) that are not over: the ones a status change acts on. */
export async function liveCampaignsForListing(agentId: number, mlsListingId: string): Promise<CampaignSummary[]> {
  const rows = await Campaign.query().where({ agentId, mlsListingId }).whereIn('status', ['paid', 'launching', 'active', 'paused']).select('id');
  return [...(await campaignSummaries(rows.map((r) => r.id))).values()];
}

export interface DeliveryControlDeps {
  db: Db;
  config: Config;
  logger: Logger;
  signal?: AbortSignal;
}

export type DeliveryControlOutcome = { done: true; status: CampaignStatus; unusedImpressions: number | null } | { done: false; status: CampaignStatus; why: string };

/** The platform holding a launched campaign, and its delivery now (written to the campaign before it stops). */
async function platformAndDelivery(deps: DeliveryControlDeps, c: Campaign) {
  const platform = adPlatformForCampaignId(c.facebookCampaignId!, deps);
  if (!platform) throw new AdPlatformError(`No ad platform is configured for ${c.facebookCampaignId}`, false);
  const read = await platform.getInsights([{ platformCampaignId: c.facebookCampaignId!, since: c.startsAt ?? c.createdAt }]);
  const delivery = read.campaigns.get(c.facebookCampaignId!)?.lifetime;
  const delivered = Math.max(c.impressionsDelivered, delivery?.impressions ?? 0);
  return { platform, delivered, delivery };
}

/**
 * Stop delivery because of the listing (pending or withdrawn: `pause`; sold: `stop`): read the delivery, stop
 * it at the ad platform (Meta: status=PAUSED), then move the campaign (active → paused, or active|paused →
 * completed) and record the impressions it did not deliver, with the reason (DESIGN §7: for the guarantee).
 * A campaign still launching cannot be stopped yet: `done: false` (the caller tries again).
 */
export async function stopDeliveryForListing(deps: DeliveryControlDeps, campaignId: number, mode: 'pause' | 'stop', reason: string): Promise<DeliveryControlOutcome> {
  const c = await Campaign.query().findById(campaignId);
  if (!c) throw notFound('campaign');
  const from: CampaignStatus[] = mode === 'pause' ? ['active'] : ['active', 'paused'];
  if (!from.includes(c.status)) {
    if (c.status === 'paid' || c.status === 'launching') return { done: false, status: c.status, why: 'the campaign is still launching' };
    return { done: true, status: c.status, unusedImpressions: c.unusedImpressions };
  }
  const { platform, delivered, delivery } = await platformAndDelivery(deps, c);
  if (c.status === 'active') await platform.pauseCampaign(c.facebookCampaignId!);
  const unused = Math.max(0, c.impressionsRequested - delivered);
  const to: CampaignStatus = mode === 'pause' ? 'paused' : 'completed';
  await deps.db.transaction(async (trx) => {
    const moved = await transitionCampaign(trx, c.id, from, to, reason.slice(0, 1000));
    if (!moved) return;
    await trx('campaigns')
      .where({ id: c.id })
      .update({
        impressionsDelivered: delivered,
        ...(delivery ? { reach: Math.max(c.reach, delivery.reach), clicks: Math.max(c.clicks, delivery.clicks), metricsUpdatedAt: trx.fn.now() } : {}),
        unusedImpressions: unused,
        deliveryStoppedReason: reason.slice(0, 1000),
        deliveryStoppedAt: trx.fn.now(),
        // Ended (sold): settlement reads when and why (reports' settleCampaignNow settles it next).
        ...(to === 'completed' ? { endedAt: trx.fn.now(), endReason: reason.slice(0, 200) } : {}),
        updatedAt: trx.fn.now(),
      });
  });
  const now = (await Campaign.query().findById(c.id))!;
  deps.logger.info({ campaignId: c.id, mode, status: now.status, unused }, 'campaign delivery stopped for its listing');
  return { done: true, status: now.status, unusedImpressions: now.unusedImpressions };
}

/**
 * A campaign its listing ended early (sold) and the reports module stopped and settled (`settleCampaignNow`): the
 * impressions it did not deliver and why, as a pause records them (the autopilot history and the guarantee's
 * seam, `guaranteeShortfall`, read them). Only a completed campaign, once: a stop recorded before stays.
 */
export async function recordDeliveryStopped(db: Db, campaignId: number, reason: string): Promise<void> {
  await db('campaigns')
    .where({ id: campaignId, status: 'completed' })
    .whereNull('deliveryStoppedAt')
    .update({
      unusedImpressions: db.raw('greatest(0, impressions_requested - impressions_delivered)'),
      deliveryStoppedReason: reason.slice(0, 1000),
      deliveryStoppedAt: db.fn.now(),
      updatedAt: db.fn.now(),
    });
}

/** Paused campaigns whose flight is over by `now` (the listing never came back, or the resume was not taken), oldest first. */
export async function pausedCampaignsPastFlight(db: Db, now: Date, limit: number): Promise<number[]> {
  const rows = await db('campaigns').where({ status: 'paused' }).whereNotNull('endsAt').where('endsAt', '<=', now).orderBy('endsAt').limit(limit).select('id');
  return rows.map((r: { id: number }) => r.id);
}

/** The listing is back on the market: paused → active at the ad platform and here; the unused impressions are no longer owed. */
export async function resumeDelivery(deps: DeliveryControlDeps, campaignId: number, reason: string): Promise<DeliveryControlOutcome> {
  const c = await Campaign.query().findById(campaignId);
  if (!c) throw notFound('campaign');
  if (c.status !== 'paused') {
    return c.status === 'active' ? { done: true, status: c.status, unusedImpressions: c.unusedImpressions } : { done: false, status: c.status, why: `the campaign is ${c.status}` };
  }
  const { platform } = await platformAndDelivery(deps, c);
  await platform.resumeCampaign(c.facebookCampaignId!);
  await deps.db.transaction(async (trx) => {
    if (!(await transitionCampaign(trx, c.id, ['paused'], 'active', reason.slice(0, 1000)))) return;
    await trx('campaigns').where({ id: c.id }).update({ unusedImpressions: null, deliveryStoppedReason: null, deliveryStoppedAt: null, updatedAt: trx.fn.now() });
  });
  const now = (await Campaign.query().findById(c.id))!;
  return now.status === 'active' ? { done: true, status: now.status, unusedImpressions: now.unusedImpressions } : { done: false, status: now.status, why: `the campaign is ${now.status}` };
}

/**
 * THE SEAM FOR SETTLEMENT (issue 26, the reports module): what the guarantee owes a campaign whose delivery
 * the listing's status stopped. `promised` is what was paid for; `delivered` what the ad platform reported when
 * delivery stopped (or since); `unused` the impressions recorded as not delivered at that moment (null when the
 * listing never stopped the campaign, e.g. a flight that ran its course); `stoppedBy` the reason ("listing
 * pending", "listing sold"…) and when. Settlement credits `promised − delivered` as it does for any campaign;
 * these fields say why a paused or stopped campaign fell short.
 */
export async function guaranteeShortfall(campaignId: number): Promise<{
  campaignId: number;
  status: CampaignStatus;
  promised: number;
  delivered: number;
  unused: number | null;
  stoppedBy: { reason: string; at: Date } | null;
}> {
  const c = await Campaign.query().findById(campaignId);
  if (!c) throw notFound('campaign');
  return {
    campaignId: c.id,
    status: c.status,
    promised: c.impressionsRequested,
    delivered: c.impressionsDelivered,
    unused: c.unusedImpressions,
    stoppedBy: c.deliveryStoppedReason && c.deliveryStoppedAt ? { reason: c.deliveryStoppedReason, at: c.deliveryStoppedAt } : null,
  };
}
