import { HOOK_MESSAGES, SMS_MESSAGES } from '@app/contracts';
import { AppError, validationFailed } from '../../platform/errors';

/** The notifications module's errors (stable codes; the error middleware writes the body). */

export const settingsInvalid = (fields: Record<string, string>) => validationFailed(fields);

export const nothingToTest = (what: string) =>
  new AppError(400, 'notifications.not_configured', `Set a ${what} first, then send a test.`, { webhookType: `No ${what} is set` });

/** The receiver did not take the test send: the message names what it answered. */
export const testFailed = (message: string, statusCode: number | null, deliveryId: number) =>
  new AppError(502, 'notifications.test_failed', message, undefined, { statusCode, deliveryId });

export const deliveryNotFound = () => new AppError(404, 'notifications.delivery_not_found', 'Delivery not found');

export const deliveryStillRetrying = (nextAttemptAt: string | null) =>
  new AppError(409, 'notifications.delivery_in_progress', 'This delivery is still being retried automatically; replay it once it has succeeded or failed.', undefined, {
    nextAttemptAt,
  });
export const hookNotFound = () => new AppError(404, 'notifications.hook_not_found', 'Hook not found');
export const tooManyHooks = () => new AppError(409, 'notifications.hook_limit', HOOK_MESSAGES.tooMany);
export const smsCodeInvalid = (message: string) => new AppError(400, 'notifications.sms_code_invalid', message, { code: message });
export const smsNotPending = () => new AppError(409, 'notifications.sms_not_pending', SMS_MESSAGES.notPending);
export const smsSendFailed = (detail: string) => new AppError(502, 'notifications.sms_send_failed', `The text could not be sent: ${detail}`);
export const smsWebhookSignatureInvalid = () => new AppError(403, 'notifications.twilio_signature_invalid', 'The X-Twilio-Signature header does not match this request');
export const smsWebhookDisabled = () => new AppError(404, 'notifications.sms_webhook_disabled', 'Twilio is not configured on this server');
