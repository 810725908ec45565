import nock from 'nock';
import { createLogger } from '../../platform/logger';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { launchJobCount } from '../../../test/jobs';
import { postDraftCampaign, signedInBrowser, type Session } from '../../../test/factories';
import { createPaymentProviders } from './providers';
import { chargeSavedCard } from './saved-cards.service';
import type { PaymentsContext } from './payments.service';

/*
 * Saved cards against Stripe's documented HTTP shapes (nock; nothing leaves the machine):
 * POST /v1/customers → a Customer; POST /v1/setup_intents (customer, usage=off_session) → a SetupIntent with its
 * client_secret; GET /v1/setup_intents/:id?expand[]=payment_method → succeeded, with the card's brand, last4 and
 * expiry; POST /v1/payment_intents (customer, payment_method, off_session=true, confirm=true, Idempotency-Key) →
 * a succeeded PaymentIntent, or a 402 card_error whose `payment_intent` is the one left behind
 * (`authentication_required`, or a decline) — https://docs.stripe.com/payments/save-and-reuse.
 */

const API = 'https://api.stripe.com';
let t: TestContext;
let payments: PaymentsContext;
beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1|localhost/);
  t = await createTestContext({ env: { STRIPE_SECRET_KEY: 'sk_test_51ListingAds', STRIPE_PUBLISHABLE_KEY: 'pk_test_51ListingAds', STRIPE_WEBHOOK_SECRET: 'whsec_test_0123456789abcdef' } });
  const logger = createLogger('silent');
  payments = { db: t.db, queue: t.queue, logger, providers: createPaymentProviders(t.config, t.db, logger) };
});
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});
afterAll(() => t.close());

const form = (body: unknown) => new URLSearchParams(typeof body === 'string' ? body : (body as Record<string, string>));
let seq = 0;
const id = (prefix: string) => `${prefix}_1Q${String(++seq).padStart(4, '0')}LkdIwHu7ix28`;

function card(pm: string, last4 = '4242') {
  return { id: pm, object: 'payment_method', type: 'card', customer: null, card: { brand: 'visa', last4, exp_month: 12, exp_year: 2030, funding: 'credit', country: 'US' } };
}

function setupIntent(si: string, customer: string, over: Record<string, unknown> = {}) {
  return {
    id: si,
    object: 'setup_intent',
    client_secret: `${si}_secret_QbDlkR1wVw1vZbY`,
    customer,
    status: 'requires_payment_method',
    usage: 'off_session',
    payment_method: null,
    last_setup_error: null,
    metadata: {},
    livemode: false,
    ...over,
  };
}

function paymentIntent(pi: string, campaignId: number, over: Record<string, unknown> = {}) {
  return {
    id: pi,
    object: 'payment_intent',
    amount: 29900,
    currency: 'usd',
    client_secret: `${pi}_secret_YrKJUKribcBjcG8HVhfZlu`,
    metadata: { campaignId: String(campaignId) },
    status: 'succeeded',
    last_payment_error: null,
    livemode: false,
    ...over,
  };
}

/** The agent saves a card: customer, SetupIntent, then (after Stripe.js confirmed it in the browser) our confirm call. */
async function savedStripeCard(session: Session, agentId: number, last4 = '4242') {
  const customer = id('cus');
  const si = id('seti');
  const pm = id('pm');
  nock(API)
    .post('/v1/customers', (body) => {
      const f = form(body);
      return f.get('metadata[agentId]') === String(agentId) && f.get('name') === 'Dana Whitfield';
    })
    .reply(200, { id: customer, object: 'customer', metadata: { agentId: String(agentId) } })
    .post('/v1/setup_intents', (body) => {
      const f = form(body);
      return f.get('customer') === customer && f.get('usage') === 'off_session' && f.get('metadata[agentId]') === String(agentId);
    })
    .reply(200, setupIntent(si, customer, { metadata: { agentId: String(agentId) } }));
  const { body: setup } = await session.post(`/api/agents/${agentId}/saved-card/setup`).expect(200);
  expect(setup).toEqual({ setupIntentId: si, clientSecret: `${si}_secret_QbDlkR1wVw1vZbY`, provider: 'stripe', publishableKey: 'pk_test_51ListingAds' });

  nock(API)
    .get(`/v1/setup_intents/${si}`)
    .query({ 'expand[0]': 'payment_method' })
    .reply(200, setupIntent(si, customer, { status: 'succeeded', payment_method: card(pm, last4), metadata: { agentId: String(agentId) } }));
  const { body: saved } = await session.post(`/api/agents/${agentId}/saved-card/confirm`).send({ setupIntentId: si }).expect(200);
  expect(saved).toEqual({ card: { brand: 'visa', last4, expMonth: 12, expYear: 2030 }, provider: 'stripe' });
  return { customer, pm };
}


describe('Stripe saved cards', () => {
  it('saves a card through a SetupIntent, then charges it off-session under the payment\'s one Idempotency-Key', async () => {
    const { session, agent, listing } = await signedInBrowser(t, t.newSession());
    const { customer, pm } = await savedStripeCard(session, agent.id);
    const campaignId = await postDraftCampaign(session, agent.id, listing.id);
    const pi = id('pi');
    const sent: { body?: URLSearchParams; key?: string } = {};
    nock(API)
      .post('/v1/payment_intents', (body) => {
        sent.body = form(body);
        return true;
      })
      .matchHeader('idempotency-key', (key: string | null) => {
        sent.key = key ?? undefined;
        return true;
      })
      .reply(200, paymentIntent(pi, campaignId));
    expect(await chargeSavedCard(payments, { campaignId, reason: 'autopilot' })).toEqual({ outcome: 'succeeded', message: null, campaignStatus: 'paid' });
    expect(Object.fromEntries(sent.body!)).toMatchObject({
      amount: '29900',
      currency: 'usd',
      customer,
      payment_method: pm,
      off_session: 'true',
      confirm: 'true',
      'metadata[campaignId]': String(campaignId),
    });
    const payment = await t.db('payments').where({ campaignId }).first();
    expect(sent.key).toBe(payment.idempotencyKey);
    expect(payment).toMatchObject({ provider: 'stripe', providerPaymentId: pi, status: 'succeeded' });
    expect(await launchJobCount(t.db, campaignId)).toBe(1);
  });

  it('authentication_required: nothing is paid; the intent it left waits for the agent', async () => {
    const { session, agent, listing } = await signedInBrowser(t, t.newSession());
    await savedStripeCard(session, agent.id, '3184');
    const campaignId = await postDraftCampaign(session, agent.id, listing.id);
    const pi = id('pi');
    nock(API)
      .post('/v1/payment_intents')
      .reply(402, {
        error: {
          type: 'card_error',
          code: 'authentication_required',
          decline_code: 'authentication_required',
          message: 'Your card was declined. This transaction requires authentication.',
          doc_url: 'https://docs.stripe.com/error-codes/authentication-required',
          payment_intent: paymentIntent(pi, campaignId, { status: 'requires_payment_method', last_payment_error: { code: 'authentication_required', message: 'Your card was declined. This transaction requires authentication.' } }),
        },
      });
    const charge = await chargeSavedCard(payments, { campaignId, reason: 'autopilot' });
    expect(charge).toEqual({ outcome: 'authentication_required', message: 'Your card was declined. This transaction requires authentication.', campaignStatus: 'pending_payment' });
    expect(await t.db('payments').where({ campaignId }).first()).toMatchObject({ providerPaymentId: pi, status: 'requires_action' });
    expect(await launchJobCount(t.db, campaignId)).toBe(0);

    // The next attempt confirms the same intent (no second PaymentIntent): update it with the card, confirm off-session.
    nock(API)
      .get(`/v1/payment_intents/${pi}`)
      .reply(200, paymentIntent(pi, campaignId, { status: 'requires_payment_method' }))
      .post(`/v1/payment_intents/${pi}`)
      .reply(200, paymentIntent(pi, campaignId, { status: 'requires_payment_method' }))
      .post(`/v1/payment_intents/${pi}/confirm`, (body) => form(body).get('off_session') === 'true')
      .reply(200, paymentIntent(pi, campaignId, { status: 'succeeded' }));
    expect(await chargeSavedCard(payments, { campaignId, reason: 'autopilot retry' })).toMatchObject({ outcome: 'succeeded', campaignStatus: 'paid' });
    expect(await launchJobCount(t.db, campaignId)).toBe(1);
  });

  it('a decline at charge (4000 0000 0000 0341): nothing is paid, the payment keeps Stripe\'s message', async () => {
    const { session, agent, listing } = await signedInBrowser(t, t.newSession());
    await savedStripeCard(session, agent.id, '0341');
    const campaignId = await postDraftCampaign(session, agent.id, listing.id);
    nock(API)
      .post('/v1/payment_intents')
      .reply(402, {
        error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'generic_decline',
          message: 'Your card was declined.',
          payment_intent: paymentIntent(id('pi'), campaignId, { status: 'requires_payment_method' }),
        },
      });
    expect(await chargeSavedCard(payments, { campaignId, reason: 'autopilot' })).toEqual({ outcome: 'failed', message: 'Your card was declined.', campaignStatus: 'pending_payment' });
    expect(await t.db('payments').where({ campaignId }).first()).toMatchObject({ status: 'failed', failureMessage: 'Your card was declined.' });
  });

  it('a Stripe outage is an error for the caller to retry, not a failed payment', async () => {
    const { session, agent, listing } = await signedInBrowser(t, t.newSession());
    await savedStripeCard(session, agent.id);
    const campaignId = await postDraftCampaign(session, agent.id, listing.id);
    // The SDK retries network failures twice with the same Idempotency-Key.
    nock(API).post('/v1/payment_intents').times(3).reply(500, { error: { type: 'api_error', message: 'Something went wrong' } });
    await expect(chargeSavedCard(payments, { campaignId, reason: 'autopilot' })).rejects.toThrow(/payment provider could not be reached/);
    expect((await t.db('payments').where({ campaignId }).first()).status).toBe('requires_payment_method');
  });

  it('removing the card detaches it at Stripe', async () => {
    const { session, agent } = await signedInBrowser(t, t.newSession());
    const { pm } = await savedStripeCard(session, agent.id);
    nock(API).post(`/v1/payment_methods/${pm}/detach`).reply(200, { ...card(pm), customer: null });
    expect((await session.delete(`/api/agents/${agent.id}/saved-card`).expect(200)).body).toEqual({ card: null, provider: 'stripe' });
  });
});
