import type { CrmIntegration, CrmType, NotificationSettingsInput, NotificationSettingsView, WebhookType } from '@app/contracts';
import { isApiError } from '../../store/api';

/**
 * The Lead Notifications form (spec 001 §2 Notification settings). Secrets are write-only: the form
 * starts them empty and sends them only when typed; removing one is an explicit choice (clear*).
 * The Zapier and CRM URLs come back masked (they are credentials): sent back untouched, the server
 * keeps the stored URL.
 */
export interface SettingsForm {
  emailNotifications: boolean;
  instantNotifications: boolean;
  webhookUrl: string;
  /** Typed by the agent; '' = keep the stored secret. */
  webhookSecret: string;
  clearWebhookSecret: boolean;
  zapierWebhookUrl: string;
  crmType: CrmType | '';
  crmWebhookUrl: string;
  crmApiKey: string;
  clearCrmApiKey: boolean;
}

export type SettingsField = keyof SettingsForm;

export function formFromSettings(view: NotificationSettingsView): SettingsForm {
  return {
    emailNotifications: view.emailNotifications,
    instantNotifications: view.instantNotifications,
    webhookUrl: view.webhookUrl ?? '',
    webhookSecret: '',
    clearWebhookSecret: false,
    zapierWebhookUrl: view.zapierWebhookUrl ?? '',
    crmType: view.crmType ?? '',
    crmWebhookUrl: view.crmWebhookUrl ?? '',
    crmApiKey: '',
    clearCrmApiKey: false,
  };
}

/** Whether the chosen CRM takes a URL (Follow Up Boss has one fixed endpoint). Unknown list: ask for it. */
export function crmNeedsUrl(crmType: CrmType | '', integrations: readonly CrmIntegration[] | undefined): boolean {
  if (!crmType) return false;
  return integrations?.find((c) => c.type === crmType)?.needsUrl ?? true;
}

/** The CRM is connected through OAuth (LionDesk): a Connect button instead of the key field. */
export function crmUsesOAuth(crmType: CrmType | '', integrations: readonly CrmIntegration[] | undefined): boolean {
  return !!crmType && !!integrations?.find((c) => c.type === crmType)?.oauth;
}

/** The CRM URL and key fields appear only once a CRM type is chosen; a CRM connected through OAuth has neither. */
export function crmFieldsShown(form: Pick<SettingsForm, 'crmType'>, integrations: readonly CrmIntegration[] | undefined) {
  const oauth = crmUsesOAuth(form.crmType, integrations);
  return { url: crmNeedsUrl(form.crmType, integrations), apiKey: form.crmType !== '' && !oauth, connect: oauth };
}

/**
 * The PUT body. Secrets only when typed; a typed secret wins over a pending removal. An admin viewing as the
 * agent changes no integration (the server refuses it): only the two email toggles are sent.
 */
export function settingsPayload(
  form: SettingsForm,
  opts: { canChangeIntegrations: boolean; integrations?: readonly CrmIntegration[] },
): NotificationSettingsInput {
  if (!opts.canChangeIntegrations) return { emailNotifications: form.emailNotifications, instantNotifications: form.instantNotifications };
  const webhookSecret = form.webhookSecret.trim();
  const crmApiKey = form.crmApiKey.trim();
  const body: NotificationSettingsInput = {
    emailNotifications: form.emailNotifications,
    instantNotifications: form.instantNotifications,
    webhookUrl: form.webhookUrl.trim(),
    zapierWebhookUrl: form.zapierWebhookUrl.trim(),
    // '' clears the CRM (with its URL and key) on the server.
    crmType: form.crmType,
  };
  if (form.crmType && crmNeedsUrl(form.crmType, opts.integrations)) body.crmWebhookUrl = form.crmWebhookUrl.trim();
  if (webhookSecret) body.webhookSecret = webhookSecret;
  else if (form.clearWebhookSecret) body.clearWebhookSecret = true;
  if (form.crmType && crmApiKey) body.crmApiKey = crmApiKey;
  else if (form.crmType && form.clearCrmApiKey) body.clearCrmApiKey = true;
  return body;
}

/**
 * The stored secrets that saving this form ends because their URL changes: the server never sends an old
 * webhook secret or CRM key to a new URL, so the agent types it again (or, for the webhook, gets a new one).
 */
export function secretsEndedByUrlChange(
  saved: NotificationSettingsView,
  form: SettingsForm,
  integrations: readonly CrmIntegration[] | undefined,
): { webhookSecret: boolean; crmApiKey: boolean } {
  const moved = (stored: string | null, typed: string) => !!stored && !!typed.trim() && typed.trim() !== stored;
  return {
    webhookSecret: saved.hasWebhookSecret && moved(saved.webhookUrl, form.webhookUrl),
    crmApiKey:
      saved.hasCrmApiKey && saved.crmType === form.crmType && crmNeedsUrl(form.crmType, integrations) && moved(saved.crmWebhookUrl, form.crmWebhookUrl),
  };
}

/**
 * Test buttons appear only for a URL that is set and saved: a test goes to the saved settings, so a
 * URL typed but not saved yet has nothing to test.
 */
export function testableTypes(
  saved: NotificationSettingsView | undefined,
  form: SettingsForm,
  integrations: readonly CrmIntegration[] | undefined,
): Record<WebhookType, boolean> {
  if (!saved) return { custom: false, zapier: false, crm: false };
  const same = (a: string | null, b: string) => !!a && a === b.trim();
  const crmSaved = !!saved.crmType && saved.crmType === form.crmType;
  return {
    custom: same(saved.webhookUrl, form.webhookUrl),
    zapier: same(saved.zapierWebhookUrl, form.zapierWebhookUrl),
    crm: crmSaved && (!crmNeedsUrl(saved.crmType!, integrations) || same(saved.crmWebhookUrl, form.crmWebhookUrl)),
  };
}

const FORM_FIELDS: readonly SettingsField[] = [
  'emailNotifications',
  'instantNotifications',
  'webhookUrl',
  'webhookSecret',
  'clearWebhookSecret',
  'zapierWebhookUrl',
  'crmType',
  'crmWebhookUrl',
  'crmApiKey',
  'clearCrmApiKey',
];

/** The server's 400 field messages, keyed by form field (others are left to the toast). */
export function fieldErrorsOf(error: unknown): Partial<Record<SettingsField, string>> {
  if (!isApiError(error) || error.status !== 400 || !error.fields) return {};
  const out: Partial<Record<SettingsField, string>> = {};
  for (const [key, value] of Object.entries(error.fields)) {
    const message = Array.isArray(value) ? value[0] : value;
    if ((FORM_FIELDS as readonly string[]).includes(key) && typeof message === 'string') out[key as SettingsField] = message;
  }
  return out;
}

export type SettingsTab = 'general' | 'webhooks' | 'zapier' | 'crm';

const TAB_OF: Record<SettingsField, SettingsTab> = {
  emailNotifications: 'general',
  instantNotifications: 'general',
  webhookUrl: 'webhooks',
  webhookSecret: 'webhooks',
  clearWebhookSecret: 'webhooks',
  zapierWebhookUrl: 'zapier',
  crmType: 'crm',
  crmWebhookUrl: 'crm',
  crmApiKey: 'crm',
  clearCrmApiKey: 'crm',
};

/** The tab holding the first field with an error, so a refused save shows its message. */
export function tabOfFirstError(errors: Partial<Record<SettingsField, string>>): SettingsTab | null {
  const first = FORM_FIELDS.find((f) => errors[f]);
  return first ? TAB_OF[first] : null;
}
