import { createTestContext, type TestContext } from '../../../test/helpers';
import { insertAgent, insertListing } from '../../../test/factories';
import { listAgentsForAdmin } from './admin-agent-list';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

/** What the triggers must keep on each agents row, computed the slow way from campaigns and payments. */
async function recomputed(agentIds: number[]) {
  const { rows } = await t.db.raw<{ rows: { id: number; total: number; active: number; spent: string }[] }>(
    `select a.id,
            (select count(*) from campaigns c where c.agent_id = a.id)::int as total,
            (select count(*) from campaigns c where c.agent_id = a.id and c.status = 'active')::int as active,
            (select coalesce(sum(p.amount_cents), 0) from payments p join campaigns c on c.id = p.campaign_id
              where c.agent_id = a.id and p.status = 'succeeded') as spent
       from agents a where a.id = any(?) order by a.id`,
    [agentIds],
  );
  return rows.map((r) => ({ id: r.id, totalCampaigns: r.total, activeCampaigns: r.active, spentCents: Number(r.spent) }));
}

async function stored(agentIds: number[]) {
  const rows = await t.db('agents').whereIn('id', agentIds).orderBy('id').select('id', 'totalCampaigns', 'activeCampaigns', 'spentCents');
  return rows.map((r) => ({ ...r, spentCents: Number(r.spentCents) }));
}

async function newAgent(name: string) {
  const agent = await insertAgent(t.db, { name, email: `${name.toLowerCase()}@example.com` });
  const listing = await insertListing(t.db, agent.id, { mlsId: `MANUAL-${agent.id}`, address: '1 Main St', priceCents: 40000000 });
  return { agentId: agent.id as number, listingId: listing.id as number };
}

const campaignRow = (agentId: number, listingId: number, status: string) => ({
  agentId,
  listingId,
  templateType: 'just-listed',
  headline: 'Campaign',
  budgetCents: 39900,
  impressionsRequested: 10000,
  status,
});

describe('per-agent campaign figures kept by the database (admin list)', () => {
  it('follow inserts, status changes, payments succeeding and canceled, single rows and batches', async () => {
    const ava = await newAgent('Ava');
    const ben = await newAgent('Ben');
    const ids = [ava.agentId, ben.agentId];
    expect(await stored(ids)).toEqual(await recomputed(ids));

    // One statement inserting campaigns of two agents.
    const campaigns = await t
      .db('campaigns')
      .insert([
        campaignRow(ava.agentId, ava.listingId, 'draft'),
        campaignRow(ava.agentId, ava.listingId, 'active'),
        campaignRow(ben.agentId, ben.listingId, 'active'),
      ])
      .returning(['id']);
    expect(await stored(ids)).toEqual([
      { id: ava.agentId, totalCampaigns: 2, activeCampaigns: 1, spentCents: 0 },
      { id: ben.agentId, totalCampaigns: 1, activeCampaigns: 1, spentCents: 0 },
    ]);

    await t.db('payments').insert([
      { campaignId: campaigns[0].id, provider: 'local', idempotencyKey: 'k1', amountCents: 39900, status: 'processing' },
      { campaignId: campaigns[1].id, provider: 'local', idempotencyKey: 'k2', amountCents: 59900, status: 'succeeded' },
      { campaignId: campaigns[2].id, provider: 'local', idempotencyKey: 'k3', amountCents: 19900, status: 'succeeded' },
    ]);
    expect((await stored(ids)).map((r) => r.spentCents)).toEqual([59900, 19900]);

    // The pending payment succeeds; Ben's is canceled; a metrics-only update changes nothing.
    await t.db('payments').where({ campaignId: campaigns[0].id }).update({ status: 'succeeded' });
    await t.db('payments').where({ campaignId: campaigns[2].id }).update({ status: 'canceled' });
    await t.db('campaigns').whereIn('id', campaigns.map((c) => c.id)).update({ clicks: 7 });
    // Statuses move in one batch (as the metrics sync completes campaigns) and one by one.
    await t.db('campaigns').whereIn('id', [campaigns[1].id, campaigns[2].id]).update({ status: 'completed' });
    await t.db('campaigns').where({ id: campaigns[0].id }).update({ status: 'active' });

    expect(await stored(ids)).toEqual(await recomputed(ids));
    expect(await stored(ids)).toEqual([
      { id: ava.agentId, totalCampaigns: 2, activeCampaigns: 1, spentCents: 99800 },
      { id: ben.agentId, totalCampaigns: 1, activeCampaigns: 0, spentCents: 0 },
    ]);

    // Deleting a campaign without payments takes it out of the counts.
    const [extra] = await t.db('campaigns').insert(campaignRow(ben.agentId, ben.listingId, 'active')).returning(['id']);
    expect((await stored([ben.agentId]))[0].activeCampaigns).toBe(1);
    await t.db('campaigns').where({ id: extra.id }).del();
    expect(await stored(ids)).toEqual(await recomputed(ids));
  });

  it('the list filters and totals read the stored figures', async () => {
    const cy = await newAgent('Cyrus');
    await t.db('campaigns').insert(campaignRow(cy.agentId, cy.listingId, 'active'));
    const list = await listAgentsForAdmin({ db: t.db }, { search: 'cyrus', status: 'active', campaigns: 'with', created: 'all', sort: 'createdAt', order: 'desc', page: 1, pageSize: 25 } as never);
    expect(list.rows.map((r) => [r.name, r.totalCampaigns, r.activeCampaigns])).toEqual([['Cyrus', 1, 1]]);
    expect(list.totals).toMatchObject({ agents: 1, campaigns: 1, activeCampaigns: 1 });
    const none = await listAgentsForAdmin({ db: t.db }, { search: 'cyrus', status: 'inactive', campaigns: 'all', created: 'all', sort: 'createdAt', order: 'desc', page: 1, pageSize: 25 } as never);
    expect(none.rows).toEqual([]);
    expect(none.totals).toMatchObject({ agents: 0, campaigns: 0, activeCampaigns: 0, revenue: 0 });
  });
});
