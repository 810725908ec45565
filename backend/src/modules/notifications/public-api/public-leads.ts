import type { ApiLeadsPage, ApiLeadsQuery, LeadDelivery } from '@app/contracts';
import type { Db } from '../../../platform/db/knex';
import { badRequest } from '../../../platform/errors';

/** The cursor is opaque to clients: base64url of the last lead's snapshot time (µs) and id. */
const encodeCursor = (us: string, leadId: number) => Buffer.from(`${us}.${leadId}`).toString('base64url');
function decodeCursor(cursor: string): [string, string] {
  const m = /^(\d{1,17})\.(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw badRequest('request.invalid', 'Invalid cursor', { cursor: 'Invalid cursor' });
  return [m[1], m[2]];
}

/**
 * GET /api/v1/leads: the key's agent's leads, newest first, each exactly as a subscribed hook receives it
 * in `data` (the lead snapshot every channel sends), so an integration's sample ("perform list") and its
 * live events have one shape. Keyset pagination on (created_at, lead_id), which an index serves.
 */
export async function publicLeadsPage(db: Db, agentId: number, { limit, cursor }: ApiLeadsQuery): Promise<ApiLeadsPage> {
  const q = db('notificationLeads')
    .where({ agentId })
    .select('leadId', 'snapshot', db.raw(`(extract(epoch from created_at) * 1000000)::bigint::text as created_us`))
    .orderBy([{ column: 'createdAt', order: 'desc' }, { column: 'leadId', order: 'desc' }])
    .limit(limit + 1);
  if (cursor) {
    const [us, id] = decodeCursor(cursor);
    q.whereRaw(`(created_at, lead_id) < ('epoch'::timestamptz + ?::bigint * interval '1 microsecond', ?::int)`, [us, id]);
  }
  const rows = (await q) as { leadId: number; snapshot: LeadDelivery; createdUs: string }[];
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return { leads: page.map((r) => r.snapshot), nextCursor: more ? encodeCursor(last.createdUs, last.leadId) : null };
}
