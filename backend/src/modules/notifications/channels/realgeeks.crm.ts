import crypto from 'node:crypto';
import type { LeadDelivery } from '@app/contracts';
import type { Config } from '../../../platform/config';
import type { AttemptOutcome, ChannelContext, MessageRow } from './channel';
import { notConfigured } from './channel';
import { postAttempt } from './http-attempt';
import { crmLeadFacts, crmLeadText, crmSourceName, splitName } from './crm-mapping';

/**
 * The lead's id at Real Geeks, made from the message's webhook-id (a name-based UUID, version 5 layout):
 * every attempt of one delivery sends the same id, so a retry names the lead the first try made.
 */
export function realGeeksLeadId(webhookId: string): string {
  const h = crypto.createHash('sha1').update(`listing-ads:${webhookId}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

/**
 * The Incoming Leads API's lead (developers.realgeeks.com/leads, /activities): only documented fields.
 * The listing, message and interests go in a `note` activity's description (the documented, human-readable
 * field), with notify_users so the assigned agent hears of it.
 */
export function realGeeksLead(config: Config, type: string, d: LeadDelivery, webhookId: string) {
  const f = crmLeadFacts(d);
  const { firstName, lastName } = splitName(d.lead.name);
  const source = crmSourceName(config);
  const description = crmLeadText(source, type, d);
  return {
    id: realGeeksLeadId(webhookId),
    source,
    source_details: `Property inquiry: ${f.address}`,
    email: d.lead.email,
    first_name: firstName,
    ...(lastName ? { last_name: lastName } : {}),
    ...(d.lead.phone ? { phone: d.lead.phone } : {}),
    role: 'Buyer',
    activities: [{ type: 'note', source, description, created: d.lead.createdAt, notify_users: true }],
  };
}

/**
 * Real Geeks Lead Manager through the Lead Router Incoming Leads API: POST /sites/{site-uuid}/leads with HTTP
 * Basic auth (the product's credentials, REALGEEKS_API_USERNAME/PASSWORD, registered with Real Geeks); the
 * agent's key field holds the site UUID. Real Geeks' duplicate rule: Lead Manager merges a lead into the one
 * it already has with that email, and every attempt sends the same lead id. 201 is success; 429 and 5xx are
 * retried (Retry-After honoured); 410 turns the CRM channel off.
 */
export async function deliverToRealGeeks(message: MessageRow, ctx: ChannelContext): Promise<AttemptOutcome> {
  const { REALGEEKS_API_URL, REALGEEKS_API_USERNAME, REALGEEKS_API_PASSWORD } = ctx.config;
  const base = REALGEEKS_API_URL.replace(/\/$/, '');
  if (!REALGEEKS_API_USERNAME || !REALGEEKS_API_PASSWORD) return notConfigured('Real Geeks is not set up on this server (REALGEEKS_API_USERNAME and REALGEEKS_API_PASSWORD)', base);
  const { crmApiKeyEnc } = ctx.settings;
  if (!crmApiKeyEnc) return notConfigured('The Real Geeks site UUID is no longer set', base);
  const site = ctx.box.open(crmApiKeyEnc).trim();
  const url = `${base}/sites/${encodeURIComponent(site)}/leads`;
  const p = message.payload as { type: string; data: LeadDelivery };
  const headers = {
    'content-type': 'application/json',
    authorization: `Basic ${Buffer.from(`${REALGEEKS_API_USERNAME}:${REALGEEKS_API_PASSWORD}`).toString('base64')}`,
  };
  // The site UUID names the agent's account: the log shows the endpoint without it.
  return postAttempt(ctx.safeFetch, { url, headers, body: JSON.stringify(realGeeksLead(ctx.config, p.type, p.data, message.webhookId)), target: `${base}/sites/…/leads` }, ctx.now);
}
