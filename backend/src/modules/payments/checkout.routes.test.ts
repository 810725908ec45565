import nock from 'nock';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { launchJobCount } from '../../../test/jobs';
import { campaignDraftBody, waitFor, wizardBrowser, type Session } from '../../../test/factories';

/*
 * Checkout with the embedded provider (local test payments, the default: no STRIPE_* configured),
 * through the real app, database and job workers.
 */

let t: TestContext;
beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1|localhost/);
  t = await createTestContext({ work: true });
});
afterAll(() => t.close());


/** A wizard browser up to the pricing step: a manual agent, a listing and a draft campaign. */
async function draftCampaign(session: Session = t.newSession(), price = '399') {
  const { agent, listing } = await wizardBrowser(session);
  const draft = campaignDraftBody(agent.id, listing.id, { price });
  const { body: campaign } = await session.post('/api/campaigns').send(draft).expect(201);
  return { session, agent, listing, draft, campaign: campaign as { id: number; price: string } };
}

/** A draft campaign with its payment intent created. */
async function checkout(price = '399') {
  const d = await draftCampaign(undefined, price);
  const res = await d.session.post('/api/create-payment-intent').send({ amount: Number(price), campaignId: d.campaign.id }).expect(200);
  return { ...d, clientSecret: res.body.clientSecret as string };
}

const VALID = { expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: '123' };
const pay = (session: Session, clientSecret: string, cardNumber: string, extra: Record<string, unknown> = {}) =>
  session.post('/api/payments/local/confirm').send({ clientSecret, cardNumber, ...VALID, ...extra });

const campaignRow = (id: number) => t.db('campaigns').where({ id }).first();
const paymentRow = (campaignId: number) => t.db('payments').where({ campaignId }).first();
const moves = (campaignId: number) => t.db('campaignTransitions').where({ campaignId }).orderBy('id').select('fromStatus', 'toStatus');

describe('POST /api/create-payment-intent (local test payments)', () => {
  it('charges the campaign’s budget, computed by the server, and moves the campaign to pending_payment', async () => {
    const { session, campaign, draft } = await draftCampaign(undefined, '299');
    const res = await session.post('/api/create-payment-intent').send({ amount: 299, campaignId: campaign.id }).expect(200);
    expect(res.body).toEqual({
      clientSecret: expect.stringMatching(/^pi_local_[0-9a-f]{24}_secret_[0-9a-f]{32}$/),
      provider: 'local',
      amountCents: 29900,
      creditAppliedCents: 0,
      publishableKey: null,
    });
    const payment = await paymentRow(campaign.id);
    expect(payment).toMatchObject({
      provider: 'local',
      providerPaymentId: res.body.clientSecret.split('_secret_')[0],
      idempotencyKey: expect.stringMatching(new RegExp(`^campaign-${campaign.id}-payment-[0-9a-f]{12}$`)),
      amountCents: 29900,
      currency: 'usd',
      status: 'requires_payment_method',
    });
    const intent = await t.db('localPaymentIntents').where({ id: payment.providerPaymentId }).first();
    expect(intent).toMatchObject({ amountCents: 29900, currency: 'usd', status: 'requires_payment_method', metadata: { campaignId: String(campaign.id) } });
    expect((await campaignRow(campaign.id)).status).toBe('pending_payment');
    expect(await moves(campaign.id)).toEqual([
      { fromStatus: null, toStatus: 'draft' },
      { fromStatus: 'draft', toStatus: 'pending_payment' },
    ]);
  });

  it('back from checkout with a new budget: the same campaign, payment and intent, at the new amount', async () => {
    const { session, campaign, draft } = await draftCampaign(undefined, '299');
    const first = await session.post('/api/create-payment-intent').send({ amount: 299, campaignId: campaign.id }).expect(200);
    const edited = await session.patch(`/api/campaigns/${campaign.id}`).send({ ...draft, price: '399' }).expect(200);
    expect(edited.body).toMatchObject({ id: campaign.id, status: 'draft', price: '399' });
    // The old amount no longer matches the campaign: the checkout page re-reads the campaign first.
    await session.post('/api/create-payment-intent').send({ amount: 299, campaignId: campaign.id }).expect(400);
    const again = await session.post('/api/create-payment-intent').send({ amount: 399, campaignId: campaign.id }).expect(200);
    expect(again.body).toEqual({ ...first.body, amountCents: 39900 });
    expect(await t.db('payments').where({ campaignId: campaign.id })).toEqual([expect.objectContaining({ amountCents: 39900, status: 'requires_payment_method' })]);
    const intents = await t.db('localPaymentIntents').whereRaw(`metadata->>'campaignId' = ?`, [String(campaign.id)]);
    expect(intents).toEqual([expect.objectContaining({ clientSecret: first.body.clientSecret, amountCents: 39900 })]);
    expect((await campaignRow(campaign.id)).status).toBe('pending_payment');

    await pay(session, again.body.clientSecret, '4242424242424242').expect(200);
    expect(await campaignRow(campaign.id)).toMatchObject({ status: 'paid', budgetCents: 39900 });
    expect(await paymentRow(campaign.id)).toMatchObject({ status: 'succeeded', amountCents: 39900 });
    await session.patch(`/api/campaigns/${campaign.id}`).send(draft).expect(409);
  });

  it('an intent paid at its old amount while the budget was being changed buys that amount, never the new budget', async () => {
    const { session, campaign, draft } = await draftCampaign(undefined, '299');
    const { body } = await session.post('/api/create-payment-intent').send({ amount: 299, campaignId: campaign.id }).expect(200);
    await session.patch(`/api/campaigns/${campaign.id}`).send({ ...draft, price: '999' }).expect(200);
    // The checkout still open in another tab pays the intent as it was.
    await pay(session, body.clientSecret, '4242424242424242').expect(200);
    expect(await campaignRow(campaign.id)).toMatchObject({ status: 'paid', budgetCents: 29900, impressionsRequested: 15000 });
  });

  it('refuses an amount that is not the campaign’s budget (400), and changes nothing', async () => {
    const { session, campaign } = await draftCampaign(undefined, '399');
    for (const amount of [1, 398.99, 3.99, 39900]) {
      const res = await session.post('/api/create-payment-intent').send({ amount, campaignId: campaign.id }).expect(400);
      expect(res.body).toMatchObject({ code: 'payments.amount_mismatch', message: expect.stringContaining('$399') });
    }
    expect(await paymentRow(campaign.id)).toBeUndefined();
    expect((await campaignRow(campaign.id)).status).toBe('draft');
    const invalid = await session.post('/api/create-payment-intent').send({ amount: '399', campaignId: campaign.id }).expect(400);
    expect(invalid.body.fields).toEqual({ amount: 'Amount must be a positive number' });
  });

  it('is 404 for an unknown campaign and for another session’s campaign alike', async () => {
    const missing = await t.newSession().post('/api/create-payment-intent').send({ amount: 399, campaignId: 99999999 }).expect(404);
    expect(missing.body).toEqual({ message: 'Campaign not found', code: 'campaigns.not_found' });

    const { campaign } = await draftCampaign();
    const stranger = await t.newSession().post('/api/create-payment-intent').send({ amount: 399, campaignId: campaign.id }).expect(404);
    expect(stranger.body).toEqual({ message: 'Campaign not found', code: 'campaigns.not_found' });
    expect(await paymentRow(campaign.id)).toBeUndefined();
    expect((await campaignRow(campaign.id)).status).toBe('draft');
  });

  it('answers a repeat call, and concurrent calls, with the same client secret: one payment, one intent', async () => {
    const { session, campaign } = await draftCampaign();
    const first = await session.post('/api/create-payment-intent').send({ amount: 399, campaignId: campaign.id }).expect(200);
    const again = await session.post('/api/create-payment-intent').send({ amount: 399, campaignId: campaign.id }).expect(200);
    expect(again.body).toEqual(first.body);

    const other = await draftCampaign();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => other.session.post('/api/create-payment-intent').send({ amount: 399, campaignId: other.campaign.id })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.body.clientSecret)).size).toBe(1);
    expect(await t.db('payments').where({ campaignId: other.campaign.id }).count({ n: '*' }).first()).toEqual({ n: '1' });
    const key = (await paymentRow(other.campaign.id)).idempotencyKey;
    expect(await t.db('localPaymentIntents').where({ idempotencyKey: key }).count({ n: '*' }).first()).toEqual({ n: '1' });
    expect((await moves(other.campaign.id)).filter((m) => m.toStatus === 'pending_payment')).toHaveLength(1);
  });

  it('is 409 payments.already_paid once the campaign is paid', async () => {
    const { session, campaign, clientSecret } = await checkout();
    await pay(session, clientSecret, '4242 4242 4242 4242').expect(200);
    const res = await session.post('/api/create-payment-intent').send({ amount: 399, campaignId: campaign.id }).expect(409);
    expect(res.body).toEqual({ message: 'This campaign has already been paid.', code: 'payments.already_paid' });
  });
});

describe('POST /api/payments/local/confirm with Stripe’s test cards', () => {
  it('4242 4242 4242 4242 succeeds; the card number is not stored, only brand and last four', async () => {
    const { session, campaign, clientSecret } = await checkout();
    const res = await pay(session, clientSecret, '4242 4242 4242 4242').expect(200);
    expect(res.body).toEqual({ status: 'succeeded', message: 'Payment succeeded.' });

    const intent = await t.db('localPaymentIntents').where({ clientSecret }).first();
    expect(intent).toMatchObject({ status: 'succeeded', cardBrand: 'visa', cardLast4: '4242', lastPaymentError: null });
    expect(JSON.stringify(intent)).not.toContain('4242424242424242');
    expect(JSON.stringify(await paymentRow(campaign.id))).not.toContain('4242424242424242');

    // The provider's event (as Stripe's webhook would bring it) settles the payment and the campaign.
    const payment = await paymentRow(campaign.id);
    expect(payment).toMatchObject({ status: 'succeeded', succeededAt: expect.any(Date), failureMessage: null });
    expect(await launchJobCount(t.db, campaign.id)).toBe(1);

    // Confirming again does not pay twice.
    expect((await pay(session, clientSecret, '4242424242424242').expect(200)).body).toEqual({ status: 'succeeded', message: 'This payment has already succeeded.' });
  });

  it.each([
    ['4000 0000 0000 0002', 'Your card was declined.'],
    ['4000 0000 0000 9995', 'Your card has insufficient funds.'],
    ['4111 1111 1111 1111', 'Your card was declined.'],
  ])('%s is declined: “%s”; the payment is failed and another card can still pay', async (cardNumber, message) => {
    const { session, campaign, clientSecret } = await checkout();
    expect((await pay(session, clientSecret, cardNumber).expect(200)).body).toEqual({ status: 'failed', message });
    expect(await paymentRow(campaign.id)).toMatchObject({ status: 'failed', failureMessage: message, succeededAt: null });
    expect((await campaignRow(campaign.id)).status).toBe('pending_payment');
    expect(await t.db('localPaymentIntents').where({ clientSecret }).first()).toMatchObject({ status: 'requires_payment_method', lastPaymentError: message });
    expect(await launchJobCount(t.db, campaign.id)).toBe(0);

    await pay(session, clientSecret, '4242424242424242').expect(200);
    expect(await paymentRow(campaign.id)).toMatchObject({ status: 'succeeded', failureMessage: null });
  });

  it('4000 0027 6000 3184 asks for 3-D Secure; approving pays', async () => {
    const { session, campaign, clientSecret } = await checkout();
    const res = await pay(session, clientSecret, '4000002760003184').expect(200);
    expect(res.body).toEqual({ status: 'requires_action', message: expect.stringContaining('3D Secure') });
    expect(await paymentRow(campaign.id)).toMatchObject({ status: 'requires_action' });
    expect((await campaignRow(campaign.id)).status).toBe('pending_payment');

    const approved = await session.post('/api/payments/local/authenticate').send({ clientSecret, approve: true }).expect(200);
    expect(approved.body).toEqual({ status: 'succeeded', message: 'Payment succeeded.' });
    expect(await paymentRow(campaign.id)).toMatchObject({ status: 'succeeded' });
    expect(await t.db('localPaymentIntents').where({ clientSecret }).first()).toMatchObject({ status: 'succeeded', cardLast4: '3184' });
    expect(await launchJobCount(t.db, campaign.id)).toBe(1);
  });

  it('3-D Secure refused: the payment fails with Stripe’s message, and nothing is waiting for authentication any more', async () => {
    const { session, campaign, clientSecret } = await checkout();
    await pay(session, clientSecret, '4000 0027 6000 3184').expect(200);
    const denied = await session.post('/api/payments/local/authenticate').send({ clientSecret, approve: false }).expect(200);
    const message = 'We are unable to authenticate your payment method. Please choose a different payment method and try again.';
    expect(denied.body).toEqual({ status: 'failed', message });
    expect(await paymentRow(campaign.id)).toMatchObject({ status: 'failed', failureMessage: message });
    expect((await campaignRow(campaign.id)).status).toBe('pending_payment');

    const again = await session.post('/api/payments/local/authenticate').send({ clientSecret, approve: true }).expect(409);
    expect(again.body.code).toBe('payments.no_action_required');
    expect(await paymentRow(campaign.id)).toMatchObject({ status: 'failed' });
  });

  it('checks the card like Stripe’s form does (400 with field messages) before asking anything', async () => {
    const { session, campaign, clientSecret } = await checkout();
    const year = new Date().getUTCFullYear();
    const badNumber = await pay(session, clientSecret, '4242 4242 4242 4241').expect(400);
    expect(badNumber.body).toEqual({ code: 'payments.card_invalid', message: 'Your card number is incorrect.', fields: { cardNumber: 'Your card number is incorrect.' } });
    const past = await pay(session, clientSecret, '4242424242424242', { expMonth: 1, expYear: year - 1 }).expect(400);
    expect(past.body.fields).toEqual({ expYear: "Your card's expiration date is in the past." });
    const cvc = await pay(session, clientSecret, '4242424242424242', { cvc: '12' }).expect(400);
    expect(cvc.body.fields).toEqual({ cvc: "Your card's security code is incomplete." });
    const missing = await session.post('/api/payments/local/confirm').send({ clientSecret }).expect(400);
    expect(Object.keys(missing.body.fields).sort()).toEqual(['cardNumber', 'cvc', 'expMonth', 'expYear']);

    expect(await t.db('localPaymentIntents').where({ clientSecret }).first()).toMatchObject({ status: 'requires_payment_method', confirmAttempts: 0 });
    expect(await paymentRow(campaign.id)).toMatchObject({ status: 'requires_payment_method' });
  });

  it('is 404 for an unknown client secret', async () => {
    const res = await pay(t.newSession(), 'pi_local_000000000000000000000000_secret_00000000000000000000000000000000', '4242424242424242').expect(404);
    expect(res.body).toEqual({ message: 'No such payment intent.', code: 'payments.intent_not_found' });
  });

  it('is rate limited per intent', async () => {
    const { session, clientSecret } = await checkout();
    for (let i = 0; i < 10; i++) await pay(session, clientSecret, '4000000000000002').expect(200);
    const res = await pay(session, clientSecret, '4242424242424242').expect(429);
    expect(res.body.code).toBe('rate_limited');
    expect(res.headers['retry-after']).toBeDefined();
  });

  it('has no Stripe webhook while local test payments run', async () => {
    const res = await t.request.post('/api/webhooks/stripe').set('Stripe-Signature', 't=1,v1=00').send({ id: 'evt_1' }).expect(404);
    expect(res.body.code).toBe('payments.stripe_not_configured');
  });
});

describe('POST /api/webhook/payment-success', () => {
  it('before paying: 402 payments.not_paid, and nothing changes', async () => {
    const { session, campaign } = await draftCampaign();
    const early = await session.post('/api/webhook/payment-success').send({ campaignId: campaign.id }).expect(402);
    expect(early.body).toEqual({ message: 'Payment has not been completed for this campaign.', code: 'payments.not_paid' });
    expect((await campaignRow(campaign.id)).status).toBe('draft');

    await session.post('/api/create-payment-intent').send({ amount: 399, campaignId: campaign.id }).expect(200);
    const before = await moves(campaign.id);
    await session.post('/api/webhook/payment-success').send({ campaignId: campaign.id }).expect(402);
    expect(await moves(campaign.id)).toEqual(before);
    expect((await campaignRow(campaign.id)).status).toBe('pending_payment');
    expect((await paymentRow(campaign.id)).status).toBe('requires_payment_method');
    expect(await launchJobCount(t.db, campaign.id)).toBe(0);
  });

  it('after paying: the campaign is paid, its launch job runs, and the campaign moves on from paid', async () => {
    const { session, campaign, clientSecret } = await checkout();
    await pay(session, clientSecret, '4242424242424242').expect(200);
    const res = await session.post('/api/webhook/payment-success').send({ campaignId: campaign.id }).expect(200);
    expect(res.body).toEqual({ campaignId: campaign.id, status: expect.stringMatching(/^(paid|launching|active)$/) });
    expect(await launchJobCount(t.db, campaign.id)).toBe(1);
    const launched = await waitFor('the launch', async () => {
      const c = await campaignRow(campaign.id);
      return c.status === 'active' ? c : null;
    });
    expect(launched.facebookCampaignId).toBeTruthy();
    expect((await moves(campaign.id)).filter((m) => m.toStatus === 'paid')).toEqual([{ fromStatus: 'pending_payment', toStatus: 'paid' }]);
  });

  it('confirms only with the provider: an intent that succeeded at the provider but was never settled here is settled once, however many calls arrive together', async () => {
    const { session, campaign, clientSecret } = await checkout();
    // The provider took the money, but its event never reached us (the webhook was lost).
    await t.db('localPaymentIntents').where({ clientSecret }).update({ status: 'succeeded' });
    expect((await paymentRow(campaign.id)).status).toBe('requires_payment_method');

    const answers = await Promise.all(Array.from({ length: 20 }, () => session.post('/api/webhook/payment-success').send({ campaignId: campaign.id })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    for (const a of answers) expect(a.body.campaignId).toBe(campaign.id);

    expect((await moves(campaign.id)).filter((m) => m.toStatus === 'paid')).toHaveLength(1);
    expect(await launchJobCount(t.db, campaign.id)).toBe(1);
    expect(await paymentRow(campaign.id)).toMatchObject({ status: 'succeeded', succeededAt: expect.any(Date) });
  });

  it('is 402 when the provider’s intent is for another amount', async () => {
    const { session, campaign, clientSecret } = await checkout();
    await t.db('localPaymentIntents').where({ clientSecret }).update({ status: 'succeeded', amountCents: 100 });
    await session.post('/api/webhook/payment-success').send({ campaignId: campaign.id }).expect(402);
    expect((await campaignRow(campaign.id)).status).toBe('pending_payment');
    expect(await launchJobCount(t.db, campaign.id)).toBe(0);
  });

  it('is 404 for an unknown campaign and for another session alike', async () => {
    await t.newSession().post('/api/webhook/payment-success').send({ campaignId: 99999999 }).expect(404);
    const { session, campaign, clientSecret } = await checkout();
    await pay(session, clientSecret, '4242424242424242').expect(200);
    const res = await t.newSession().post('/api/webhook/payment-success').send({ campaignId: campaign.id }).expect(404);
    expect(res.body.code).toBe('campaigns.not_found');
    const invalid = await session.post('/api/webhook/payment-success').send({ campaignId: 'abc' }).expect(400);
    expect(invalid.body.fields).toEqual({ campaignId: 'Must be a positive whole number' });
  });
});
