import Router from '@koa/router';
import type { Context } from 'koa';
import {
  agentCreditsSchema,
  cardSetupConfirmSchema,
  cardSetupSchema,
  createPaymentIntentResponseSchema,
  createPaymentIntentSchema,
  creditPreferenceSchema,
  idParam,
  localPaymentAnswerSchema,
  paymentSuccessResponseSchema,
  paymentSuccessSchema,
  savedCardViewSchema,
  stripeWebhookAnswerSchema,
} from '@app/contracts';
import { z } from 'zod';
import { assertAgentAccess } from '../agents';
import { agentCredits, setCreditPreference } from './credits/credits.service';
import { defineRoutes, route } from '../../platform/http/route';
import { rateLimit } from '../../platform/http/rate-limit';
import { actorOf, isImpersonating } from '../../platform/auth/actor';
import { impersonationRefused } from '../../platform/errors';
import { confirmCardSetup, removeSavedCard, savedCardView, startCardSetup } from './saved-cards.service';
import type { AppDeps } from '../../platform/deps';
import { confirmPaymentSuccess, processPaymentEvent, startCheckout, type PaymentsContext } from './payments.service';
import { authenticateLocalPayment, confirmLocalPayment } from './local-payments.service';
import { localAuthenticateSchema, localConfirmSchema } from './payments.schemas';
import { createPaymentProviders, WebhookSignatureError, type PaymentEvent, type PaymentProviders } from './providers';
import { localPaymentsDisabled, stripeNotConfigured, webhookInvalid, webhookSignatureInvalid } from './payments.errors';

const id = z.object({ id: idParam });

export const paymentsRoutes = defineRoutes({
  createIntent: {
    method: 'post', path: '/api/create-payment-intent', auth: 'agent', tag: 'payments', summary: "Start (or resume) the campaign's checkout",
    body: createPaymentIntentSchema, ok: { 200: createPaymentIntentResponseSchema }, errors: [403, 404, 409, 502],
  },
  paymentSuccess: {
    method: 'post', path: '/api/webhook/payment-success', auth: 'agent', tag: 'payments', summary: 'The success screen: settle a payment the provider confirms, then launch',
    body: paymentSuccessSchema, ok: { 200: paymentSuccessResponseSchema }, errors: [402, 403, 404, 502],
  },
  credits: {
    method: 'get', path: '/api/agents/:id/credits', auth: 'agent', tag: 'payments', summary: "The agent's credits for under-delivery: refunds and account-credit ledger entries, newest first, with the balance",
    params: id, ok: { 200: agentCreditsSchema }, errors: [403, 404],
  },
  creditPreference: {
    method: 'put', path: '/api/agents/:id/credits/preference', auth: 'agent', tag: 'payments', summary: 'Refund to the card (default) or account credit, for shortfalls settled from now on',
    params: id, body: creditPreferenceSchema, ok: { 200: agentCreditsSchema }, errors: [403, 404],
  },
  localConfirm: {
    method: 'post', path: '/api/payments/local/confirm', auth: 'public', tag: 'payments', summary: 'Local test payments: pay with a Stripe test card (or save it, with a SetupIntent\'s client secret)',
    body: localConfirmSchema, ok: { 200: localPaymentAnswerSchema }, errors: [404, 409, 429],
  },
  localAuthenticate: {
    method: 'post', path: '/api/payments/local/authenticate', auth: 'public', tag: 'payments', summary: 'Local test payments: answer the 3D Secure step',
    body: localAuthenticateSchema, ok: { 200: localPaymentAnswerSchema }, errors: [404, 409, 429],
  },
  savedCard: {
    method: 'get', path: '/api/agents/:id/saved-card', auth: 'agent', tag: 'payments', summary: "The agent's saved card (brand, last 4, expiry), charged by autopilot",
    params: id, ok: { 200: savedCardViewSchema }, errors: [403, 404],
  },
  cardSetup: {
    method: 'post', path: '/api/agents/:id/saved-card/setup', auth: 'agent', tag: 'payments', summary: 'Save a card: a SetupIntent (usage off_session) on the agent\'s customer, for the card form',
    description: "Refused to an admin's Login As. The card saved before stays until the new one is set up.", params: id, ok: { 200: cardSetupSchema }, errors: [403, 404, 429, 502],
  },
  cardConfirm: {
    method: 'post', path: '/api/agents/:id/saved-card/confirm', auth: 'agent', tag: 'payments', summary: 'After the card form confirmed the SetupIntent: the provider says whether the card is saved',
    params: id, body: cardSetupConfirmSchema, ok: { 200: savedCardViewSchema }, errors: [403, 404, 409, 502],
  },
  removeCard: {
    method: 'delete', path: '/api/agents/:id/saved-card', auth: 'agent', tag: 'payments', summary: 'Forget the saved card (detached at the provider)',
    params: id, ok: { 200: savedCardViewSchema }, errors: [403, 404, 502],
  },
  stripeWebhook: {
    method: 'post', path: '/api/webhooks/stripe', auth: 'public', tag: 'payments', summary: "Stripe's signed webhook (PaymentIntent events)",
    headers: z.object({ 'stripe-signature': z.string() }), body: { contentType: 'application/json', schema: z.record(z.string(), z.unknown()), description: 'A Stripe event, verified against Stripe-Signature' },
    ok: { 200: stripeWebhookAnswerSchema }, errors: [404],
  },
});
/** Card setups per agent and IP (each makes a SetupIntent at the provider). */
export const CARD_SETUP_RATE_LIMIT = { points: 20, durationSeconds: 60 * 60 } as const;

/** Card attempts per IP and intent (a card form retrying), and per IP over all intents (card testing). */
export const LOCAL_CONFIRM_RATE_LIMIT = { points: 10, durationSeconds: 10 * 60 } as const;
export const LOCAL_CONFIRM_IP_RATE_LIMIT = { points: 60, durationSeconds: 10 * 60 } as const;

function clientSecretOf(ctx: Context): string {
  const secret = (ctx.request as { body?: { clientSecret?: unknown } }).body?.clientSecret;
  return typeof secret === 'string' ? secret.slice(0, 200) : '';
}

/** The local card form's routes exist only while local test payments run. */
function localPaymentsOnly(providers: PaymentProviders) {
  return async function requireLocalPayments(_ctx: Context, next: () => Promise<unknown>) {
    if (providers.active.name !== 'local') {
      throw localPaymentsDisabled();
    }
    await next();
  };
}


export function paymentsRouter({ config, db, queue, logger, caches }: AppDeps, opts: { providers?: PaymentProviders } = {}): Router {
  const log = logger.child({ module: 'payments' });
  const providers = opts.providers ?? createPaymentProviders(config, db, log);
  const payments: PaymentsContext = { db, queue, logger: log, providers };
  const router = new Router();

  // Checkout: the server charges the campaign's budget; one PaymentIntent per campaign.
  route(router, paymentsRoutes.createIntent, async (ctx, { body }) => {
    ctx.body = await startCheckout(payments, actorOf(ctx), body);
  });

  // Success screen: settles only what the provider confirms (402 otherwise). The spec's name for it.
  route(router, paymentsRoutes.paymentSuccess, async (ctx, { body }) => {
    ctx.body = await confirmPaymentSuccess(payments, actorOf(ctx), body.campaignId);
  });

  // The agent's credits for under-delivery: refunds and account credit with its balance (dashboard).
  route(router, paymentsRoutes.credits, async (ctx, { params: { id } }) => {
    await assertAgentAccess({ caches }, actorOf(ctx), id, 'signed_in');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await agentCredits(db, id);
  });

  // Refund to the card (the default) or account credit for the next campaign: for shortfalls settled from now on.
  route(router, paymentsRoutes.creditPreference, async (ctx, { params, body }) => {
    await assertAgentAccess({ caches }, actorOf(ctx), params.id, 'signed_in');
    await setCreditPreference(db, params.id, body.method);
    ctx.body = await agentCredits(db, params.id);
  });

  const local = localPaymentsOnly(providers);
  const localLimits = [rateLimit({ name: 'local-confirm-ip', ...LOCAL_CONFIRM_IP_RATE_LIMIT }), rateLimit({ name: 'local-confirm', ...LOCAL_CONFIRM_RATE_LIMIT, key: clientSecretOf })];

  route(router, paymentsRoutes.localConfirm, local, ...localLimits, async (ctx, { body }) => {
    ctx.body = await confirmLocalPayment(payments, body);
  });

  route(router, paymentsRoutes.localAuthenticate, local, ...localLimits, async (ctx, { body }) => {
    ctx.body = await authenticateLocalPayment(payments, body);
  });

  // Saved card (autopilot charges it when a draft's veto window ends). The owner's session only; never an admin's Login As.
  route(router, paymentsRoutes.savedCard, async (ctx, { params }) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await savedCardView(payments, actorOf(ctx), params.id);
  });

  route(router, paymentsRoutes.cardSetup, rateLimit({ name: 'card-setup', ...CARD_SETUP_RATE_LIMIT }), async (ctx, { params }) => {
    if (isImpersonating(ctx)) throw impersonationRefused();
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await startCardSetup(payments, actorOf(ctx), params.id);
  });

  route(router, paymentsRoutes.cardConfirm, async (ctx, { params, body }) => {
    if (isImpersonating(ctx)) throw impersonationRefused();
    ctx.body = await confirmCardSetup(payments, actorOf(ctx), params.id, body.setupIntentId);
  });

  route(router, paymentsRoutes.removeCard, async (ctx, { params }) => {
    if (isImpersonating(ctx)) throw impersonationRefused();
    ctx.body = await removeSavedCard(payments, actorOf(ctx), params.id);
  });

  /*
   * Stripe's signed webhook: no session, no CSRF check (app.ts WEBHOOK_PATHS). The signature covers
   * the exact body text, which the JSON body parser keeps as ctx.request.rawBody.
   */
  route(router, paymentsRoutes.stripeWebhook, async (ctx) => {
    const stripe = providers.stripe;
    if (!stripe) throw stripeNotConfigured();
    const signature = ctx.get('stripe-signature');
    const rawBody = (ctx.request as { rawBody?: unknown }).rawBody;
    if (!signature || typeof rawBody !== 'string' || rawBody === '') throw webhookInvalid();
    let event: PaymentEvent;
    try {
      event = stripe.parseWebhook(rawBody, signature);
    } catch (err) {
      if (!(err instanceof WebhookSignatureError)) throw err;
      log.warn({ err: err.message }, 'payments: Stripe webhook refused (signature)');
      throw webhookSignatureInvalid();
    }
    ctx.body = { received: true, outcome: await processPaymentEvent(payments, event) };
  });

  return router;
}
