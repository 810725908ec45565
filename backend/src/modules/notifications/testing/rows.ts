import crypto from 'node:crypto';
import type { Db } from '../../../platform/db/knex';
import type { LeadForDelivery } from '../delivery/lead-deliveries';

/**
 * Rows for delivery tests, written straight to the tables (the leads endpoint belongs to the leads
 * module): an agent, a listing of theirs and a lead, handed over the way the leads module does. The agent's
 * email is verified unless `verified: false` (email with content goes only to a verified address, DESIGN §3).
 */
export async function agentWithListing(db: Db, opts: { email?: string | null; verified?: boolean } = {}) {
  const email = opts.email === undefined ? `dana-${crypto.randomBytes(4).toString('hex')}@example.com` : opts.email;
  const [agent] = await db('agents')
    .insert({ name: 'Dana Whitfield', state: 'FL', email, source: 'manual', verifiedAt: opts.verified === false ? null : new Date() })
    .returning('*');
  const [listing] = await db('listings')
    .insert({ agentId: agent.id, mlsId: `T-${crypto.randomBytes(4).toString('hex')}`, address: '12 Palm Ave', city: 'Tampa', state: 'FL', postalCode: '33602', priceCents: 45000000, status: 'active', bedrooms: 3, bathrooms: 2, squareFeet: 1850 })
    .returning('*');
  return { agent, listing };
}

export async function insertLead(db: Db, agent: { id: number }, listing: { id: number; mlsId: string }, overrides: Partial<LeadForDelivery> = {}): Promise<LeadForDelivery> {
  const [row] = await db('leads')
    .insert({ listingId: listing.id, agentId: agent.id, name: overrides.name ?? 'Jamie Buyer', email: overrides.email ?? 'jamie@example.com', phone: '8135550101', message: 'Is it still available?', interestedInTour: true })
    .returning('*');
  return {
    id: row.id,
    agentId: agent.id,
    listingId: listing.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    message: row.message,
    source: row.source,
    interestedInTour: row.interestedInTour,
    interestedInSimilar: row.interestedInSimilar,
    createdAt: row.createdAt,
    listing: { mlsId: listing.mlsId, address: '12 Palm Ave', city: 'Tampa', state: 'FL', postalCode: '33602', price: '450000', bedrooms: 3, bathrooms: '2.0', squareFeet: 1850, imageUrl: null },
    ...overrides,
  };
}

/** Poll until `check` returns a value (jobs run in pg-boss's workers; no fixed sleeps). */
export async function waitFor<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 15000, what = 'condition'): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v as T;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
