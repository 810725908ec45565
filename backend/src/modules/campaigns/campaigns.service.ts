import { budgetToCents, impressionsForBudget, listingImages, listingPagePath, type CampaignDraftPayload } from '@app/contracts';
import type { Actor } from '../../platform/auth/actor';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/knex';
import { notFound, validationFailed } from '../../platform/errors';
import { accessibleAgentIds, getAccessibleAgent, getAccessibleAgentFor } from '../agents';
import { campaignForbidden, listingForbidden, notDraft } from './campaigns.errors';
import { Campaign, type StoredTargeting } from './campaign.model';
import { recordInitialStatus } from './campaign-transitions';
import { findListingForCampaign, type CampaignListing } from './listing-access';

type Agent = Awaited<ReturnType<typeof getAccessibleAgent>>;

/** The agent (session rules) and the listing, which must be that agent's. 404 unknown, 403 not the caller's. */
async function agentAndListing(actor: Actor, agentId: number, listingId: number): Promise<{ agent: Agent; listing: CampaignListing }> {
  const agent = await getAccessibleAgent(actor, agentId);
  const listing = await findListingForCampaign(listingId);
  if (!listing) throw notFound('listing');
  if (listing.agentId !== agent.id) throw listingForbidden();
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
    // Denormalised (spec 000 §3): the ad platform's record names the agent, their state and the MLS listing.
    agentName: agent.name.slice(0, 255),
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

/** POST /api/campaigns: a draft, with its first transition (none → draft) in the same transaction. */
export async function createCampaignDraft(db: Db, config: Config, actor: Actor, input: CampaignDraftPayload): Promise<Campaign> {
  const { agent, listing } = await agentAndListing(actor, input.agentId, input.listingId);
  return db.transaction(async (trx) => {
    const campaign = await Campaign.query(trx).insertAndFetch({ ...draftValues(config, input, agent, listing), status: 'draft' });
    await recordInitialStatus(trx, campaign.id, 'draft', 'created');
    return campaign;
  });
}

/**
 * A campaign the caller may see: the agent's own session (DESIGN §3 rules). Anyone else gets a 403
 * that says nothing about the campaign or the agent.
 */
export async function getAccessibleCampaign(actor: Actor, campaignId: number, trx?: Parameters<typeof Campaign.query>[0]): Promise<Campaign> {
  // The common case in one round trip: the access rule is part of the read.
  const fast = Campaign.query(trx).findById(campaignId).whereIn('agentId', accessibleAgentIds(actor));
  const mine = await (trx ? fast.forUpdate() : fast);
  if (mine) return mine;
  // Not found that way: find out whether it is missing or someone else's, for the right answer.
  const query = Campaign.query(trx).findById(campaignId);
  const campaign = await (trx ? query.forUpdate() : query);
  if (!campaign) throw notFound('campaign');
  await getAccessibleAgentFor(actor, campaign.agentId, campaignForbidden);
  return campaign;
}

/** PATCH /api/campaigns/:id: replace a draft's content (same rules as creating it). Only drafts change. */
export async function updateCampaignDraft(db: Db, config: Config, actor: Actor, campaignId: number, input: CampaignDraftPayload): Promise<Campaign> {
  return db.transaction(async (trx) => {
    // Locked: a concurrent checkout cannot move it out of draft between the check and the write.
    const campaign = await getAccessibleCampaign(actor, campaignId, trx);
    if (campaign.status !== 'draft') {
      throw notDraft(campaign.status);
    }
    const { agent, listing } = await agentAndListing(actor, input.agentId, input.listingId);
    return campaign.$query(trx).patchAndFetch(draftValues(config, input, agent, listing));
  });
}
