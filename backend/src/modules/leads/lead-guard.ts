import crypto from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { LeadHoldReason, LeadSubmission } from '@app/contracts';
import { pipelineOf, type Db } from '../../platform/db/knex';

/**
 * The network a client address belongs to, for counting: its /24 (IPv4) or /64 (IPv6, where one subscriber
 * usually holds a whole /64). An IPv4-mapped IPv6 address counts as IPv4. Anything unparsable counts alone.
 */
export function networkOf(address: string): string {
  if (!ipaddr.isValid(address)) return `raw:${address}`;
  let addr = ipaddr.parse(address);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  if (addr.kind() === 'ipv4') {
    const [a, b, c] = (addr as ipaddr.IPv4).octets;
    return `${a}.${b}.${c}.0/24`;
  }
  const parts = (addr as ipaddr.IPv6).parts;
  return `${parts.slice(0, 4).map((p) => p.toString(16)).join(':')}::/64`;
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest();
/** A message as compared for repeats: case and runs of white space do not make it another message. */
const normalized = (message: string) => message.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * What makes two leads for a listing the same lead (an exact repeat, dropped): the sender's email (any case),
 * the name as typed and the message (its hash). Unique per listing in the table (leads_listing_content_unique).
 */
export function contentHashOf(input: Pick<LeadSubmission, 'email' | 'name' | 'message'>): Buffer {
  return sha256(`${input.email.trim().toLowerCase()}\n${input.name.trim()}\n${sha256(normalized(input.message ?? '')).toString('hex')}`);
}

/** A message long enough to be someone's own words: one repeated by another sender looks like a script. */
export const REPEATED_MESSAGE_MIN_LENGTH = 20;
/** The key that counts a message's repeats for a listing, or null for one too short to tell (“Is it available?”). */
export function messageKeyOf(message: string | null | undefined): string | null {
  const text = normalized(message ?? '');
  return text.length >= REPEATED_MESSAGE_MIN_LENGTH ? sha256(text).toString('base64url') : null;
}

/**
 * The guard of a listing: a score of its recent leads (each adds 1) that halves every LEAD_GUARD_HALF_LIFE_SECONDS.
 * The listing is guarded while the score of the leads before this one is at least LEAD_GUARD_THRESHOLD: a burst
 * of about that many leads within minutes starts it, and a flood keeps it up for about an hour after it stops.
 * A popular listing's steady flow (a lead every few minutes) stays under it.
 */
export const LEAD_GUARD_THRESHOLD = 5;
export const LEAD_GUARD_HALF_LIFE_SECONDS = 600;

/** The guard row's score now: decayed by half every `$2` seconds since it was last scored. */
const DECAYED_SCORE = `g.score * power(0.5, greatest(extract(epoch from now() - g.scored_at), 0) / $2)`;
/** Whether a decayed score guards its listing (with room for the float arithmetic of the decay). */
const guards = (score: number) => score >= LEAD_GUARD_THRESHOLD - 1e-9;

const SCORE_LEAD = `insert into lead_guards as g (listing_id, score, scored_at) values ($1, 1, now())
  on conflict (listing_id) do update
    set score = ${DECAYED_SCORE} + 1, scored_at = now()
  returning score - 1 as before`;

/**
 * Counts a lead for its listing's guard (one statement over the pipelined connection, beside the rate-limit
 * counts) and answers whether the listing was guarded when it came: the score of the leads before it, decayed.
 */
export async function scoreLead(db: Db, listingId: number): Promise<{ guarded: boolean; score: number }> {
  const { rows } = await pipelineOf(db).query<{ before: number }>({ name: 'leads.score-guard', text: SCORE_LEAD, values: [listingId, LEAD_GUARD_HALF_LIFE_SECONDS] });
  const score = Number(rows[0].before);
  return { guarded: guards(score), score };
}

const READ_GUARD = `select ${DECAYED_SCORE} as score from lead_guards as g where g.listing_id = $1`;

/** Whether the listing is guarded now (its decayed score), counting nothing: the form asks it as it opens. */
export async function isGuarded(db: Db, listingId: number): Promise<boolean> {
  const { rows } = await pipelineOf(db).query<{ score: number }>({ name: 'leads.read-guard', text: READ_GUARD, values: [listingId, LEAD_GUARD_HALF_LIFE_SECONDS] });
  return rows.length > 0 && guards(Number(rows[0].score));
}

/** Counts past which a lead sent to a guarded listing looks like part of the flood (per hour, every listing). */
export const GUARDED_ADDRESS_LEADS = 3;
export const GUARDED_NETWORK_LEADS = 10;

/** Why a lead sent while its listing was guarded is held, from what was counted; empty: it is delivered. */
export function holdReasonsOf(c: { addressLeads: number; networkLeads: number; repeats: boolean; proofOk: boolean }): LeadHoldReason[] {
  const reasons: LeadHoldReason[] = [];
  if (c.addressLeads > GUARDED_ADDRESS_LEADS) reasons.push('address');
  if (c.networkLeads > GUARDED_NETWORK_LEADS) reasons.push('network');
  if (c.repeats) reasons.push('content');
  if (!c.proofOk) reasons.push('proof');
  return reasons;
}
