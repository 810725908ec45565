import Router from '@koa/router';
import type { Context } from 'koa';
import { createPaymentIntentSchema, creditPreferenceSchema, idParam, paymentSuccessSchema } from '@app/contracts';
import { z } from 'zod';
import { assertAgentAccess } from '../agents';
import { agentCredits, setCreditPreference } from './credits/credits.service';
import { validate, inputOf } from '../../platform/http/validate';
import { rateLimit } from '../../platform/http/rate-limit';
import { actorOf } from '../../platform/auth/actor';
import type { AppDeps } from '../../platform/deps';
import { confirmPaymentSuccess, processPaymentEvent, startCheckout, type PaymentsContext } from './payments.service';
import { authenticateLocalPayment, confirmLocalPayment } from './local-payments.service';
import { localAuthenticateSchema, localConfirmSchema } from './payments.schemas';
import { createPaymentProviders, WebhookSignatureError, type PaymentEvent, type PaymentProviders } from './providers';
import { localPaymentsDisabled, stripeNotConfigured, webhookInvalid, webhookSignatureInvalid } from './payments.errors';

const CreateIntent = { body: createPaymentIntentSchema };
const PaymentSuccess = { body: paymentSuccessSchema };
const LocalConfirm = { body: localConfirmSchema };
const LocalAuthenticate = { body: localAuthenticateSchema };

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

const AgentParams = { params: z.object({ id: idParam }) };
const CreditPreference = { params: z.object({ id: idParam }), body: creditPreferenceSchema };

export function paymentsRouter({ config, db, queue, logger, caches }: AppDeps, opts: { providers?: PaymentProviders } = {}): Router {
  const log = logger.child({ module: 'payments' });
  const providers = opts.providers ?? createPaymentProviders(config, db, log);
  const payments: PaymentsContext = { db, queue, logger: log, providers };
  const router = new Router();

  // Checkout: the server charges the campaign's budget; one PaymentIntent per campaign.
  router.post('/api/create-payment-intent', validate(CreateIntent), async (ctx) => {
    const { body } = inputOf(ctx, CreateIntent);
    ctx.body = await startCheckout(payments, actorOf(ctx), body);
  });

  // Success screen: settles only what the provider confirms (402 otherwise). The spec's name for it.
  router.post('/api/webhook/payment-success', validate(PaymentSuccess), async (ctx) => {
    const { body } = inputOf(ctx, PaymentSuccess);
    ctx.body = await confirmPaymentSuccess(payments, actorOf(ctx), body.campaignId);
  });

  // The agent's credits for under-delivery: refunds and account credit with its balance (dashboard).
  router.get('/api/agents/:id/credits', validate(AgentParams), async (ctx) => {
    const { id } = inputOf(ctx, AgentParams).params;
    await assertAgentAccess({ caches }, actorOf(ctx), id, 'signed_in');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await agentCredits(db, id);
  });

  // Refund to the card (the default) or account credit for the next campaign: for shortfalls settled from now on.
  router.put('/api/agents/:id/credits/preference', validate(CreditPreference), async (ctx) => {
    const { params, body } = inputOf(ctx, CreditPreference);
    await assertAgentAccess({ caches }, actorOf(ctx), params.id, 'signed_in');
    await setCreditPreference(db, params.id, body.method);
    ctx.body = await agentCredits(db, params.id);
  });

  const local = localPaymentsOnly(providers);
  const localLimits = [rateLimit({ name: 'local-confirm-ip', ...LOCAL_CONFIRM_IP_RATE_LIMIT }), rateLimit({ name: 'local-confirm', ...LOCAL_CONFIRM_RATE_LIMIT, key: clientSecretOf })];

  router.post('/api/payments/local/confirm', local, ...localLimits, validate(LocalConfirm), async (ctx) => {
    ctx.body = await confirmLocalPayment(payments, inputOf(ctx, LocalConfirm).body);
  });

  router.post('/api/payments/local/authenticate', local, ...localLimits, validate(LocalAuthenticate), async (ctx) => {
    ctx.body = await authenticateLocalPayment(payments, inputOf(ctx, LocalAuthenticate).body);
  });

  /*
   * Stripe's signed webhook: no session, no CSRF check (app.ts WEBHOOK_PATHS). The signature covers
   * the exact body text, which the JSON body parser keeps as ctx.request.rawBody.
   */
  router.post('/api/webhooks/stripe', async (ctx) => {
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
