import type { LeadDelivery } from '@app/contracts';
import { OutboundError, type SafeHeaders } from '../../../platform/outbound/http';
import type { AttemptOutcome, ChannelContext, MessageRow } from './channel';
import { notConfigured } from './channel';
import { failedAnswer, parseRetryAfter, RESPONSE_BODY_LIMIT, statusText } from './http-attempt';
import { splitName } from './crm-mapping';
import { expireLionDeskAccessToken, LIONDESK_API, lionDeskAccessToken } from '../crm-oauth/liondesk-oauth';

/** Submit one Contact (developers.liondesk.com/docs/endpoints/contacts; on the doubled slash the docs print, see LIONDESK_API). */
export const LIONDESK_CONTACTS_URL = `${LIONDESK_API}/contacts`;
/** The documented limits (docs/endpoints/contacts): names, email and mobile phone 255 characters; tags 508. */
const FIELD_MAX = 255;
const TAGS_MAX = 508;

/** The tags a lead from us carries: where it came from, and what the buyer asked for. */
export function liondeskTags(d: LeadDelivery): string {
  const tags = ['Listing Ads', d.lead.interestedInTour ? 'Tour Request' : null, d.lead.interestedInSimilar ? 'Similar Homes' : null].filter(Boolean);
  return tags.join(',').slice(0, TAGS_MAX);
}

/**
 * The contact, with only fields LionDesk's Contacts reference shows (docs/endpoints/contacts, "Submit one Contact"):
 * first_name, last_name, email, mobile_phone and tags. No assigned_user_id (the token holder owns the contact, as
 * documented: owner_user_id is "automatically set as the submitter's id"), no source_id (an id from the agent's own
 * contact-sources list). The Contacts reference shows no free-text field, so the listing, the message and the tour /
 * similar-homes interest travel as tags where they can (Tour Request, Similar Homes) and stay whole in the dashboard.
 */
export function liondeskContact(d: LeadDelivery) {
  const { firstName, lastName } = splitName(d.lead.name);
  return {
    first_name: firstName.slice(0, FIELD_MAX),
    ...(lastName ? { last_name: lastName.slice(0, FIELD_MAX) } : {}),
    email: d.lead.email.slice(0, FIELD_MAX),
    ...(d.lead.phone ? { mobile_phone: d.lead.phone.slice(0, FIELD_MAX) } : {}),
    tags: liondeskTags(d),
  };
}

type Answer = { status: number; text: string; headers: SafeHeaders };

/** LionDesk's error words ({message} or {error}), when its answer has them. */
function liondeskMessage(text: string): string | null {
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown; name?: unknown };
    const words = [typeof body.message === 'string' ? body.message : null, typeof body.error === 'string' ? body.error : null].filter(Boolean);
    return words.length ? words.join(': ') : null;
  } catch {
    return null;
  }
}

/**
 * A failed answer, classified: 429 waits for Retry-After; 5xx and 408 are retried on the schedule; 401 means the
 * access token is not good any more (the next attempt renews it first, so it is retried); any other 4xx fails for
 * good, with a message that says what to fix.
 */
export function liondeskFailure(res: Answer, target: string, now: Date): AttemptOutcome {
  const detail = liondeskMessage(res.text);
  const retried = res.status === 429 || res.status === 408 || res.status === 401 || res.status >= 500 || res.status < 400;
  let error: string;
  if (res.status === 401) error = 'LionDesk refused the access token (401 Unauthorized): it is renewed before the next attempt';
  else if (res.status === 403) error = `LionDesk answered 403 Forbidden: this LionDesk account may not create contacts${detail ? ` (${detail})` : ''}. Connect LionDesk again with a user who can.`;
  else if (res.status === 429) error = 'LionDesk answered 429 Too Many Requests: retried after its Retry-After';
  else if (!retried) error = `LionDesk refused the contact (${statusText(res.status)})${detail ? `: ${detail}` : ''}`;
  else error = `LionDesk answered ${statusText(res.status)}`;
  return failedAnswer(target, res, error, { retryAfterSeconds: res.status === 429 || res.status >= 500 ? parseRetryAfter(res.headers.get('retry-after'), now) : null, permanent: !retried });
}

/**
 * LionDesk through its v2 API, with the agent's OAuth access token (renewed first when it has expired, see
 * crm-oauth/liondesk-oauth.ts): one POST /contacts with `Authorization: Bearer <access token>`.
 * Duplicates: LionDesk's documentation shows no way to look a contact up by email (docs/endpoints/contacts documents
 * submitting, not searching), so no look-up is made: a delivery that succeeded is never sent again (the delivery
 * job stops at the first 2xx), but an attempt whose answer was lost (a timeout after LionDesk saved the contact)
 * can, when retried, make a second contact. The help article says so.
 */
export async function deliverToLionDesk(message: MessageRow, ctx: ChannelContext): Promise<AttemptOutcome> {
  const target = LIONDESK_CONTACTS_URL;
  if (!ctx.db) return notConfigured('LionDesk deliveries need the database (the connection is stored there)', target);
  const failed = (error: string, permanent: boolean, statusCode: number | null = null): AttemptOutcome => ({
    ok: false,
    target,
    statusCode,
    responseBody: null,
    error,
    warning: null,
    retryAfterSeconds: null,
    gone: false,
    permanent,
  });
  try {
    const token = await lionDeskAccessToken({ db: ctx.db, box: ctx.box, config: ctx.config, now: ctx.now }, message.agentId);
    if (!token.ok) return failed(token.error, token.permanent, token.statusCode);
    const p = message.payload as { type: string; data: LeadDelivery };
    const res = await ctx.safeFetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token.accessToken}` },
      body: JSON.stringify(liondeskContact(p.data)),
    });
    let text = '';
    try {
      text = await res.text();
    } catch {
      text = '';
    }
    if (res.status < 200 || res.status >= 300) {
      if (res.status === 401) await expireLionDeskAccessToken(ctx.db, message.agentId, ctx.now);
      return liondeskFailure({ status: res.status, text, headers: res.headers }, target, ctx.now);
    }
    let id: unknown;
    try {
      id = (JSON.parse(text) as { id?: unknown }).id;
    } catch {
      id = undefined;
    }
    const summary = typeof id === 'number' || typeof id === 'string' ? `contact ${id} created` : text || 'contact created';
    return { ok: true, target, statusCode: res.status, responseBody: summary.slice(0, RESPONSE_BODY_LIMIT), error: null, warning: null, retryAfterSeconds: null, gone: false, permanent: false };
  } catch (err) {
    return failed(err instanceof OutboundError ? `${err.code}: ${err.message}` : `network: ${(err as Error).message}`, false);
  }
}
