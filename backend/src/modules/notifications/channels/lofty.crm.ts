import type { LeadDelivery } from '@app/contracts';
import type { Config } from '../../../platform/config';
import { OutboundError, type SafeHeaders } from '../../../platform/outbound/http';
import type { AttemptOutcome, ChannelContext, MessageRow } from './channel';
import { notConfigured } from './channel';
import { failedAnswer, parseRetryAfter, RESPONSE_BODY_LIMIT, statusText } from './http-attempt';
import { crmLeadText, crmSourceName, splitName } from './crm-mapping';

/** Lofty's Open API (tests intercept this origin with nock). */
export const LOFTY_API = 'https://api.lofty.com';
/** Lofty's lead type ids (developer.lofty.com/concepts/leads): Buyer is 2. */
const LOFTY_BUYER = 2;
/** Lofty keeps at most 30 characters of a first or last name (developer.lofty.com/concepts/leads). */
const NAME_MAX = 30;

/**
 * Lofty's lead ids are 64-bit integers, sent as bare JSON numbers (developer.lofty.com/guides/lead-management:
 * "parse the response as text and handle the ID as a string"). Every `"leadId": <digits>` of the raw answer is
 * turned into a string before JSON.parse, so no id ever passes through a JS number. (Inside a JSON string the
 * quotes would be escaped, so only real keys match.)
 */
export function parseLoftyJson(text: string): any {
  return JSON.parse(text.replace(/("leadId"\s*:\s*)(-?\d+)/g, '$1"$2"'));
}

/**
 * The lead, with only fields Lofty's Create Lead reference shows (developer.lofty.com/api-reference/leads/create-lead):
 * the buyer (firstName, lastName, emails, phones), leadTypes [Buyer], source, tags, and the listing as the lead's
 * `property` (address, price, beds, baths, square feet) whose `note` carries the listing's MLS number and link,
 * the buyer's message, the tour / similar-homes interest, and our reference. No assignedUserId: Lofty's own
 * routing rules assign the lead.
 */
export function loftyLead(config: Config, type: string, d: LeadDelivery, webhookId: string) {
  const { firstName, lastName } = splitName(d.lead.name);
  const source = crmSourceName(config);
  const note = crmLeadText(source, type, d, [`Ref: ${webhookId}`]);
  const l = d.listing;
  return {
    firstName: firstName.slice(0, NAME_MAX),
    ...(lastName ? { lastName: lastName.slice(0, NAME_MAX) } : {}),
    emails: [d.lead.email],
    ...(d.lead.phone ? { phones: [d.lead.phone] } : {}),
    leadTypes: [LOFTY_BUYER],
    source,
    tags: ['Listing Ads', ...(d.lead.interestedInTour ? ['Tour Request'] : [])],
    property: {
      streetAddress: l.address,
      city: l.city,
      state: l.state,
      ...(l.postalCode ? { zipCode: l.postalCode } : {}),
      price: Number(l.price),
      ...(l.bedrooms != null ? { bedrooms: l.bedrooms } : {}),
      ...(l.bathrooms != null ? { bathrooms: Number(l.bathrooms) } : {}),
      ...(l.squareFeet != null ? { squareFeet: l.squareFeet } : {}),
      note,
    },
  };
}

type Answer = { status: number; text: string; headers: SafeHeaders };

/** Seconds until Lofty's rate-limit window resets (X-RateLimit-Reset: UTC epoch seconds), when it is plausible. */
function resetSeconds(value: string | null, now: Date): number | null {
  if (!value || !/^\d+$/.test(value.trim())) return null;
  const wait = Number(value) - Math.floor(now.getTime() / 1000);
  return wait > 0 && wait <= 3600 ? wait : null;
}

/** Lofty's error body is {code, message} (developer.lofty.com/authentication/error-codes). */
function loftyMessage(text: string): string | null {
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    const parts = [typeof body.code === 'string' || typeof body.code === 'number' ? String(body.code) : null, typeof body.message === 'string' ? body.message : null];
    return parts.filter(Boolean).join(': ') || null;
  } catch {
    return null;
  }
}

/**
 * A failed answer, classified. 429: retried after Retry-After (or the X-RateLimit-Reset Lofty documents);
 * 5xx and 408: retried on the schedule; any other 4xx fails for good (retrying the same request cannot help),
 * with a message that says what to fix.
 */
export function loftyFailure(res: Answer, target: string, now: Date): AttemptOutcome {
  const detail = loftyMessage(res.text);
  const retried = res.status === 429 || res.status === 408 || res.status >= 500 || res.status < 400;
  let error: string;
  if (res.status === 401) error = 'Lofty refused the API key (401 Unauthorized): copy it again from Lofty → Settings → Integrations → API and save it';
  else if (res.status === 403) error = `Lofty answered 403 Forbidden: this API key may not create leads${detail ? ` (${detail})` : ''}`;
  else if (res.status === 429) error = 'Lofty answered 429 Too Many Requests: retried once its rate-limit window resets';
  else if (!retried) error = `Lofty refused the lead (${statusText(res.status)})${detail ? `: ${detail}` : ''}`;
  else error = `Lofty answered ${statusText(res.status)}`;
  return failedAnswer(target, res, error, {
    retryAfterSeconds: res.status === 429 || res.status >= 500 ? (parseRetryAfter(res.headers.get('retry-after'), now) ?? resetSeconds(res.headers.get('x-ratelimit-reset'), now)) : null,
    permanent: !retried,
  });
}

/**
 * Lofty (formerly Chime) through its Open API with the agent's API key (Settings → Integrations → API), sent as
 * `Authorization: token <key>` (developer.lofty.com/authentication/api-keys; `Bearer` is for OAuth access tokens):
 *  1. GET /v1.0/leads?email=… (a documented filter, developer.lofty.com/api-reference/leads/list-leads): Lofty keeps
 *     one lead per email address in a team (help.lofty.com, "Duplicate Leads & Merging Duplicates"), so a buyer it
 *     already has is not created again; a retry after an attempt whose answer was lost finds the lead that attempt made;
 *  2. otherwise POST /v1.0/leads (developer.lofty.com/api-reference/leads/create-lead); the answer's leadId (64-bit)
 *     is read as a string.
 */
export async function deliverToLofty(message: MessageRow, ctx: ChannelContext): Promise<AttemptOutcome> {
  const target = `${LOFTY_API}/v1.0/leads`;
  const { crmApiKeyEnc } = ctx.settings;
  if (!crmApiKeyEnc) return notConfigured('The Lofty API key is no longer set', target);
  const p = message.payload as { type: string; data: LeadDelivery };
  const headers = { 'content-type': 'application/json', authorization: `token ${ctx.box.open(crmApiKeyEnc).trim()}` };
  const call = async (url: string, init: { method: string; body?: string }): Promise<Answer> => {
    const res = await ctx.safeFetch(url, { ...init, headers });
    let text = '';
    try {
      text = await res.text();
    } catch {
      text = '';
    }
    return { status: res.status, text, headers: res.headers };
  };
  const ok = (statusCode: number, summary: string, warning: string | null = null): AttemptOutcome => ({
    ok: true,
    target,
    statusCode,
    responseBody: summary.slice(0, RESPONSE_BODY_LIMIT),
    error: null,
    warning,
    retryAfterSeconds: null,
    gone: false,
    permanent: false,
  });
  try {
    const email = p.data.lead.email;
    const found = await call(`${target}?${new URLSearchParams({ email, limit: '10' })}`, { method: 'GET' });
    if (found.status < 200 || found.status >= 300) return loftyFailure(found, target, ctx.now);
    const leads = (parseLoftyJson(found.text || '{}').leads ?? []) as Array<{ leadId?: string; emails?: string[] }>;
    const same = leads.find((l) => l.leadId && (l.emails ?? []).some((e) => e.toLowerCase() === email.toLowerCase()));
    if (same) {
      return ok(
        found.status,
        `lead ${same.leadId} already in Lofty (one lead per email): not created again`,
        'The buyer is already a lead in Lofty (same email), so no second lead was made; this inquiry is in your Listing Ads dashboard.',
      );
    }
    const created = await call(target, { method: 'POST', body: JSON.stringify(loftyLead(ctx.config, p.type, p.data, message.webhookId)) });
    if (created.status < 200 || created.status >= 300) return loftyFailure(created, target, ctx.now);
    const leadId = (parseLoftyJson(created.text || '{}') as { leadId?: string }).leadId;
    return ok(created.status, leadId ? `lead ${leadId} created` : (created.text || 'lead created'));
  } catch (err) {
    const error =
      err instanceof OutboundError ? `${err.code}: ${err.message}` : err instanceof SyntaxError ? `Lofty's answer is not JSON: ${err.message}` : `network: ${(err as Error).message}`;
    return { ok: false, target, statusCode: null, responseBody: null, error, warning: null, retryAfterSeconds: null, gone: false, permanent: false };
  }
}
