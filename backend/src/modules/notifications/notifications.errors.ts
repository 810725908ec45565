import { HOOK_MESSAGES, SMS_MESSAGES } from '@app/contracts';
import { AppError, validationFailed } from '../../platform/errors';

/** The notifications module's errors (stable codes; the error middleware writes the body). */

export const settingsInvalid = (fields: Record<string, string>) => validationFailed(fields);

/** Another save changed the stored URLs between this save's address check and its write. */
export const settingsChanged = () => new AppError(409, 'notifications.settings_changed', 'The settings changed while saving. Please save again.');

export const nothingToTest = (what: string) =>
  new AppError(400, 'notifications.not_configured', `Set a ${what} first, then send a test.`, { webhookType: `No ${what} is set` });

/**
 * The receiver did not take the test send. The same message whatever went wrong (an HTTP error, a refused
 * connection, DNS, a timeout): the details are in the delivery log (`deliveryId`), not in the answer.
 */
export const testFailed = (type: string, deliveryId: number) =>
  new AppError(502, 'notifications.test_failed', `Test ${type} notification failed: the receiver did not accept it. The delivery log below says what happened.`, undefined, {
    deliveryId,
  });

export const deliveryNotFound = () => new AppError(404, 'notifications.delivery_not_found', 'Delivery not found');

/** Replay is for a failed delivery that will not be retried (dead): not one that succeeded or was turned off by a 410. */
export const deliveryNotReplayable = (attemptStatus: string, messageStatus: string) =>
  new AppError(
    409,
    'notifications.not_replayable',
    attemptStatus === 'succeeded' || messageStatus === 'delivered'
      ? 'Only a dead or failed delivery can be replayed: this one was delivered.'
      : attemptStatus === 'disabled'
        ? 'Only a dead or failed delivery can be replayed: this endpoint answered 410 Gone and was turned off. Save its URL again to turn it back on.'
        : 'Only a dead or failed delivery can be replayed.',
  );

export const deliveryStillRetrying = (nextAttemptAt: string | null) =>
  new AppError(409, 'notifications.delivery_in_progress', 'This delivery is still being retried automatically; replay it once it has succeeded or failed.', undefined, {
    nextAttemptAt,
  });

/** Login As may read the integrations but change none of them (the code is the one every impersonation refusal has). */
export const integrationsReadOnly = () =>
  new AppError(403, 'auth.impersonation_read_only', 'An admin viewing as this agent can read the integrations but cannot change them (URLs, CRM, secrets and keys).');
export const hookNotFound = () => new AppError(404, 'notifications.hook_not_found', 'Hook not found');
export const tooManyHooks = () => new AppError(409, 'notifications.hook_limit', HOOK_MESSAGES.tooMany);
export const smsCodeInvalid = (message: string) => new AppError(400, 'notifications.sms_code_invalid', message, { code: message });
export const smsNotPending = () => new AppError(409, 'notifications.sms_not_pending', SMS_MESSAGES.notPending);
export const smsSendFailed = (detail: string) => new AppError(502, 'notifications.sms_send_failed', `The text could not be sent: ${detail}`);
export const smsWebhookSignatureInvalid = () => new AppError(403, 'notifications.twilio_signature_invalid', 'The X-Twilio-Signature header does not match this request');
export const smsWebhookDisabled = () => new AppError(404, 'notifications.sms_webhook_disabled', 'Twilio is not configured on this server');

/** LionDesk is offered only where the server has its OAuth app (LIONDESK_CLIENT_ID / LIONDESK_CLIENT_SECRET). */
export const liondeskNotConfigured = () => new AppError(404, 'notifications.liondesk_not_configured', 'LionDesk is not available on this server.');
