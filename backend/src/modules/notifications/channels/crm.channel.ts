import { maskUrl, type LeadDelivery } from '@app/contracts';
import type { Config } from '../../../platform/config';
import type { Channel, ChannelContext, MessageRow } from './channel';
import { notConfigured } from './channel';
import { postAttempt } from './http-attempt';
import { crmSourceName, splitName } from './crm-mapping';
import { deliverToRealGeeks } from './realgeeks.crm';
import { deliverToHubSpot } from './hubspot.crm';
import { deliverToLofty } from './lofty.crm';
import { deliverToLionDesk } from './liondesk.crm';



/**
 * Follow Up Boss Events API (POST /v1/events, docs.followupboss.com/reference/events-post): a
 * "Property Inquiry" with the buyer as `person` and the listing as `property`, so FUB creates or
 * updates the contact and starts the agent's action plans.
 */
export function followUpBossEvent(config: Config, type: string, timestamp: string, d: LeadDelivery) {
  const interests = [d.lead.interestedInTour ? 'would like a tour' : null, d.lead.interestedInSimilar ? 'interested in similar homes' : null].filter(Boolean);
  return {
    source: crmSourceName(config),
    system: config.FOLLOWUPBOSS_SYSTEM,
    type: 'Property Inquiry',
    message: d.lead.message || `Inquiry about ${d.listing.address}`,
    description: [type === 'lead.test' ? 'Test lead from Listing Ads' : null, interests.length ? `Buyer ${interests.join(' and ')}.` : null].filter(Boolean).join(' ') || undefined,
    occurredAt: timestamp,
    person: {
      ...splitName(d.lead.name),
      emails: [{ value: d.lead.email }],
      ...(d.lead.phone ? { phones: [{ value: d.lead.phone }] } : {}),
      tags: ['Listing Ads', ...(d.lead.interestedInTour ? ['Tour Request'] : [])],
    },
    property: {
      street: d.listing.address,
      city: d.listing.city,
      state: d.listing.state,
      code: d.listing.postalCode ?? undefined,
      mlsNumber: d.listing.mlsId,
      price: Number(d.listing.price),
      forRent: false,
      url: d.listing.url,
      ...(d.listing.bedrooms != null ? { bedrooms: d.listing.bedrooms } : {}),
      ...(d.listing.bathrooms != null ? { bathrooms: Number(d.listing.bathrooms) } : {}),
      ...(d.listing.squareFeet != null ? { area: d.listing.squareFeet } : {}),
    },
  };
}

async function followUpBoss(message: MessageRow, ctx: ChannelContext) {
  const { crmApiKeyEnc } = ctx.settings;
  const url = `${ctx.config.FOLLOWUPBOSS_API_URL.replace(/\/$/, '')}/v1/events`;
  if (!crmApiKeyEnc) return notConfigured('The Follow Up Boss API key is no longer set', url);
  const p = message.payload as { type: string; timestamp: string; data: LeadDelivery };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    // HTTP Basic with the API key as the username and an empty password.
    authorization: `Basic ${Buffer.from(`${ctx.box.open(crmApiKeyEnc)}:`).toString('base64')}`,
    'x-system': ctx.config.FOLLOWUPBOSS_SYSTEM,
  };
  if (ctx.config.FOLLOWUPBOSS_SYSTEM_KEY) headers['x-system-key'] = ctx.config.FOLLOWUPBOSS_SYSTEM_KEY;
  const outcome = await postAttempt(ctx.safeFetch, { url, headers, body: JSON.stringify(followUpBossEvent(ctx.config, p.type, p.timestamp, p.data)), target: url }, ctx.now);
  // 201: a new person; 200: an existing one updated; 204: the lead flow of this source is archived, so FUB ignored it.
  if (outcome.statusCode === 204) {
    outcome.warning = 'Follow Up Boss accepted the request but ignored the lead: the lead flow for this source is archived (204). Unarchive it in Follow Up Boss.';
  }
  return outcome;
}

/** Any other CRM that takes a JSON webhook: the same body as the custom webhook, with the key as a Bearer token. */
async function genericCrm(message: MessageRow, ctx: ChannelContext) {
  const { crmWebhookUrl, crmApiKeyEnc } = ctx.settings;
  if (!crmWebhookUrl) return notConfigured('The CRM webhook URL is no longer set');
  const p = message.payload as { type: string; timestamp: string; data: LeadDelivery };
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'ListingAds-Webhooks/1.0', 'webhook-id': message.webhookId };
  if (crmApiKeyEnc) headers.authorization = `Bearer ${ctx.box.open(crmApiKeyEnc)}`;
  const body = JSON.stringify({ type: p.type, timestamp: p.timestamp, data: p.data });
  return postAttempt(ctx.safeFetch, { url: crmWebhookUrl, headers, body, target: maskUrl(crmWebhookUrl) }, ctx.now);
}

export const crmChannel: Channel = {
  async deliver(message, ctx) {
    const { crmType, crmDisabledAt } = ctx.settings;
    if (!crmType) return notConfigured('No CRM is set any more');
    if (crmDisabledAt) return notConfigured('The CRM was turned off after it answered 410 Gone');
    switch (crmType) {
      case 'followupboss':
        return followUpBoss(message, ctx);
      case 'hubspot':
        return deliverToHubSpot(message, ctx);
      case 'realgeeks':
        return deliverToRealGeeks(message, ctx);
      case 'lofty':
        return deliverToLofty(message, ctx);
      case 'liondesk':
        return deliverToLionDesk(message, ctx);
      case 'custom':
        return genericCrm(message, ctx);
    }
  },
};
