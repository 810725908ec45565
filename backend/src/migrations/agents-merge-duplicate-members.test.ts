import crypto from 'node:crypto';
import { createTestDatabase } from '../../test/helpers';
import { createDb, type Db } from '../platform/db/knex';

/**
 * 20261127010100_agents_merge_duplicate_members on a copy of data with duplicates: the state the product had
 * before one agent per member (several browsers found "Sarah Johnson"), rolled back to just before the merge,
 * seeded, then migrated.
 */

const MERGE = '20261127010100_agents_merge_duplicate_members';
/** The migrations after the merge, newest first (rolled back, then run again by `latest`). */
const AFTER = ['20261127010400_listings_drop_promoted_at', '20261127010300_notifications_add_waiting_messages', '20261127010200_campaigns_add_created_by_browser', MERGE];

let db: Db;
let drop: () => Promise<void>;

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createDb(database.url, { max: 2 });
  for (const name of AFTER) await db.migrate.down({ name });
});
afterAll(async () => {
  await db.destroy();
  await drop();
});

interface Seeded {
  sarah: { oldest: number; verified: number; stranger: number };
  michael: { oldest: number; newer: number };
  emily: number;
  manual: number;
  listings: Record<string, number>;
  campaigns: Record<string, number>;
  leads: Record<string, number>;
  sessions: string[];
}

async function agent(values: Record<string, unknown>, createdAt: string): Promise<number> {
  const [row] = await db('agents').insert({ state: 'FL', source: 'mls', mlsSystem: 'demo', createdAt, ...values }).returning('id');
  return row.id;
}

async function listing(agentId: number, mlsId: string, updatedAt = '2026-10-01T00:00:00Z'): Promise<number> {
  const [row] = await db('listings').insert({ agentId, mlsId, address: `${mlsId} Palm Ave`, city: 'Tampa', state: 'FL', priceCents: 45_000_000, status: 'active', updatedAt }).returning('id');
  return row.id;
}

async function campaign(agentId: number, listingId: number, status = 'draft'): Promise<number> {
  const [row] = await db('campaigns')
    .insert({ agentId, listingId, templateType: 'just-listed', budgetCents: 29_900, impressionsRequested: 15_000, status })
    .returning('id');
  return row.id;
}

async function lead(agentId: number, listingId: number): Promise<number> {
  const [row] = await db('leads').insert({ agentId, listingId, name: 'Buyer', email: 'buyer@example.com', idempotencyKey: `k-${Math.random()}` }).returning('id');
  return row.id;
}

async function seed(): Promise<Seeded> {
  // Sarah Johnson (FL30418) found by three browsers: the oldest row, a verified one (opened link, password), and a
  // stranger's that changed the phone and set a webhook.
  const sarahOldest = await agent({ name: 'Sarah Johnson', mlsId: 'FL30418', mlsEmail: 'sarah@bayshore.example', email: 'sarah@bayshore.example' }, '2026-09-01T00:00:00Z');
  const sarahVerified = await agent(
    { name: 'Sarah Johnson', mlsId: 'FL30418', mlsEmail: 'sarah@bayshore.example', email: 'sarah@bayshore.example', passwordHash: '$argon2id$x', verifiedAt: '2026-09-20T00:00:00Z', phone: '(813) 555-0142' },
    '2026-09-10T00:00:00Z',
  );
  const sarahStranger = await agent({ name: 'Sarah Johnson', mlsId: 'FL30418', mlsEmail: 'sarah@bayshore.example', email: 'thief@example.com', phone: '(555) 000-0000' }, '2026-09-15T00:00:00Z');
  await db('notificationSettings').insert([
    { agentId: sarahVerified, webhookUrl: 'https://sarah.example/hook', emailNotifications: true },
    { agentId: sarahStranger, webhookUrl: 'https://thief.example/hook', emailNotifications: false },
  ]);
  // Michael Chen (CA71265) found twice, nobody verified: the oldest survives; the newer one set Zapier.
  const michaelOldest = await agent({ name: 'Michael Chen', mlsId: 'CA71265', state: 'CA', mlsEmail: 'michael@goldencoast.example', email: 'michael@goldencoast.example' }, '2026-09-02T00:00:00Z');
  const michaelNewer = await agent({ name: 'Mike Chan', mlsId: 'CA71265', state: 'CA', mlsEmail: 'michael@goldencoast.example', email: 'stranger@example.com', phone: '(555) 111-2222' }, '2026-09-05T00:00:00Z');
  await db('notificationSettings').insert({ agentId: michaelOldest, zapierWebhookUrl: 'https://hooks.zapier.com/hooks/catch/1/abc' });
  // Emily (one row, nothing to merge) and a manual agent (never merged by member).
  const emily = await agent({ name: 'Emily Rodriguez', mlsId: 'TX52890', state: 'TX', mlsEmail: 'emily@hill.example', email: 'emily@hill.example' }, '2026-09-03T00:00:00Z');
  await campaign(emily, await listing(emily, 'E1'));
  const manual = await agent({ name: 'Dana Whitfield', source: 'manual', mlsSystem: null, mlsId: 'FL30418' }, '2026-09-04T00:00:00Z');

  // Sarah's listing L1 loaded by all three (the stranger's load is the latest), L2 only by the stranger.
  const listings = {
    sarahOldestL1: await listing(sarahOldest, 'L1', '2026-09-01T00:00:00Z'),
    sarahVerifiedL1: await listing(sarahVerified, 'L1', '2026-09-10T00:00:00Z'),
    sarahStrangerL1: await listing(sarahStranger, 'L1', '2026-09-16T00:00:00Z'),
    sarahStrangerL2: await listing(sarahStranger, 'L2'),
    michaelNewerM1: await listing(michaelNewer, 'M1'),
    manualListing: await listing(manual, 'MANUAL-1700000000000'),
  };
  const campaigns = {
    verifiedOnOwnL1: await campaign(sarahVerified, listings.sarahVerifiedL1, 'active'),
    strangerOnL1: await campaign(sarahStranger, listings.sarahStrangerL1, 'paid'),
    strangerOnL2: await campaign(sarahStranger, listings.sarahStrangerL2),
    michaelNewerOnM1: await campaign(michaelNewer, listings.michaelNewerM1),
  };
  await db('payments').insert({ campaignId: campaigns.strangerOnL1, provider: 'local', providerPaymentId: 'pi_stranger', amountCents: 29_900, currency: 'usd', status: 'succeeded', idempotencyKey: 'ik-stranger' });
  const leads = {
    onOldestL1: await lead(sarahOldest, listings.sarahOldestL1),
    onStrangerL1: await lead(sarahStranger, listings.sarahStrangerL1),
    onMichaelM1: await lead(michaelNewer, listings.michaelNewerM1),
  };
  await db('uploads').insert({ id: '00000000-0000-4000-8000-000000000001', provider: 'local', objectPath: '/objects/uploads/u1', agentId: sarahStranger, expiresAt: new Date() });
  // Sessions: signed in as the stranger's row; a wizard holding the newer Michael and Emily.
  await db('sessions').insert([
    { sid: 's-stranger', data: JSON.stringify({ agentId: sarahStranger, wizardAgentIds: [sarahStranger] }), expiresAt: new Date(Date.now() + 3600_000) },
    { sid: 's-wizard', data: JSON.stringify({ wizardAgentIds: [michaelNewer, emily] }), expiresAt: new Date(Date.now() + 3600_000) },
  ]);
  return {
    sarah: { oldest: sarahOldest, verified: sarahVerified, stranger: sarahStranger },
    michael: { oldest: michaelOldest, newer: michaelNewer },
    emily,
    manual,
    listings,
    campaigns,
    leads,
    sessions: ['s-stranger', 's-wizard'],
  };
}

it('merges duplicate members into the verified (else oldest) row, moves everything, keeps one listing per MLS listing, and records each merge', async () => {
  const s = await seed();
  const agentsBefore = Number((await db('agents').count({ n: '*' }).first())!.n);
  await db.migrate.latest();

  // Counts: 3 Sarah rows → 1, 2 Michael rows → 1; Emily and the manual agent stay.
  expect(Number((await db('agents').count({ n: '*' }).first())!.n)).toBe(agentsBefore - 3);
  const ids = (await db('agents').orderBy('id').select('id')).map((r: { id: number }) => r.id);
  expect(ids).toEqual(expect.arrayContaining([s.sarah.verified, s.michael.oldest, s.emily, s.manual]));
  expect(ids).not.toEqual(expect.arrayContaining([s.sarah.oldest]));
  expect(ids).not.toContain(s.sarah.stranger);
  expect(ids).not.toContain(s.michael.newer);

  // Survivor choice: the verified row for Sarah, the oldest for Michael.
  const merges = await db('agentMerges').orderBy('mergedId').select('survivorId', 'mergedId', 'reason', 'moved');
  expect(merges).toEqual([
    { survivorId: s.sarah.verified, mergedId: s.sarah.oldest, reason: 'duplicate_member', moved: expect.objectContaining({ campaigns: 0, listings: 0, listingsFolded: 1, leads: 1 }) },
    { survivorId: s.michael.oldest, mergedId: s.michael.newer, reason: 'duplicate_member', moved: expect.objectContaining({ campaigns: 1, listings: 1, listingsFolded: 0, leads: 1 }) },
    { survivorId: s.sarah.verified, mergedId: s.sarah.stranger, reason: 'duplicate_member', moved: expect.objectContaining({ campaigns: 2, listings: 2, listingsFolded: 0, leads: 1, uploads: 1 }) },
  ].sort((a, b) => a.mergedId - b.mergedId));

  // One listing row per MLS listing: L1 is the row loaded last (the stranger's), now the survivor's; the others' campaigns and leads point at it.
  const l1 = await db('listings').where({ mlsId: 'L1' });
  expect(l1).toEqual([expect.objectContaining({ id: s.listings.sarahStrangerL1, agentId: s.sarah.verified })]);
  expect(await db('listings').where({ mlsId: 'L2' }).first()).toMatchObject({ agentId: s.sarah.verified });
  expect(await db('listings').where({ mlsId: 'M1' }).first()).toMatchObject({ agentId: s.michael.oldest });
  expect(await db('listings').where({ mlsId: 'MANUAL-1700000000000' }).first()).toMatchObject({ agentId: s.manual });
  expect(await db('campaigns').where({ id: s.campaigns.verifiedOnOwnL1 }).first()).toMatchObject({ agentId: s.sarah.verified, listingId: s.listings.sarahStrangerL1 });
  expect(await db('campaigns').where({ id: s.campaigns.strangerOnL1 }).first()).toMatchObject({ agentId: s.sarah.verified, listingId: s.listings.sarahStrangerL1 });
  expect(await db('campaigns').where({ id: s.campaigns.strangerOnL2 }).first()).toMatchObject({ agentId: s.sarah.verified });
  expect(await db('campaigns').where({ id: s.campaigns.michaelNewerOnM1 }).first()).toMatchObject({ agentId: s.michael.oldest });
  expect(await db('leads').where({ id: s.leads.onOldestL1 }).first()).toMatchObject({ agentId: s.sarah.verified, listingId: s.listings.sarahStrangerL1 });
  expect(await db('leads').where({ id: s.leads.onMichaelM1 }).first()).toMatchObject({ agentId: s.michael.oldest });
  expect(await db('uploads').first()).toMatchObject({ agentId: s.sarah.verified });

  // The admin figures followed the campaigns (counts by trigger, the stranger's paid $299 too).
  expect(await db('agents').where({ id: s.sarah.verified }).first()).toMatchObject({ totalCampaigns: 3, activeCampaigns: 1, spentCents: '29900' });
  expect(await db('agents').where({ id: s.michael.oldest }).first()).toMatchObject({ totalCampaigns: 1 });

  // The verified one's settings stay; the stranger's went with its row. Michael's Zapier, set while nobody had
  // verified him, is removed, and his unverified row shows what the MLS publishes.
  expect(await db('notificationSettings').where({ agentId: s.sarah.verified }).first()).toMatchObject({ webhookUrl: 'https://sarah.example/hook' });
  expect(await db('notificationSettings').where({ agentId: s.sarah.stranger }).first()).toBeUndefined();
  expect(await db('notificationSettings').where({ agentId: s.michael.oldest }).first()).toMatchObject({ zapierWebhookUrl: null });
  expect(await db('agents').where({ id: s.michael.oldest }).first()).toMatchObject({ name: 'Michael Chen', email: 'michael@goldencoast.example', verifiedAt: null });

  // Sessions lose the merged ids: no longer signed in as the stranger's row, and out of the wizard list.
  const sessions = Object.fromEntries((await db('sessions').whereIn('sid', s.sessions).select('sid', 'data')).map((r) => [r.sid, r.data]));
  expect(sessions['s-stranger']).toEqual({ wizardAgentIds: [] });
  expect(sessions['s-wizard']).toEqual({ wizardAgentIds: [s.emily], browserKey: expect.any(String) });

  // A campaign whose agent one live wizard session holds is that browser's (it may go on with its checkout).
  const wizardKey = sessions['s-wizard'].browserKey as string;
  expect(wizardKey).toMatch(/^[0-9a-f]{32}$/);
  const [emilyCampaign] = await db('campaigns').where({ agentId: s.emily });
  expect(emilyCampaign.createdByBrowser).toBe(crypto.createHash('sha256').update(wizardKey).digest('hex'));

  // The rules hold from now on.
  await expect(db('agents').insert({ name: 'Sarah Johnson', state: 'FL', source: 'mls', mlsSystem: 'demo', mlsId: 'FL30418' })).rejects.toThrow(/agents_mls_member_unique/);
  await expect(db('listings').insert({ agentId: s.emily, mlsId: 'L1', address: 'x', city: 'x', state: 'TX', priceCents: 1, status: 'active' })).rejects.toThrow(/listings_mls_listing_unique/);
});
