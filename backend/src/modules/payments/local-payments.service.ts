import crypto from 'node:crypto';
import { cardInvalid, intentCanceled, intentChanged, intentNotFound, noActionRequired } from './payments.errors';
import { processPaymentEvent, type PaymentsContext } from './payments.service';
import type { LocalIntentChange, LocalIntentRow, ProviderIntent } from './providers';
import type { LocalAuthenticatePayload, LocalConfirmPayload, LocalPaymentAnswer } from './payments.schemas';
import { CARD_MESSAGES, cardOutcome, checkCard, setupOutcome } from './test-cards';
import { saveCardFromSetup } from './saved-cards.service';

/** A SetupIntent's client secret (`seti_local_…`): the card form saves a card instead of paying. */
const isSetupSecret = (clientSecret: string) => clientSecret.startsWith('seti_local_');

/** The card form on a SetupIntent: the card is saved (brand, last 4, expiry, and how it behaves off-session), never its number. */
async function confirmLocalSetup(ctx: PaymentsContext, input: LocalConfirmPayload): Promise<LocalPaymentAnswer> {
  const local = ctx.providers.local;
  const setup = await local.findSetupByClientSecret(input.clientSecret);
  if (!setup) throw intentNotFound();
  if (setup.status === 'succeeded') return { status: 'succeeded', message: CARD_MESSAGES.cardSaved };
  if (setup.status === 'canceled') throw intentCanceled();
  const checked = checkCard(input);
  if (!checked.ok) throw cardInvalid(checked.fields);
  const { brand, last4, digits } = checked.card;
  const year = Number(input.expYear);
  const card = { brand, last4, expMonth: Number(input.expMonth), expYear: year < 100 ? year + 2000 : year };
  const outcome = setupOutcome(digits);
  if (outcome.kind === 'declined') {
    if (!(await local.applySetupChange(setup.id, [setup.status], { to: 'requires_payment_method', error: outcome.message }))) throw intentChanged();
    return { status: 'failed', message: outcome.message };
  }
  const changed = await local.applySetupChange(setup.id, [setup.status], { to: outcome.kind, card: { ...card, offSession: outcome.offSession } });
  if (!changed) throw intentChanged();
  if (outcome.kind === 'requires_action') return { status: 'requires_action', message: CARD_MESSAGES.setupAuthenticationRequired };
  await saveCardFromSetup(ctx, local, changed);
  return { status: 'succeeded', message: CARD_MESSAGES.cardSaved };
}

/** The 3-D Secure step of saving a card. */
async function authenticateLocalSetup(ctx: PaymentsContext, input: LocalAuthenticatePayload): Promise<LocalPaymentAnswer> {
  const local = ctx.providers.local;
  const setup = await local.findSetupByClientSecret(input.clientSecret);
  if (!setup) throw intentNotFound();
  if (setup.status === 'succeeded') return { status: 'succeeded', message: CARD_MESSAGES.cardSaved };
  if (setup.status !== 'requires_action') throw noActionRequired();
  if (!input.approve) {
    if (!(await local.applySetupChange(setup.id, ['requires_action'], { to: 'requires_payment_method', error: CARD_MESSAGES.setupAuthenticationFailed }))) throw intentChanged();
    return { status: 'failed', message: CARD_MESSAGES.setupAuthenticationFailed };
  }
  const changed = await local.applySetupChange(setup.id, ['requires_action'], { to: 'succeeded' });
  if (!changed) throw intentChanged();
  await saveCardFromSetup(ctx, local, changed);
  return { status: 'succeeded', message: CARD_MESSAGES.cardSaved };
}

const alreadySucceeded = (): LocalPaymentAnswer => ({ status: 'succeeded', message: CARD_MESSAGES.alreadySucceeded });

async function intentFor(ctx: PaymentsContext, clientSecret: string): Promise<LocalIntentRow> {
  const intent = await ctx.providers.local.findByClientSecret(clientSecret);
  if (!intent) throw intentNotFound();
  if (intent.status === 'canceled') throw intentCanceled();
  return intent;
}

/**
 * What Stripe would now send to our webhook, delivered in-process: the same event handling (and
 * de-duplication) as a signed Stripe event. The payment already happened at the provider, so a
 * failure here is logged, not returned: the success screen's check settles it later.
 */
async function deliverEvent(ctx: PaymentsContext, type: string, intent: ProviderIntent): Promise<void> {
  const id = type === 'payment_intent.succeeded' ? `evt_local_${intent.id}_succeeded` : `evt_local_${crypto.randomBytes(12).toString('hex')}`;
  try {
    await processPaymentEvent(ctx, { id, provider: 'local', type, intent });
  } catch (err) {
    ctx.logger.error({ err, intentId: intent.id, type }, 'payments: local event delivery failed');
  }
}

const EVENT_FOR: Record<LocalIntentChange['to'], string> = {
  succeeded: 'payment_intent.succeeded',
  requires_action: 'payment_intent.requires_action',
  requires_payment_method: 'payment_intent.payment_failed',
};

/**
 * Apply the result if the intent is still where we found it. False when a concurrent request paid
 * it meanwhile; any other concurrent change is a 409 (the card form tries again).
 */
async function apply(ctx: PaymentsContext, intent: LocalIntentRow, change: LocalIntentChange): Promise<boolean> {
  const changed = await ctx.providers.local.applyChange(intent.id, [intent.status], change);
  if (!changed) {
    const now = await ctx.providers.local.retrieve(intent.id);
    if (now?.status === 'succeeded') return false;
    throw intentChanged();
  }
  await deliverEvent(ctx, EVENT_FOR[change.to], changed);
  return true;
}

/**
 * POST /api/payments/local/confirm: pay a local PaymentIntent with one of Stripe's test cards (or, with a
 * SetupIntent's client secret, save the card: the same form, as Stripe Elements confirms either).
 * The card number itself is never stored (brand and last four only).
 */
export async function confirmLocalPayment(ctx: PaymentsContext, input: LocalConfirmPayload): Promise<LocalPaymentAnswer> {
  if (isSetupSecret(input.clientSecret)) return confirmLocalSetup(ctx, input);
  const intent = await intentFor(ctx, input.clientSecret);
  if (intent.status === 'succeeded') return alreadySucceeded();
  const checked = checkCard(input);
  if (!checked.ok) throw cardInvalid(checked.fields);
  const { brand, last4, digits } = checked.card;
  const outcome = cardOutcome(digits);

  if (outcome.kind === 'succeeded') {
    if (!(await apply(ctx, intent, { to: 'succeeded', brand, last4 }))) return alreadySucceeded();
    return { status: 'succeeded', message: CARD_MESSAGES.succeeded };
  }
  if (outcome.kind === 'requires_action') {
    if (!(await apply(ctx, intent, { to: 'requires_action', brand, last4 }))) return alreadySucceeded();
    return { status: 'requires_action', message: CARD_MESSAGES.authenticationRequired };
  }
  if (!(await apply(ctx, intent, { to: 'requires_payment_method', error: outcome.message, brand, last4 }))) return alreadySucceeded();
  return { status: 'failed', message: outcome.message };
}

/** POST /api/payments/local/authenticate: the 3-D Secure challenge, approved or refused. */
export async function authenticateLocalPayment(ctx: PaymentsContext, input: LocalAuthenticatePayload): Promise<LocalPaymentAnswer> {
  if (isSetupSecret(input.clientSecret)) return authenticateLocalSetup(ctx, input);
  const intent = await intentFor(ctx, input.clientSecret);
  if (intent.status === 'succeeded') return alreadySucceeded();
  if (intent.status !== 'requires_action') {
    throw noActionRequired();
  }
  if (input.approve) {
    if (!(await apply(ctx, intent, { to: 'succeeded', brand: intent.cardBrand ?? 'unknown', last4: intent.cardLast4 ?? '0000' }))) return alreadySucceeded();
    return { status: 'succeeded', message: CARD_MESSAGES.succeeded };
  }
  if (!(await apply(ctx, intent, { to: 'requires_payment_method', error: CARD_MESSAGES.authenticationFailed }))) return alreadySucceeded();
  return { status: 'failed', message: CARD_MESSAGES.authenticationFailed };
}
