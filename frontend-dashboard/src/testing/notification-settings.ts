import type { NotificationSettingsView } from '@app/contracts';

/**
 * For tests of the lead notifications card and its form: an agent's notification settings as the API answers them
 * for a new agent (both emails on, nothing else), with `over` laid on top.
 */
export const notificationSettings = (over: Partial<NotificationSettingsView> = {}): NotificationSettingsView => ({
  emailNotifications: true,
  instantNotifications: true,
  webhookUrl: null,
  hasWebhookSecret: false,
  webhookDisabled: false,
  zapierWebhookUrl: null,
  zapierDisabled: false,
  crmType: null,
  crmWebhookUrl: null,
  hasCrmApiKey: false,
  crmDisabled: false,
  waitingEmails: 0,
  ...over,
});
