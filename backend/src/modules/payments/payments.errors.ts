import { AppError, conflict, forbidden } from '../../platform/errors';

/** The payments module's errors (stable codes; the error middleware writes the body, extras included). */

export const NOT_PAID_MESSAGE = 'Payment has not been completed for this campaign.';
export const ALREADY_PAID_MESSAGE = 'This campaign has already been paid.';

export const alreadyPaid = () => conflict('payments.already_paid', ALREADY_PAID_MESSAGE);
export const notPaid = () => new AppError(402, 'payments.not_paid', NOT_PAID_MESSAGE);
export const providerUnavailable = () =>
  new AppError(502, 'payments.provider_unavailable', 'The payment provider could not be reached. Please try again in a moment.');
export const paymentForbidden = () => forbidden('payments.forbidden', 'You do not have access to this campaign');
export const campaignCanceled = () => conflict('payments.campaign_canceled', 'This campaign was canceled and cannot be paid.');
export const intentCanceled = () => conflict('payments.intent_canceled', 'This payment was canceled. Please contact support.');
export const intentChanged = () => conflict('payments.intent_changed', 'This payment changed while it was being confirmed. Please try again.');
export const intentNotFound = () => new AppError(404, 'payments.intent_not_found', 'No such payment intent.');
export const noActionRequired = () => conflict('payments.no_action_required', 'This payment is not waiting for authentication.');
export const cardInvalid = (fields: Record<string, string>) => new AppError(400, 'payments.card_invalid', Object.values(fields)[0], fields);

export function amountMismatch(budgetCents: number): AppError {
  const dollars = budgetCents / 100;
  return new AppError(400, 'payments.amount_mismatch', `The amount does not match this campaign's budget of $${dollars}. Please refresh the checkout page.`, undefined, {
    amount: dollars,
  });
}

export const localPaymentsDisabled = () =>
  new AppError(404, 'payments.local_disabled', 'Local test payments are not running: payments go through Stripe.');
export const stripeNotConfigured = () =>
  new AppError(404, 'payments.stripe_not_configured', 'Stripe is not configured: local test payments are running, and they need no webhook.');
export const webhookInvalid = () => new AppError(400, 'payments.webhook_invalid', 'A Stripe-Signature header and a JSON body are required.');
export const webhookSignatureInvalid = () => new AppError(400, 'payments.webhook_signature_invalid', 'The webhook signature could not be verified.');

/** Saved cards (autopilot's off-session charges). */
export const CARD_NOT_SAVED_MESSAGE = 'The card was not saved. Please try again.';
export const cardNotSaved = (message?: string | null) => conflict('payments.card_not_saved', message || CARD_NOT_SAVED_MESSAGE);
export const setupNotFound = () => new AppError(404, 'payments.setup_not_found', 'No such card setup for this agent.');
