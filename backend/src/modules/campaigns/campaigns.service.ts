import { budgetToCents, impressionsForBudget, isPayable, listingImages, listingPagePath, type CampaignDraftPayload, type CampaignWizard } from '@app/contracts';
import { accessLevelOf, type AccessLevel, type Actor } from '../../platform/auth/actor';
import type { Knex } from 'knex';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/knex';
import { notFound, validationFailed } from '../../platform/errors';
import type { ReadCaches } from '../../platform/cache/read-cache';
import { CachedJson } from '../../platform/http/compression';
import { agentAsSeenBy, getAccessibleAgent, presentAgent, type AgentAsSeen } from '../agents';
import { findListingView } from '../listings';
import { presentCampaign } from './campaigns.presenter';
import { notDraft } from './campaigns.errors';
import { Campaign, type StoredTargeting } from './campaign.model';
import { recordInitialStatus, transitionCampaign } from './campaign-transitions';
import { findListingForCampaign, type CampaignListing } from './listing-access';

type Agent = AgentAsSeen;
export type { Agent as DraftAgent };

/**
 * The agent as this browser sees it (its branding draft over the public profile, or the agent's own row when
 * signed in: what the ad shows of the agent) and the listing, which must be that agent's: 404 when unknown or
 * not the caller's.
 */
async function agentAndListing(db: Db, actor: Actor, agentId: number, listingId: number): Promise<{ agent: Agent; listing: CampaignListing }> {
  const agent = await agentAsSeenBy(db, actor, agentId);
  const listing = await findListingForCampaign(listingId);
  if (!listing) throw notFound('listing');
  // Another agent's listing is a 404 like a missing one.
  if (listing.agentId !== agent.id) throw notFound('listing');
  return { agent, listing };
}

/** The listing's public page: absolute with PUBLIC_URL, else the same-origin path (resolved at launch). */
function listingPageLink(config: Config, listing: CampaignListing): string {
  const path = listingPagePath(listing.mlsId);
  return config.PUBLIC_URL ? new URL(path, config.PUBLIC_URL).toString() : path;
}

/**
 * The row's values from a validated draft. The server is the authority on money: impressions and
 * the amount come from the budget (contracts/pricing.ts); whatever impressions the client sent
 * were already dropped by the schema.
 */
export const AD_NEEDS_PHOTO_MESSAGE = 'Add a photo of the property: an ad needs a picture.';

function draftValues(config: Config, input: CampaignDraftPayload, agent: Agent, listing: CampaignListing) {
  // Refused here rather than at launch: nobody should pay for an ad the platforms cannot show.
  if (input.adFormat !== 'carousel' && !input.imageUrl && listingImages(listing).length === 0) {
    throw validationFailed({ imageUrl: AD_NEEDS_PHOTO_MESSAGE });
  }
  const targeting: StoredTargeting = {};
  if (input.targetingLocation) targeting.targetingLocation = input.targetingLocation;
  if (input.targetingInterests) targeting.targetingInterests = input.targetingInterests;
  if (input.targetingTemplate) targeting.targetingTemplate = input.targetingTemplate;
  return {
    agentId: agent.id,
    listingId: listing.id,
    // Denormalised (spec 000 §3): the ad platform's record names the agent, their state and the MLS listing;
    // what the ad shows of the agent is the creating browser's view of it, snapshotted here.
    agentName: agent.name.slice(0, 255),
    agentBrokerage: agent.brokerage?.trim().slice(0, 255) || null,
    state: agent.state.slice(0, 100),
    mlsListingId: listing.mlsId,
    templateType: input.templateType,
    adFormat: input.adFormat,
    headline: input.headline,
    description: input.description,
    subtitle: input.subtitle,
    callToAction: input.callToAction,
    targetAudience: input.targetAudience,
    // An ad needs a picture: the listing's first photo when the draft names none.
    imageUrl: input.imageUrl ?? listingImages(listing)[0] ?? null,
    carouselImages: input.adFormat === 'carousel' ? input.carouselImages : [],
    link: input.link ?? listingPageLink(config, listing),
    targeting,
    budgetCents: budgetToCents(input.price),
    impressionsRequested: impressionsForBudget(input.price),
  };
}

/**
 * A new draft row and its first transition (none → draft), in the caller's transaction. `createdByBrowser`: the
 * browser that made it (its wizard may use it), or null for one the agent's autopilot made (the signed-in agent's).
 */
export async function insertDraft(
  trx: Knex.Transaction,
  config: Config,
  input: CampaignDraftPayload,
  agent: Agent,
  listing: CampaignListing,
  reason: string,
  createdByBrowser: string | null,
): Promise<Campaign> {
  const campaign = await Campaign.query(trx).insertAndFetch({ ...draftValues(config, input, agent, listing), createdByBrowser, status: 'draft' });
  await recordInitialStatus(trx, campaign.id, 'draft', reason);
  return campaign;
}

/** POST /api/campaigns: a draft of this browser, with its first transition (none → draft) in the same transaction. */
export async function createCampaignDraft({ db, config }: { db: Db; config: Config }, actor: Actor, input: CampaignDraftPayload): Promise<Campaign> {
  const { agent, listing } = await agentAndListing(db, actor, input.agentId, input.listingId);
  return db.transaction((trx) => insertDraft(trx, config, input, agent, listing, 'created', actor.browserHash));
}

/**
 * How a browser may use a campaign (DESIGN §3): signed in as its agent, every campaign of the agent; a wizard
 * browser of the agent, the campaigns it created (read, edit, pay); no one else. Null: no access.
 */
export function campaignAccess(actor: Actor, campaign: { agentId: number; createdByBrowser: string | null }): AccessLevel | null {
  const level = accessLevelOf(actor, campaign.agentId);
  if (level === 'signed_in') return level;
  return level === 'draft' && !!actor.browserHash && campaign.createdByBrowser === actor.browserHash ? 'draft' : null;
}

/** Refuse a campaign the caller may not use: 404 like a missing one, so its id reveals nothing. */
export function assertCampaignAccess(actor: Actor, campaign: { agentId: number; createdByBrowser: string | null }): void {
  if (!campaignAccess(actor, campaign)) throw notFound('campaign');
}

/** A campaign the caller may see (`campaignAccess`); anyone else gets the 404 of a missing one. */
export async function getAccessibleCampaign(actor: Actor, campaignId: number, trx?: Parameters<typeof Campaign.query>[0]): Promise<Campaign> {
  const query = Campaign.query(trx).findById(campaignId);
  const campaign = await (trx ? query.forUpdate() : query);
  if (!campaign) throw notFound('campaign');
  assertCampaignAccess(actor, campaign);
  return campaign;
}

/**
 * GET /api/campaigns/:id as the JSON sent (with its compressed forms): the campaign is held a few seconds in the read cache (emptied by
 * this process's writes to campaigns; the checkout and success screens poll it), with what the access rule
 * needs. Missing and someone else's are the same 404.
 */
export async function accessibleCampaignJson({ caches }: { caches: ReadCaches }, actor: Actor, campaignId: number): Promise<CachedJson> {
  const entry = await caches
    .named<{ agentId: number; createdByBrowser: string | null; json: CachedJson } | null>('campaign', ['campaigns'])
    .get(String(campaignId), async () => {
      const campaign = await Campaign.query().findById(campaignId);
      return campaign ? { agentId: campaign.agentId, createdByBrowser: campaign.createdByBrowser, json: new CachedJson(JSON.stringify(presentCampaign(campaign))) } : null;
    });
  if (!entry) throw notFound('campaign');
  assertCampaignAccess(actor, entry);
  return entry.json;
}

/**
 * PATCH /api/campaigns/:id: replace a draft's content (same rules as creating it). A campaign whose
 * checkout has begun but is not paid is still the agent's draft (spec 000: back from checkout, then
 * proceed again): it returns to draft and the next checkout updates the same payment intent. Paid,
 * launched or canceled campaigns never change (409 campaigns.not_draft).
 */
export async function updateCampaignDraft({ db, config }: { db: Db; config: Config }, actor: Actor, campaignId: number, input: CampaignDraftPayload): Promise<Campaign> {
  return db.transaction(async (trx) => {
    // Locked: a concurrent checkout or payment cannot move it between the check and the write.
    const campaign = await getAccessibleCampaign(actor, campaignId, trx);
    if (!isPayable(campaign.status)) throw notDraft(campaign.status);
    // A campaign stays with its agent (a merge alone moves it).
    if (input.agentId !== campaign.agentId) throw notFound('listing');
    const { agent, listing } = await agentAndListing(db, actor, input.agentId, input.listingId);
    if (campaign.status === 'pending_payment') await transitionCampaign(trx, campaign.id, ['pending_payment'], 'draft', 'draft edited after checkout began');
    return campaign.$query(trx).patchAndFetch(draftValues(config, input, agent, listing));
  });
}

/** GET /api/campaigns/:id/wizard: what the wizard needs to reopen a draft (its agent, its listing, the draft). Drafts only. */
export async function campaignForWizard(actor: Actor, campaignId: number): Promise<CampaignWizard> {
  const campaign = await getAccessibleCampaign(actor, campaignId);
  if (!isPayable(campaign.status)) throw notDraft(campaign.status);
  // Autopilot's Edit link signs the browser in: the wizard reopens a draft for the signed-in agent.
  const agent = await getAccessibleAgent(actor, campaign.agentId, 'signed_in');
  const listing = await findListingView(campaign.listingId);
  if (!listing) throw notFound('listing');
  return { agent: presentAgent(agent, { access: 'signed_in' }), listing, campaign: presentCampaign(campaign) };
}

/** Which of these object paths a campaign uses (its ad image or a carousel image): the uploads sweep keeps those. */
export async function campaignObjectPathsInUse(paths: string[]): Promise<Set<string>> {
  if (!paths.length) return new Set();
  const { rows } = (await Campaign.knex().raw(
    `select image_url as path from campaigns where image_url = any(?::text[])
     union
     select p from campaigns, jsonb_array_elements_text(carousel_images) p where jsonb_exists_any(carousel_images, ?::text[]) and p = any(?::text[])`,
    [paths, paths, paths],
  )) as { rows: { path: string }[] };
  return new Set(rows.map((r) => r.path));
}

/** A merge of agent `fromId` into `toId` (agents module's identity hooks): the campaigns (and the admin figures, by trigger) follow. */
export async function moveAgentCampaigns(trx: Knex.Transaction, fromId: number, toId: number): Promise<Record<string, number>> {
  const campaigns = await trx('campaigns').where({ agentId: fromId }).update({ agentId: toId, updatedAt: trx.fn.now() });
  return { campaigns };
}
