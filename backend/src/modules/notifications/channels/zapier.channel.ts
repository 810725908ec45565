import { maskUrl, type LeadDelivery } from '@app/contracts';
import type { Channel } from './channel';
import { notConfigured } from './channel';
import { postAttempt } from './http-attempt';

/**
 * Zapier catch hooks take any JSON, and Zap steps pick fields by key: a flat object with clear
 * snake_case keys maps in one click, where nested objects would need a Formatter step.
 */
export function zapierBody(type: string, timestamp: string, d: LeadDelivery, webhookId: string) {
  return {
    event: type,
    event_id: webhookId,
    occurred_at: timestamp,
    agent_id: d.agentId,
    lead_id: d.lead.id,
    lead_name: d.lead.name,
    lead_email: d.lead.email,
    lead_phone: d.lead.phone ?? '',
    lead_message: d.lead.message,
    lead_source: d.lead.source,
    interested_in_tour: d.lead.interestedInTour,
    interested_in_similar: d.lead.interestedInSimilar,
    lead_created_at: d.lead.createdAt,
    listing_id: d.listing.id,
    listing_mls_id: d.listing.mlsId,
    listing_address: d.listing.address,
    listing_city: d.listing.city,
    listing_state: d.listing.state,
    listing_postal_code: d.listing.postalCode ?? '',
    listing_price: d.listing.price,
    listing_bedrooms: d.listing.bedrooms,
    listing_bathrooms: d.listing.bathrooms,
    listing_square_feet: d.listing.squareFeet,
    listing_image_url: d.listing.imageUrl ?? '',
    listing_url: d.listing.url,
  };
}

export const zapierChannel: Channel = {
  async deliver(message, ctx) {
    const url = ctx.settings.zapierWebhookUrl;
    if (!url) return notConfigured('The Zapier webhook URL is no longer set');
    if (ctx.settings.zapierDisabledAt) return notConfigured('The Zapier hook was turned off after it answered 410 Gone', maskUrl(url));
    const p = message.payload as { type: string; timestamp: string; data: LeadDelivery };
    const body = JSON.stringify(zapierBody(p.type, p.timestamp, p.data, message.webhookId));
    return postAttempt(
      ctx.safeFetch,
      // The catch hook URL is the credential: logged masked.
      { url, headers: { 'content-type': 'application/json', 'user-agent': 'ListingAds-Webhooks/1.0', 'webhook-id': message.webhookId }, body, target: maskUrl(url) },
      ctx.now,
    );
  },
};
