import nock from 'nock';
import Stripe from 'stripe';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { launchJobCount } from '../../../test/jobs';
import { campaignDraftBody, wizardBrowser, type Session } from '../../../test/factories';

/*
 * The Stripe provider against Stripe's documented HTTP shapes (nock; nothing leaves the machine):
 * POST /v1/payment_intents (form-encoded, Idempotency-Key header) and GET /v1/payment_intents/:id
 * answer a PaymentIntent object ({ id, object: "payment_intent", amount, currency, status,
 * client_secret, metadata, last_payment_error, … }); webhooks are Event objects ({ id, object:
 * "event", type, data: { object } }) signed in the Stripe-Signature header ("t=<unix>,v1=<hmac>").
 */

const API = 'https://api.stripe.com';
const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef0123456789abcdef';
const signer = new Stripe('sk_test_signer_only');

let t: TestContext;
beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1|localhost/);
  t = await createTestContext({
    env: { STRIPE_SECRET_KEY: 'sk_test_51ListingAds', STRIPE_PUBLISHABLE_KEY: 'pk_test_51ListingAds', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
  });
});
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});
afterAll(() => t.close());


async function draftCampaign(session: Session = t.newSession(), price = '399') {
  const { agent, listing } = await wizardBrowser(session, { listing: { images: [] } });
  const draft = campaignDraftBody(agent.id, listing.id, { description: 'Sunny 3-bed home with a pool.', price });
  const { body: campaign } = await session.post('/api/campaigns').send(draft).expect(201);
  return { session, campaignId: campaign.id as number, draft };
}

let intentSeq = 0;
/** A PaymentIntent as Stripe's API returns it (trimmed to the fields that matter, same shape). */
function paymentIntent(campaignId: number, over: Record<string, unknown> = {}) {
  const id = (over.id as string) ?? `pi_3Q${String(++intentSeq).padStart(4, '0')}LkdIwHu7ix28a3tqPa`;
  return {
    id,
    object: 'payment_intent',
    amount: 39900,
    amount_capturable: 0,
    amount_received: 0,
    automatic_payment_methods: { enabled: true },
    canceled_at: null,
    capture_method: 'automatic_async',
    client_secret: `${id}_secret_YrKJUKribcBjcG8HVhfZluoGH`,
    confirmation_method: 'automatic',
    created: 1763900000,
    currency: 'usd',
    description: `Listing impressions campaign #${campaignId}`,
    last_payment_error: null,
    livemode: false,
    metadata: { campaignId: String(campaignId) },
    next_action: null,
    payment_method: null,
    payment_method_types: ['card', 'link'],
    status: 'requires_payment_method',
    ...over,
  };
}

/** Create the intent through our API, with Stripe's answer mocked. */
async function checkout(price = '399') {
  const d = await draftCampaign(undefined, price);
  const pi = paymentIntent(d.campaignId, { amount: Number(price) * 100 });
  nock(API).post('/v1/payment_intents').reply(200, pi);
  const res = await d.session.post('/api/create-payment-intent').send({ amount: Number(price), campaignId: d.campaignId }).expect(200);
  return { ...d, pi, clientSecret: res.body.clientSecret as string };
}

let eventSeq = 0;
function stripeEvent(type: string, object: Record<string, unknown>) {
  return {
    id: `evt_3Q${String(++eventSeq).padStart(4, '0')}LkdIwHu7ix0ABCDEF`,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** POST the event as Stripe does: the exact JSON text, signed over it. */
function deliver(event: object, opts: { secret?: string; timestamp?: number; tamper?: (payload: string) => string } = {}) {
  // Pretty-printed on purpose: the signature is over these bytes, not over a re-serialisation.
  const payload = JSON.stringify(event, null, 2);
  const header = signer.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? WEBHOOK_SECRET, timestamp: opts.timestamp });
  return t.request
    .post('/api/webhooks/stripe')
    .set('Content-Type', 'application/json; charset=utf-8')
    .set('Stripe-Signature', header)
    .send(opts.tamper ? opts.tamper(payload) : payload);
}

const campaignRow = (id: number) => t.db('campaigns').where({ id }).first();
const paymentRow = (campaignId: number) => t.db('payments').where({ campaignId }).first();
const paidMoves = async (campaignId: number) => (await t.db('campaignTransitions').where({ campaignId, toStatus: 'paid' })).length;

describe('POST /api/create-payment-intent with Stripe', () => {
  it('creates a PaymentIntent for the campaign’s budget under the payment’s Idempotency-Key', async () => {
    const { session, campaignId } = await draftCampaign(undefined, '449');
    const pi = paymentIntent(campaignId, { amount: 44900 });
    const sent: { body?: string; key?: string } = {};
    nock(API)
      .post('/v1/payment_intents', (body) => {
        sent.body = typeof body === 'string' ? body : new URLSearchParams(body as Record<string, string>).toString();
        return true;
      })
      .matchHeader('idempotency-key', (key: string | null) => {
        sent.key = key ?? undefined;
        return true;
      })
      .reply(200, pi);
    const res = await session.post('/api/create-payment-intent').send({ amount: 449, campaignId }).expect(200);
    expect(res.body).toEqual({ clientSecret: pi.client_secret, provider: 'stripe', amountCents: 44900, creditAppliedCents: 0, publishableKey: 'pk_test_51ListingAds' });

    const form = new URLSearchParams(sent.body);
    expect(form.get('amount')).toBe('44900');
    expect(form.get('currency')).toBe('usd');
    expect(form.get('automatic_payment_methods[enabled]')).toBe('true');
    expect(form.get('metadata[campaignId]')).toBe(String(campaignId));
    const payment = await paymentRow(campaignId);
    expect(sent.key).toBe(payment.idempotencyKey);
    expect(payment.idempotencyKey).toMatch(new RegExp(`^campaign-${campaignId}-payment-`));
    expect(payment).toMatchObject({ provider: 'stripe', providerPaymentId: pi.id, amountCents: 44900, status: 'requires_payment_method' });
    expect((await campaignRow(campaignId)).status).toBe('pending_payment');
  });

  it('answers a repeat call with the same intent’s client secret, read back from Stripe (no second intent)', async () => {
    const { session, campaignId, pi, clientSecret } = await checkout();
    nock(API).get(`/v1/payment_intents/${pi.id}`).reply(200, pi);
    const again = await session.post('/api/create-payment-intent').send({ amount: 399, campaignId }).expect(200);
    expect(again.body.clientSecret).toBe(clientSecret);
  });

  it('back from checkout with a new budget: the same PaymentIntent gets the new amount (POST /v1/payment_intents/:id)', async () => {
    const { session, campaignId, draft, pi, clientSecret } = await checkout('299');
    await session.patch(`/api/campaigns/${campaignId}`).send({ ...draft, price: '399' }).expect(200);
    let sent = '';
    nock(API).get(`/v1/payment_intents/${pi.id}`).reply(200, pi);
    nock(API)
      .post(`/v1/payment_intents/${pi.id}`, (body) => {
        sent = typeof body === 'string' ? body : new URLSearchParams(body as Record<string, string>).toString();
        return true;
      })
      .reply(200, { ...pi, amount: 39900 });
    const again = await session.post('/api/create-payment-intent').send({ amount: 399, campaignId }).expect(200);
    expect(sent).toBe('amount=39900');
    expect(again.body).toMatchObject({ clientSecret, amountCents: 39900, provider: 'stripe' });
    expect(await paymentRow(campaignId)).toMatchObject({ providerPaymentId: pi.id, amountCents: 39900 });
  });

  it('is a 502 when Stripe refuses, and no intent id is recorded', async () => {
    const { session, campaignId } = await draftCampaign();
    nock(API)
      .post('/v1/payment_intents')
      .reply(401, { error: { message: 'Invalid API Key provided: sk_test_****', type: 'invalid_request_error' } });
    const res = await session.post('/api/create-payment-intent').send({ amount: 399, campaignId }).expect(502);
    expect(res.body.code).toBe('payments.provider_unavailable');
    expect(res.body.message).not.toContain('sk_test');
    expect((await paymentRow(campaignId)).providerPaymentId).toBeNull();
  });

  it('moves a checkout begun with local test payments (before Stripe was configured) over to Stripe', async () => {
    const { session, campaignId } = await draftCampaign();
    await t.db('payments').insert({ campaignId, provider: 'local', idempotencyKey: `campaign-${campaignId}-payment-0a1b2c3d4e5f`, amountCents: 39900 });
    const pi = paymentIntent(campaignId);
    nock(API).post('/v1/payment_intents').matchHeader('idempotency-key', `campaign-${campaignId}-payment-0a1b2c3d4e5f`).reply(200, pi);
    const res = await session.post('/api/create-payment-intent').send({ amount: 399, campaignId }).expect(200);
    expect(res.body).toMatchObject({ provider: 'stripe', clientSecret: pi.client_secret });
    expect(await paymentRow(campaignId)).toMatchObject({ provider: 'stripe', providerPaymentId: pi.id });
  });

  it('has no local card form while Stripe runs', async () => {
    const res = await t.request.post('/api/payments/local/confirm').send({ clientSecret: 'x', cardNumber: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' }).expect(404);
    expect(res.body.code).toBe('payments.local_disabled');
  });
});

describe('POST /api/webhooks/stripe', () => {
  it('payment_intent.succeeded with a valid signature: the payment succeeds and the campaign is paid with its launch job', async () => {
    const { campaignId, pi } = await checkout();
    const res = await deliver(stripeEvent('payment_intent.succeeded', { ...pi, status: 'succeeded', amount_received: 39900 })).expect(200);
    expect(res.body).toEqual({ received: true, outcome: 'processed' });
    expect(await paymentRow(campaignId)).toMatchObject({ status: 'succeeded', succeededAt: expect.any(Date) });
    expect((await campaignRow(campaignId)).status).toBe('paid');
    expect(await paidMoves(campaignId)).toBe(1);
    expect(await launchJobCount(t.db, campaignId)).toBe(1);
  });

  it('the same event 5 times (together) has one effect', async () => {
    const { campaignId, pi } = await checkout();
    const event = stripeEvent('payment_intent.succeeded', { ...pi, status: 'succeeded' });
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(event)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((a) => a.body.outcome).sort()).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'processed']);
    expect(await paidMoves(campaignId)).toBe(1);
    expect(await launchJobCount(t.db, campaignId)).toBe(1);
    expect(await t.db('paymentEvents').where({ id: event.id }).count({ n: '*' }).first()).toEqual({ n: '1' });
  });

  it('refuses a forged signature (400) and changes nothing', async () => {
    const { campaignId, pi } = await checkout();
    const event = stripeEvent('payment_intent.succeeded', { ...pi, status: 'succeeded' });
    const wrongSecret = await deliver(event, { secret: 'whsec_attacker' }).expect(400);
    expect(wrongSecret.body).toEqual({ message: 'The webhook signature could not be verified.', code: 'payments.webhook_signature_invalid' });
    // Signed, then changed on the way.
    await deliver(event, { tamper: (p) => p.replace('"amount": 39900', '"amount": 100') }).expect(400);
    await t.request.post('/api/webhooks/stripe').set('Content-Type', 'application/json').send(JSON.stringify(event)).expect(400);

    expect((await campaignRow(campaignId)).status).toBe('pending_payment');
    expect((await paymentRow(campaignId)).status).toBe('requires_payment_method');
    expect(await t.db('paymentEvents').where({ id: event.id }).first()).toBeUndefined();
    expect(await launchJobCount(t.db, campaignId)).toBe(0);
  });

  it('refuses a stale timestamp (older than the 5-minute tolerance)', async () => {
    const { campaignId, pi } = await checkout();
    const event = stripeEvent('payment_intent.succeeded', { ...pi, status: 'succeeded' });
    const res = await deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 }).expect(400);
    expect(res.body.code).toBe('payments.webhook_signature_invalid');
    expect((await campaignRow(campaignId)).status).toBe('pending_payment');
    // Just inside the tolerance it is accepted.
    await deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 4 * 60 }).expect(200);
    expect((await campaignRow(campaignId)).status).toBe('paid');
  });

  it('payment_intent.payment_failed: the payment failed with Stripe’s message, the campaign waits', async () => {
    const { campaignId, pi } = await checkout();
    const failed = {
      ...pi,
      status: 'requires_payment_method',
      last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    };
    await deliver(stripeEvent('payment_intent.payment_failed', failed)).expect(200);
    expect(await paymentRow(campaignId)).toMatchObject({ status: 'failed', failureMessage: 'Your card has insufficient funds.', succeededAt: null });
    expect((await campaignRow(campaignId)).status).toBe('pending_payment');

    // A late failure never undoes a success.
    await deliver(stripeEvent('payment_intent.succeeded', { ...pi, status: 'succeeded' })).expect(200);
    await deliver(stripeEvent('payment_intent.payment_failed', failed)).expect(200);
    expect(await paymentRow(campaignId)).toMatchObject({ status: 'succeeded', failureMessage: null });
  });

  it('ignores a succeeded intent for another amount, and intents we did not create', async () => {
    const { campaignId, pi } = await checkout();
    const cheap = await deliver(stripeEvent('payment_intent.succeeded', { ...pi, status: 'succeeded', amount: 100 })).expect(200);
    expect(cheap.body.outcome).toBe('ignored');
    expect((await campaignRow(campaignId)).status).toBe('pending_payment');

    const foreign = paymentIntent(99999999, { id: 'pi_3QforeignLkdIwHu7ix28a3tq', status: 'succeeded' });
    expect((await deliver(stripeEvent('payment_intent.succeeded', foreign)).expect(200)).body.outcome).toBe('ignored');
    expect((await deliver(stripeEvent('charge.succeeded', { id: 'ch_1', object: 'charge' })).expect(200)).body.outcome).toBe('ignored');
  });
});

describe('POST /api/webhook/payment-success with Stripe', () => {
  it('asks Stripe: 402 while the intent is unpaid, paid once it succeeded', async () => {
    const { session, campaignId, pi } = await checkout();
    nock(API).get(`/v1/payment_intents/${pi.id}`).reply(200, pi);
    const early = await session.post('/api/webhook/payment-success').send({ campaignId }).expect(402);
    expect(early.body.code).toBe('payments.not_paid');
    expect((await campaignRow(campaignId)).status).toBe('pending_payment');

    nock(API).get(`/v1/payment_intents/${pi.id}`).reply(200, { ...pi, status: 'succeeded', amount_received: 39900 });
    const res = await session.post('/api/webhook/payment-success').send({ campaignId }).expect(200);
    expect(res.body).toEqual({ campaignId, status: 'paid' });
    expect(await launchJobCount(t.db, campaignId)).toBe(1);

    // Settled: later calls (and the webhook) do not ask Stripe again or launch twice.
    await session.post('/api/webhook/payment-success').send({ campaignId }).expect(200);
    await deliver(stripeEvent('payment_intent.succeeded', { ...pi, status: 'succeeded' })).expect(200);
    expect(await paidMoves(campaignId)).toBe(1);
    expect(await launchJobCount(t.db, campaignId)).toBe(1);
  });

  it('20 concurrent calls and the webhook together: one transition to paid, one launch job', async () => {
    const { session, campaignId, pi } = await checkout();
    const succeeded = { ...pi, status: 'succeeded', amount_received: 39900 };
    nock(API).get(`/v1/payment_intents/${pi.id}`).times(20).reply(200, succeeded);
    const calls = Array.from({ length: 20 }, () => session.post('/api/webhook/payment-success').send({ campaignId }));
    const [answers, hook] = await Promise.all([Promise.all(calls), deliver(stripeEvent('payment_intent.succeeded', succeeded))]);
    expect(hook.status).toBe(200);
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(await paidMoves(campaignId)).toBe(1);
    expect(await launchJobCount(t.db, campaignId)).toBe(1);
    // Calls that found the payment settled did not ask Stripe.
    nock.cleanAll();
  });
});
