import crypto from 'node:crypto';
import nock from 'nock';
import { agentCreditsSchema, agentReportsSchema } from '@app/contracts';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { insertListingWithDraftCampaign as insertDraftCampaign, loggedInAgent } from '../../../test/factories';
import { pdfText } from '../../../test/pdf-text';
import { createLogger } from '../../platform/logger';
import { createPaymentProviders, refundCredit } from '../payments';
import { settleCampaignNow, settleEndedCampaigns } from './settlement';
import { sendMidFlightReports } from './mid-flight';
import { renderReportPdf } from './report-pdf';
import { loadCampaignReport } from './report-data';

const logger = createLogger('silent');
const HOUR = 3600_000;

describe('settlement and reports (local test payments, sandbox)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());
  const deps = () => ({ db: t.db, config: t.config, logger, queue: t.queue });

  /** An ended campaign (read since its end), paid with local test payments. */
  async function ended(o: { budgetCents: number; promised: number; delivered: number; agentId?: number; status?: string; endedAt?: Date | null }) {
    const { campaignId, agentId, listingId, mlsId } = await insertDraftCampaign(t.db, {
      status: o.status ?? 'completed',
      facebookCampaignId: `sbx_cmp_${crypto.randomBytes(8).toString('hex')}`,
      budgetCents: o.budgetCents,
      impressionsRequested: o.promised,
      impressionsDelivered: o.delivered,
      reach: Math.floor(o.delivered * 0.65),
      clicks: Math.floor(o.delivered / 100),
      startsAt: new Date(Date.now() - 10 * 24 * HOUR),
      endsAt: new Date(Date.now() - 3 * HOUR),
      endedAt: o.endedAt === undefined ? new Date(Date.now() - 2 * HOUR) : o.endedAt,
      endReason: 'flight over',
    });
    if (o.agentId) await t.db('campaigns').where({ id: campaignId }).update({ agentId: o.agentId });
    const owner = o.agentId ?? agentId;
    const intent = `pi_local_${crypto.randomBytes(12).toString('hex')}`;
    await t.db('localPaymentIntents').insert({ id: intent, clientSecret: `${intent}_secret_x${crypto.randomBytes(4).toString('hex')}`, idempotencyKey: `k-${intent}`, amountCents: o.budgetCents, status: 'succeeded', metadata: JSON.stringify({ campaignId: String(campaignId) }) });
    await t.db('payments').insert({ campaignId, agentId: owner, provider: 'local', providerPaymentId: intent, idempotencyKey: `p-${intent}`, amountCents: o.budgetCents, status: 'succeeded', succeededAt: new Date() });
    return { campaignId, agentId: owner, listingId, mlsId, intent };
  }

  it('credits a shortfall once, as a refund by default: a second run (and a second refund job) refunds nothing more', async () => {
    const c = await ended({ budgetCents: 29_900, promised: 15_000, delivered: 12_000 });
    const first = await settleEndedCampaigns(deps());
    expect(first).toContainEqual({ campaignId: c.campaignId, creditCents: 5_980 });
    expect(await settleEndedCampaigns(deps())).toEqual([]);

    const credit = await t.db('campaignCredits').where({ campaignId: c.campaignId }).first();
    expect(credit).toMatchObject({ method: 'refund', status: 'pending', amountCents: 5_980, promised: 15_000, delivered: 12_000 });
    const providers = createPaymentProviders(t.config, t.db, logger);
    expect(await refundCredit({ db: t.db, config: t.config, logger, providers }, credit.id, { lastAttempt: false })).toBe('refunded');
    expect(await refundCredit({ db: t.db, config: t.config, logger, providers }, credit.id, { lastAttempt: false })).toBe('nothing');
    expect(await t.db('localRefunds').where({ paymentIntentId: c.intent }).select('amountCents')).toEqual([{ amountCents: 5_980 }]);
    expect(await t.db('campaignCredits').where({ campaignId: c.campaignId }).first('status')).toEqual({ status: 'succeeded' });
    expect(await t.db('campaigns').where({ id: c.campaignId }).whereNotNull('settledAt').first('id')).toBeTruthy();
    // Revenue net of credits: the refund counts against the agent's figures.
    expect(await t.db('agents').where({ id: c.agentId }).first('spentCents', 'creditedCents')).toEqual({ spentCents: '29900', creditedCents: '5980' });
  });

  it('account credit when the agent chose it: a ledger entry, the balance, and the next checkout uses it', async () => {
    const { session, agent } = await loggedInAgent(t, t.newSession(), { name: 'Ana Credit', email: `ana-${Date.now()}@example.com`, password: 'correct-horse' });
    await session.put(`/api/agents/${agent.id}/credits/preference`).send({ method: 'account_credit' }).expect(200);
    const c = await ended({ budgetCents: 9_900, promised: 5_000, delivered: 0, agentId: agent.id });
    await settleEndedCampaigns(deps());
    const credits = agentCreditsSchema.parse((await session.get(`/api/agents/${agent.id}/credits`).expect(200)).body);
    expect(credits.balanceCents).toBe(9_900);
    expect(credits.preference).toBe('account_credit');
    expect(credits.credits).toMatchObject([{ campaignId: c.campaignId, method: 'account_credit', status: 'succeeded', amountCents: 9_900 }]);
    expect(credits.ledger).toMatchObject([{ kind: 'credit', amountCents: 9_900, campaignId: c.campaignId }]);
    // The ledger is append-only.
    await expect(t.db('creditLedger').where({ agentId: agent.id }).update({ amountCents: 1 })).rejects.toThrow(/append-only/);
    await expect(t.db('creditLedger').where({ agentId: agent.id }).del()).rejects.toThrow(/append-only/);

    // The next checkout: a $299 campaign is charged $299 − $99 = $200; paying it spends the credit, once.
    const { campaignId: next } = await insertDraftCampaign(t.db, { budgetCents: 29_900, impressionsRequested: 15_000 });
    await t.db('campaigns').where({ id: next }).update({ agentId: agent.id });
    const answer = (await session.post('/api/create-payment-intent').send({ campaignId: next, amount: 299 }).expect(200)).body;
    expect(answer).toMatchObject({ amountCents: 20_000, creditAppliedCents: 9_900 });
    const confirm = await session.post('/api/payments/local/confirm').send({ clientSecret: answer.clientSecret, cardNumber: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' }).expect(200);
    expect(confirm.body.status).toBe('succeeded');
    const paid = await t.db('campaigns').where({ id: next }).first('status', 'budgetCents');
    expect(paid).toEqual({ status: 'paid', budgetCents: 29_900 });
    const after = agentCreditsSchema.parse((await session.get(`/api/agents/${agent.id}/credits`).expect(200)).body);
    expect(after.balanceCents).toBe(0);
    expect(after.ledger.map((l) => [l.kind, l.amountCents, l.campaignId])).toEqual([['applied', -9_900, next], ['credit', 9_900, c.campaignId]]);
    // Revenue: $99 paid − $99 refunded as credit + $200 paid, credit spent: the agent's net is $299 − $0 outstanding.
    expect(await t.db('agents').where({ id: agent.id }).first('spentCents', 'creditedCents')).toEqual({ spentCents: '29900', creditedCents: '0' });
  });

  it('no credit when the guarantee was met or exceeded; the final report is still made once', async () => {
    const c = await ended({ budgetCents: 29_900, promised: 15_000, delivered: 15_200 });
    await settleEndedCampaigns(deps());
    await settleEndedCampaigns(deps());
    expect(await t.db('campaignCredits').where({ campaignId: c.campaignId }).first()).toBeUndefined();
    expect(await t.db('campaignSettlements').where({ campaignId: c.campaignId }).first('creditCents', 'delivered')).toEqual({ creditCents: 0, delivered: 15_200 });
    expect(await t.db('notificationMessages').where({ campaignId: c.campaignId, kind: 'report.final' }).count('* as n').first()).toEqual({ n: '1' });
  });

  it('waits for the late figures: a campaign ended moments ago is not settled yet', async () => {
    const c = await ended({ budgetCents: 9_900, promised: 5_000, delivered: 4_000, endedAt: new Date() });
    await settleEndedCampaigns(deps());
    expect(await t.db('campaignSettlements').where({ campaignId: c.campaignId }).first()).toBeUndefined();
  });

  it('a campaign stopped by its listing (settle now) is stopped at the platform and credited for the part not delivered', async () => {
    const { campaignId, agentId } = await insertDraftCampaign(t.db, { budgetCents: 29_900, impressionsRequested: 15_000, status: 'paid' });
    // Launched on the sandbox, half-way through its flight.
    const platformId = `sbx_cmp_${crypto.randomBytes(8).toString('hex')}`;
    const startsAt = new Date(Date.now() - 7 * 24 * HOUR);
    const endsAt = new Date(Date.now() + 7 * 24 * HOUR);
    await t.db('sandboxAdCampaigns').insert({ id: platformId, name: `LA#${campaignId} test`, objective: 'OUTCOME_AWARENESS', specialAdCategories: '["HOUSING"]', country: 'US', impressionsGoal: 15_000, adSetId: `sbx_adset_${campaignId}`, startsAt, endsAt, adId: `sbx_ad_${campaignId}`, dailyBudgetCents: 2_135 });
    await t.db('campaigns').where({ id: campaignId }).update({ status: 'active', facebookCampaignId: platformId, startsAt, endsAt });
    const intent = `pi_local_${crypto.randomBytes(12).toString('hex')}`;
    await t.db('localPaymentIntents').insert({ id: intent, clientSecret: `${intent}_secret_y`, idempotencyKey: `k-${intent}`, amountCents: 29_900, status: 'succeeded', metadata: '{}' });
    await t.db('payments').insert({ campaignId, agentId, provider: 'local', providerPaymentId: intent, idempotencyKey: `p-${intent}`, amountCents: 29_900, status: 'succeeded', succeededAt: new Date() });

    const settled = await settleCampaignNow(deps(), campaignId, 'listing pending');
    const row = await t.db('campaigns').where({ id: campaignId }).first('status', 'endReason', 'impressionsDelivered', 'settledAt');
    expect(row.status).toBe('completed');
    expect(row.endReason).toBe('listing pending');
    expect(row.impressionsDelivered).toBeGreaterThan(4_000);
    expect(row.impressionsDelivered).toBeLessThan(11_000);
    expect(row.settledAt).toBeInstanceOf(Date);
    expect(await t.db('sandboxAdCampaigns').where({ id: platformId }).first('stoppedAt')).toEqual({ stoppedAt: expect.any(Date) });
    const expected = Math.round((29_900 * (15_000 - row.impressionsDelivered)) / 15_000);
    expect(Math.abs(settled!.creditCents - expected)).toBeLessThanOrEqual(1);
    expect(await t.db('campaignCredits').where({ campaignId }).first('amountCents')).toEqual({ amountCents: settled!.creditCents });
    // Again: nothing more.
    expect(await settleCampaignNow(deps(), campaignId, 'listing pending')).toBeUndefined();
    expect(await t.db('campaignCredits').where({ campaignId }).count('* as n').first()).toEqual({ n: '1' });
  });

  it('mid-flight report once at half the flight or half the impressions; final report email once', async () => {
    const { campaignId: halfTime } = await insertDraftCampaign(t.db, {
      status: 'active', facebookCampaignId: 'sbx_cmp_mid1', impressionsRequested: 10_000, impressionsDelivered: 3_000,
      startsAt: new Date(Date.now() - 6 * 24 * HOUR), endsAt: new Date(Date.now() + 4 * 24 * HOUR),
    });
    const { campaignId: halfImpressions } = await insertDraftCampaign(t.db, {
      status: 'active', facebookCampaignId: 'sbx_cmp_mid2', impressionsRequested: 10_000, impressionsDelivered: 5_000,
      startsAt: new Date(Date.now() - 2 * 24 * HOUR), endsAt: new Date(Date.now() + 8 * 24 * HOUR),
    });
    const { campaignId: early } = await insertDraftCampaign(t.db, {
      status: 'active', facebookCampaignId: 'sbx_cmp_mid3', impressionsRequested: 10_000, impressionsDelivered: 1_000,
      startsAt: new Date(Date.now() - 1 * 24 * HOUR), endsAt: new Date(Date.now() + 9 * 24 * HOUR),
    });
    const sent = await sendMidFlightReports(deps());
    expect(sent).toEqual(expect.arrayContaining([halfTime, halfImpressions]));
    expect(sent).not.toContain(early);
    expect(await sendMidFlightReports(deps())).toEqual([]);
    const messages = await t.db('notificationMessages').whereIn('campaignId', [halfTime, halfImpressions, early]).where({ kind: 'report.mid_flight' }).select('campaignId', 'payload');
    expect(messages.map((m: { campaignId: number }) => m.campaignId).sort()).toEqual([halfTime, halfImpressions].sort());
    const behind = messages.find((m: { campaignId: number }) => m.campaignId === halfTime).payload;
    expect(behind.pace).toEqual({ flightPercent: 60, deliveredPercent: 30, onTrack: false });
    await t.db('campaigns').whereIn('id', [halfTime, halfImpressions, early]).update({ status: 'canceled' });
  });

  it('the dashboard lists reports with the seller link; the link opens without a login, and once revoked gives 404', async () => {
    const { session, agent } = await loggedInAgent(t, t.newSession(), { name: 'Sam Seller', email: `sam-${Date.now()}@example.com`, password: 'correct-horse' });
    const c = await ended({ budgetCents: 29_900, promised: 15_000, delivered: 14_000, agentId: agent.id });
    await t.db('leads').insert({ listingId: c.listingId, agentId: agent.id, name: 'Bea Buyer', email: 'bea@example.com', phone: '555-0100', message: 'Tour?', createdAt: new Date(Date.now() - 5 * 24 * HOUR) });
    await settleEndedCampaigns(deps());
    const reports = agentReportsSchema.parse((await session.get(`/api/agents/${agent.id}/reports`).expect(200)).body);
    expect(reports).toHaveLength(1);
    const r = reports[0];
    expect(r).toMatchObject({ campaignId: c.campaignId, status: 'final', credit: { amountCents: 1_993, method: 'refund' }, figures: { promised: 15_000, delivered: 14_000, leads: 1 } });
    const path = new URL(r.sellerUrl!).pathname;
    expect(path).toMatch(/^\/report\/[A-Za-z0-9_-]{22}$/);
    // Only the hash is stored.
    const token = path.split('/').pop()!;
    const stored = await t.db('reportLinks').where({ campaignId: c.campaignId }).first();
    expect(stored.tokenHash.equals(crypto.createHash('sha256').update(token).digest())).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(token);

    const page = await t.request.get(path).expect(200);
    expect(page.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(page.text).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(page.text).toContain('<meta property="og:title" content="Ad results: 12 Palm Ave, Tampa, FL">');
    expect(page.text).toContain('14,000');
    expect(page.text).not.toMatch(/Bea|bea@example\.com|555-0100/);
    expect(page.text).not.toContain('<script');

    // Someone else cannot revoke it; the agent can, and it is gone for good.
    const other = await loggedInAgent(t, t.newSession(), { name: 'Olly Other', email: `olly-${Date.now()}@example.com`, password: 'correct-horse' });
    await other.session.delete(`/api/agents/${agent.id}/reports/${c.campaignId}/seller-link`).expect(404);
    const revoked = (await session.delete(`/api/agents/${agent.id}/reports/${c.campaignId}/seller-link`).expect(200)).body;
    expect(revoked.sellerUrl).toBeNull();
    await t.request.get(path).expect(404);
    await t.request.get(`${path}/report.pdf`).expect(404);
    await t.request.get('/report/AAAAAAAAAAAAAAAAAAAAAA').expect(404);
    // A new link is a new token.
    const again = (await session.post(`/api/agents/${agent.id}/reports/${c.campaignId}/seller-link`).expect(200)).body;
    expect(again.sellerUrl).not.toBe(r.sellerUrl);
    await t.request.get(new URL(again.sellerUrl).pathname).expect(200);
  });

  it('the PDF parses and holds the figures, the address and the chart’s days', async () => {
    const c = await ended({ budgetCents: 29_900, promised: 15_000, delivered: 13_456 });
    await t.db('campaignDailyMetrics').insert(
      Array.from({ length: 30 }, (_, i) => ({ campaignId: c.campaignId, day: `2026-10-${String(i + 1).padStart(2, '0')}`, impressions: 400 + i, reach: 300, clicks: 4 })),
    );
    await t.db('listingPageViews').insert({ mlsId: c.mlsId, day: new Date(Date.now() - 5 * 24 * HOUR).toISOString().slice(0, 10), views: 321 });
    const report = (await loadCampaignReport(t.db, c.campaignId))!;
    const pdf = await renderReportPdf(report, t.config);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const { text, info } = await pdfText(pdf);
    for (const s of ['Campaign report', '12 Palm Ave, Tampa, FL', '13,456', '89% of 15,000', 'People reached', '8,746', '134', 'Click-through rate', '1.00%', 'Frequency', '1.54', 'Listing-page views', '321', 'Leads', 'Oct 1', 'Amazing Property in Tampa']) {
      expect(text).toContain(s);
    }
    expect(info.Title).toBe('Campaign report: 12 Palm Ave, Tampa, FL');
    expect(pdf.length).toBeLessThan(500 * 1024);
  });
});

describe('refunds.create at Stripe (contract, nock)', () => {
  let t: TestContext;
  beforeAll(async () => {
    nock.disableNetConnect();
    nock.enableNetConnect(/127\.0\.0\.1|localhost/);
    t = await createTestContext({ env: { STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: 'whsec_test', STRIPE_PUBLISHABLE_KEY: 'pk_test_123' } });
  });
  afterAll(async () => {
    nock.cleanAll();
    await t.close();
  });

  it('a double run makes one refund: one refunds.create call, with the amount, the intent and the credit’s idempotency key', async () => {
    const { campaignId, agentId } = await insertDraftCampaign(t.db, {
      status: 'completed', facebookCampaignId: 'sbx_cmp_stripe1', budgetCents: 29_900, impressionsRequested: 15_000, impressionsDelivered: 7_500,
      startsAt: new Date(Date.now() - 10 * 24 * HOUR), endsAt: new Date(Date.now() - 3 * HOUR), endedAt: new Date(Date.now() - 2 * HOUR),
    });
    await t.db('payments').insert({ campaignId, agentId, provider: 'stripe', providerPaymentId: 'pi_3Nstripe', idempotencyKey: 'pk-1', amountCents: 29_900, status: 'succeeded', succeededAt: new Date() });
    let seenKey: string | undefined;
    const scope = nock('https://api.stripe.com', {
      reqheaders: {
        'idempotency-key': (v: string | null) => {
          seenKey = v ?? undefined;
          return true;
        },
      },
    })
      .post('/v1/refunds', (body) => body.payment_intent === 'pi_3Nstripe' && body.amount === '14950' && body['metadata[campaignId]'] === String(campaignId))
      .once()
      .reply(200, { id: 're_3Nrefund', object: 'refund', amount: 14_950, currency: 'usd', payment_intent: 'pi_3Nstripe', status: 'succeeded' });
    const deps = { db: t.db, config: t.config, logger, queue: t.queue };
    await settleEndedCampaigns(deps);
    await settleEndedCampaigns(deps);
    const credit = await t.db('campaignCredits').where({ campaignId }).first();
    expect(credit).toMatchObject({ method: 'refund', amountCents: 14_950, status: 'pending' });
    const jobs = await t.db.raw(`select count(*)::int as n from pgboss.job where name = 'payments.refund-credit' and data->>'creditId' = ?`, [String(credit.id)]);
    expect(jobs.rows[0].n).toBe(1);
    // The job run twice (pg-boss may): one call.
    expect(await refundCredit({ db: t.db, config: t.config, logger }, credit.id, { lastAttempt: false })).toBe('refunded');
    expect(await refundCredit({ db: t.db, config: t.config, logger }, credit.id, { lastAttempt: false })).toBe('nothing');
    expect(scope.isDone()).toBe(true);
    expect(nock.pendingMocks()).toEqual([]);
    expect(seenKey).toBe(credit.idempotencyKey);
    expect(seenKey).toMatch(new RegExp(`^campaign-${campaignId}-credit-[0-9a-f]{12}$`));
    expect(await t.db('campaignCredits').where({ id: credit.id }).first('status', 'providerRefundId')).toEqual({ status: 'succeeded', providerRefundId: 're_3Nrefund' });
  });

  it('a refund Stripe refuses becomes account credit: the agent never loses it', async () => {
    const { campaignId, agentId } = await insertDraftCampaign(t.db, {
      status: 'completed', facebookCampaignId: 'sbx_cmp_stripe2', budgetCents: 9_900, impressionsRequested: 5_000, impressionsDelivered: 4_000,
      startsAt: new Date(Date.now() - 10 * 24 * HOUR), endsAt: new Date(Date.now() - 3 * HOUR), endedAt: new Date(Date.now() - 2 * HOUR),
    });
    await t.db('payments').insert({ campaignId, agentId, provider: 'stripe', providerPaymentId: 'pi_3Nrefunded', idempotencyKey: 'pk-2', amountCents: 9_900, status: 'succeeded', succeededAt: new Date() });
    nock('https://api.stripe.com')
      .post('/v1/refunds')
      .reply(400, { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: 'Charge ch_1 has already been refunded.' } });
    await settleEndedCampaigns({ db: t.db, config: t.config, logger, queue: t.queue });
    const credit = await t.db('campaignCredits').where({ campaignId }).first();
    expect(await refundCredit({ db: t.db, config: t.config, logger }, credit.id, { lastAttempt: false })).toBe('account_credit');
    expect(await t.db('campaignCredits').where({ id: credit.id }).first('method', 'status')).toEqual({ method: 'account_credit', status: 'succeeded' });
    expect(await t.db('creditLedger').where({ campaignCreditId: credit.id }).first('amountCents')).toEqual({ amountCents: 1_980 });
  });
});
