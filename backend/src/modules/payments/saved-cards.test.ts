import { createLogger } from '../../platform/logger';
import { createTestContext, TEST_ADMIN_PASSWORD, type TestContext } from '../../../test/helpers';
import { launchJobCount } from '../../../test/jobs';
import { loggedInAgent, postDraftCampaign, signedInBrowser, type Session } from '../../../test/factories';
import { createPaymentProviders } from './providers';
import { chargeSavedCard } from './saved-cards.service';
import type { PaymentsContext } from './payments.service';

/*
 * Saved cards with the local test payments: the SetupIntent flow of the card form, and charging the card with
 * the agent away, with Stripe's test cards: 4242… succeeds; 4000 0027 6000 3184 needs the agent to authenticate;
 * 4000 0000 0000 0341 saves but is declined at charge.
 */

let t: TestContext;
let payments: PaymentsContext;
beforeAll(async () => {
  t = await createTestContext();
  const logger = createLogger('silent');
  payments = { db: t.db, queue: t.queue, logger, providers: createPaymentProviders(t.config, t.db, logger) };
});
afterAll(() => t.close());

const CARD = { expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: '123' };

async function saveCard(session: Session, agentId: number, cardNumber: string, opts: { approve?: boolean } = {}) {
  const { body: setup } = await session.post(`/api/agents/${agentId}/saved-card/setup`).expect(200);
  expect(setup).toMatchObject({ provider: 'local', publishableKey: null, setupIntentId: expect.stringMatching(/^seti_local_/) });
  const { body: answer } = await session.post('/api/payments/local/confirm').send({ clientSecret: setup.clientSecret, cardNumber, ...CARD }).expect(200);
  if (answer.status === 'requires_action' && opts.approve !== undefined) {
    return (await session.post('/api/payments/local/authenticate').send({ clientSecret: setup.clientSecret, approve: opts.approve }).expect(200)).body;
  }
  return answer;
}


describe('saving a card', () => {
  it('a test card saves through a SetupIntent: brand, last 4 and expiry are kept, never the number', async () => {
    const { session, agent } = await signedInBrowser(t, t.newSession());
    expect((await session.get(`/api/agents/${agent.id}/saved-card`).expect(200)).body).toEqual({ card: null, provider: 'local' });
    expect(await saveCard(session, agent.id, '4242 4242 4242 4242')).toEqual({ status: 'succeeded', message: 'Your card was saved.' });
    const { body } = await session.get(`/api/agents/${agent.id}/saved-card`).expect(200);
    expect(body).toEqual({ card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: CARD.expYear }, provider: 'local' });
    const stored = JSON.stringify(await t.db('paymentCards').where({ agentId: agent.id })) + JSON.stringify(await t.db('localPaymentMethods'));
    expect(stored).not.toContain('4242424242424242');

    // A second card replaces the first, which is detached.
    expect(await saveCard(session, agent.id, '5555555555554444')).toMatchObject({ status: 'succeeded' });
    expect((await session.get(`/api/agents/${agent.id}/saved-card`).expect(200)).body.card).toMatchObject({ brand: 'mastercard', last4: '4444' });
    expect(await t.db('localPaymentMethods').whereNotNull('detachedAt').where({ last4: '4242' })).toHaveLength(1);
  });

  it('4000 0027 6000 3184 asks for 3-D Secure when saved; a refusal saves nothing', async () => {
    const { session, agent } = await signedInBrowser(t, t.newSession());
    expect(await saveCard(session, agent.id, '4000002760003184', { approve: false })).toMatchObject({ status: 'failed' });
    expect((await session.get(`/api/agents/${agent.id}/saved-card`).expect(200)).body.card).toBeNull();
    expect(await saveCard(session, agent.id, '4000002760003184', { approve: true })).toEqual({ status: 'succeeded', message: 'Your card was saved.' });
    expect((await session.get(`/api/agents/${agent.id}/saved-card`).expect(200)).body.card).toMatchObject({ last4: '3184' });
  });

  it('a declined card is not saved; bad card fields are 400s with Stripe\'s messages', async () => {
    const { session, agent } = await signedInBrowser(t, t.newSession());
    expect(await saveCard(session, agent.id, '4000000000000002')).toEqual({ status: 'failed', message: 'Your card was declined.' });
    const { body: setup } = await session.post(`/api/agents/${agent.id}/saved-card/setup`).expect(200);
    const bad = await session.post('/api/payments/local/confirm').send({ clientSecret: setup.clientSecret, cardNumber: '4242', ...CARD }).expect(400);
    expect(bad.body.fields).toEqual({ cardNumber: 'Your card number is incomplete.' });
    expect((await session.get(`/api/agents/${agent.id}/saved-card`).expect(200)).body.card).toBeNull();
  });

  it('only the agent\'s own session: another browser gets a 404; confirm asks the provider', async () => {
    const { session, agent } = await signedInBrowser(t, t.newSession());
    const stranger = t.newSession();
    await stranger.get(`/api/agents/${agent.id}/saved-card`).expect(404);
    await stranger.post(`/api/agents/${agent.id}/saved-card/setup`).expect(404);
    await stranger.delete(`/api/agents/${agent.id}/saved-card`).expect(404);
    await session.post(`/api/agents/${agent.id}/saved-card/confirm`).send({ setupIntentId: 'seti_local_nope' }).expect(404);
    const { body: setup } = await session.post(`/api/agents/${agent.id}/saved-card/setup`).expect(200);
    // Not confirmed by the card form yet: the provider says so.
    const early = await session.post(`/api/agents/${agent.id}/saved-card/confirm`).send({ setupIntentId: setup.setupIntentId }).expect(409);
    expect(early.body.code).toBe('payments.card_not_saved');
    await session.post('/api/payments/local/confirm').send({ clientSecret: setup.clientSecret, cardNumber: '4242424242424242', ...CARD }).expect(200);
    const confirmed = await session.post(`/api/agents/${agent.id}/saved-card/confirm`).send({ setupIntentId: setup.setupIntentId }).expect(200);
    expect(confirmed.body.card).toMatchObject({ last4: '4242' });
    // Another agent's SetupIntent is unknown here.
    const other = await signedInBrowser(t, t.newSession(), { name: 'Other Agent' });
    await other.session.post(`/api/agents/${other.agent.id}/saved-card/setup`).expect(200);
    await other.session.post(`/api/agents/${other.agent.id}/saved-card/confirm`).send({ setupIntentId: setup.setupIntentId }).expect(404);
    expect((await session.delete(`/api/agents/${agent.id}/saved-card`).expect(200)).body).toEqual({ card: null, provider: 'local' });
    expect((await session.get(`/api/agents/${agent.id}/saved-card`).expect(200)).body.card).toBeNull();
  });

  it('an admin viewing as the agent sees the card but cannot save, confirm or remove one', async () => {
    const { agent } = await loggedInAgent(t, t.newSession(), { name: 'Carla Card', email: 'carla@example.com', password: 'carla-secret-1' });
    const admin = t.newSession();
    await admin.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD }).expect(200);
    await admin.get(`/api/admin/login-as/${agent.id}`).expect(302);
    await admin.get(`/api/agents/${agent.id}/saved-card`).expect(200);
    for (const res of [
      await admin.post(`/api/agents/${agent.id}/saved-card/setup`),
      await admin.post(`/api/agents/${agent.id}/saved-card/confirm`).send({ setupIntentId: 'seti_local_x' }),
      await admin.delete(`/api/agents/${agent.id}/saved-card`),
    ]) {
      expect(res.status).toBe(403);
    }
    expect(await t.db('paymentCards').where({ agentId: agent.id })).toHaveLength(0);
  });
});

describe('charging the saved card with the agent away', () => {
  it('4242: paid, and the campaign goes to the existing exactly-once launch; charging again changes nothing', async () => {
    const { session, agent, listing } = await signedInBrowser(t, t.newSession());
    await saveCard(session, agent.id, '4242424242424242');
    const campaignId = await postDraftCampaign(session, agent.id, listing.id);
    expect(await chargeSavedCard(payments, { campaignId, reason: 'autopilot' })).toEqual({ outcome: 'succeeded', message: null, campaignStatus: 'paid' });
    expect(await chargeSavedCard(payments, { campaignId, reason: 'autopilot' })).toMatchObject({ outcome: 'already_paid' });
    expect(await launchJobCount(t.db, campaignId)).toBe(1);
    const payment = await t.db('payments').where({ campaignId }).first();
    expect(payment).toMatchObject({ status: 'succeeded', amountCents: 29_900, provider: 'local' });
    expect(await t.db('localPaymentIntents').where({ id: payment.providerPaymentId }).first()).toMatchObject({ status: 'succeeded', cardLast4: '4242' });
  });

  it('two charges racing for one campaign make one payment and one launch', async () => {
    const { session, agent, listing } = await signedInBrowser(t, t.newSession());
    await saveCard(session, agent.id, '4242424242424242');
    const campaignId = await postDraftCampaign(session, agent.id, listing.id);
    const results = await Promise.all([chargeSavedCard(payments, { campaignId, reason: 'a' }), chargeSavedCard(payments, { campaignId, reason: 'b' })]);
    expect(results.map((r) => r.outcome).sort()).toEqual(expect.arrayContaining(['succeeded']));
    expect(results.every((r) => r.outcome === 'succeeded' || r.outcome === 'already_paid')).toBe(true);
    expect(await t.db('localPaymentIntents').whereRaw(`metadata->>'campaignId' = ?`, [String(campaignId)])).toHaveLength(1);
    expect(await t.db('campaignTransitions').where({ campaignId, toStatus: 'paid' })).toHaveLength(1);
    expect(await launchJobCount(t.db, campaignId)).toBe(1);
  });

  it('4000 0000 0000 0341 saved fine, but the charge is declined: nothing is paid, the payment says why', async () => {
    const { session, agent, listing } = await signedInBrowser(t, t.newSession());
    expect(await saveCard(session, agent.id, '4000000000000341')).toMatchObject({ status: 'succeeded' });
    const campaignId = await postDraftCampaign(session, agent.id, listing.id);
    expect(await chargeSavedCard(payments, { campaignId, reason: 'autopilot' })).toEqual({ outcome: 'failed', message: 'Your card was declined.', campaignStatus: 'pending_payment' });
    expect(await t.db('payments').where({ campaignId }).first()).toMatchObject({ status: 'failed', failureMessage: 'Your card was declined.' });
    expect(await launchJobCount(t.db, campaignId)).toBe(0);
  });

  it('4000 0027 6000 3184 needs authentication: nothing is paid until the agent confirms on the checkout page', async () => {
    const { session, agent, listing } = await signedInBrowser(t, t.newSession());
    await saveCard(session, agent.id, '4000002760003184', { approve: true });
    const campaignId = await postDraftCampaign(session, agent.id, listing.id);
    const charge = await chargeSavedCard(payments, { campaignId, reason: 'autopilot' });
    expect(charge).toMatchObject({ outcome: 'authentication_required', campaignStatus: 'pending_payment' });
    expect(await launchJobCount(t.db, campaignId)).toBe(0);
    // The agent opens the checkout page: the same intent, waiting for the 3-D Secure step.
    const { body: checkout } = await session.post('/api/create-payment-intent').send({ campaignId, amount: 299 }).expect(200);
    const payment = await t.db('payments').where({ campaignId }).first();
    expect(checkout.clientSecret).toBe((await t.db('localPaymentIntents').where({ id: payment.providerPaymentId }).first()).clientSecret);
    expect((await session.post('/api/payments/local/authenticate').send({ clientSecret: checkout.clientSecret, approve: true }).expect(200)).body.status).toBe('succeeded');
    expect((await t.db('campaigns').where({ id: campaignId }).first()).status).toBe('paid');
    expect(await launchJobCount(t.db, campaignId)).toBe(1);
  });

  it('no card, or a canceled campaign: nothing is charged', async () => {
    const { session, agent, listing } = await signedInBrowser(t, t.newSession());
    const campaignId = await postDraftCampaign(session, agent.id, listing.id);
    expect(await chargeSavedCard(payments, { campaignId, reason: 'autopilot' })).toEqual({ outcome: 'no_card', message: null, campaignStatus: 'draft' });
    await saveCard(session, agent.id, '4242424242424242');
    await t.db('campaigns').where({ id: campaignId }).update({ status: 'canceled' });
    expect(await chargeSavedCard(payments, { campaignId, reason: 'autopilot' })).toMatchObject({ outcome: 'canceled' });
    expect(await t.db('payments').where({ campaignId })).toHaveLength(0);
  });
});
