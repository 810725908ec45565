import crypto from 'node:crypto';
import { Client } from '@hubspot/api-client';
import { LRUCache } from 'lru-cache';
import type { LeadDelivery } from '@app/contracts';
import type { AttemptOutcome, ChannelContext, MessageRow } from './channel';
import { notConfigured } from './channel';
import { parseRetryAfter, RESPONSE_BODY_LIMIT, statusText } from './http-attempt';
import { crmLeadFacts, splitName } from './crm-mapping';

/** HubSpot's API (tests intercept this origin with nock). */
export const HUBSPOT_API = 'https://api.hubapi.com';
/** HubSpot-defined association type: note → contact. */
export const NOTE_TO_CONTACT = 202;

// One client per token in this process: the client's own limiter (Bottleneck) then spaces this account's calls.
const clients = new LRUCache<string, Client>({ max: 500 });
function clientFor(token: string): Client {
  const id = crypto.createHash('sha256').update(token).digest('hex');
  let client = clients.get(id);
  if (!client) {
    // No retries inside the client: a failed attempt goes back on the delivery schedule, which honours Retry-After.
    client = new Client({ accessToken: token, numberOfApiCallRetries: 0 });
    clients.set(id, client);
  }
  return client;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The contact as HubSpot's default properties (no lifecycle stage: HubSpot refuses to move one backwards). */
export function hubspotContactProperties(d: LeadDelivery): Record<string, string> {
  const { firstName, lastName } = splitName(d.lead.name);
  return {
    email: d.lead.email,
    firstname: firstName,
    ...(lastName ? { lastname: lastName } : {}),
    ...(d.lead.phone ? { phone: d.lead.phone } : {}),
  };
}

/** The note on the contact: the listing, the buyer's message and interests, and our reference (how a retry finds it). */
export function hubspotNoteBody(d: LeadDelivery, webhookId: string, test: boolean): string {
  const f = crmLeadFacts(d);
  const lines = [
    `<p><strong>${test ? 'Test lead' : 'New lead'} from Listing Ads</strong></p>`,
    `<p>Property: <a href="${escapeHtml(d.listing.url)}">${escapeHtml(f.address)}</a> (MLS ${escapeHtml(d.listing.mlsId)}), ${escapeHtml(f.price)}</p>`,
    d.lead.message ? `<p>Message: ${escapeHtml(d.lead.message)}</p>` : null,
    f.interests.length ? `<p>The buyer ${escapeHtml(f.interests.join(' and '))}.</p>` : null,
    `<p>Ref: ${escapeHtml(webhookId)}</p>`,
  ];
  return lines.filter(Boolean).join('');
}

interface HubSpotError {
  code: number;
  body?: unknown;
  headers?: Record<string, string>;
}
const isHubSpotError = (err: unknown): err is HubSpotError => typeof (err as HubSpotError)?.code === 'number';

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`HubSpot did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * HubSpot CRM (v3) through @hubspot/api-client with the agent's private-app token:
 *  1. the contact, created or updated by email in one call (batch upsert, idProperty email): HubSpot's own
 *     unique key, so a retry, or two leads of one buyer at once, never makes a second contact;
 *  2. a note associated with it (hs_note_body, hs_timestamp), unless one with this delivery's reference is
 *     already on the contact (a retry after a timeout finds the note the first try made).
 * Errors keep HubSpot's status; 429 carries its Retry-After to the next attempt; 401/403 say the token is wrong.
 */
export async function deliverToHubSpot(message: MessageRow, ctx: ChannelContext): Promise<AttemptOutcome> {
  const target = `${HUBSPOT_API}/crm/v3/objects/contacts`;
  const { crmApiKeyEnc } = ctx.settings;
  if (!crmApiKeyEnc) return notConfigured('The HubSpot access token is no longer set', target);
  const p = message.payload as { type: string; timestamp: string; data: LeadDelivery };
  const client = clientFor(ctx.box.open(crmApiKeyEnc));
  const timeoutMs = ctx.config.DELIVERY_TIMEOUT_MS;
  try {
    const upserted = await withTimeout(
      client.crm.contacts.batchApi.upsert({ inputs: [{ idProperty: 'email', id: p.data.lead.email, properties: hubspotContactProperties(p.data) }] }),
      timeoutMs,
    );
    const contact = upserted.results[0];
    if (!contact) throw Object.assign(new Error('HubSpot answered the upsert without a contact'), { code: 502 });
    const reference = `Ref: ${message.webhookId}`;
    const existing = await withTimeout(
      client.crm.objects.notes.searchApi.doSearch({
        filterGroups: [{ filters: [{ propertyName: 'associations.contact', operator: 'EQ' as never, value: contact.id }] }],
        properties: ['hs_note_body'],
        sorts: ['-hs_timestamp'],
        limit: 100,
        after: undefined as never,
      }),
      timeoutMs,
    );
    const found = existing.results.find((n) => (n.properties.hs_note_body ?? '').includes(reference));
    let noteId = found?.id;
    if (!noteId) {
      const note = await withTimeout(
        client.crm.objects.notes.basicApi.create({
          properties: { hs_timestamp: p.data.lead.createdAt, hs_note_body: hubspotNoteBody(p.data, message.webhookId, p.type === 'lead.test') },
          associations: [{ to: { id: contact.id }, types: [{ associationCategory: 'HUBSPOT_DEFINED' as never, associationTypeId: NOTE_TO_CONTACT }] }],
        }),
        timeoutMs,
      );
      noteId = note.id;
    }
    const status = found ? 200 : 201;
    const summary = `contact ${contact.id} ${contact._new ? 'created' : 'updated'}, note ${noteId}${found ? ' already there' : ' added'}`;
    return { ok: true, target, statusCode: status, responseBody: summary.slice(0, RESPONSE_BODY_LIMIT), error: null, warning: null, retryAfterSeconds: null, gone: false, permanent: false };
  } catch (err) {
    if (!isHubSpotError(err)) {
      return { ok: false, target, statusCode: null, responseBody: null, error: `network: ${(err as Error).message}`, warning: null, retryAfterSeconds: null, gone: false, permanent: false };
    }
    const body = typeof err.body === 'string' ? err.body : JSON.stringify(err.body ?? '');
    const hint = err.code === 401 || err.code === 403 ? ': check the private app access token and its CRM contact scopes' : '';
    return {
      ok: false,
      target,
      statusCode: err.code,
      responseBody: body ? body.slice(0, RESPONSE_BODY_LIMIT) : null,
      error: `HubSpot answered ${statusText(err.code)}${hint}`,
      warning: null,
      retryAfterSeconds: parseRetryAfter(err.headers?.['retry-after'] ?? null, ctx.now),
      gone: false,
      permanent: false,
    };
  }
}
