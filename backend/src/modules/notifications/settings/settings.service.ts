import crypto from 'node:crypto';
import type { Knex } from 'knex';
import {
  CRM_INTEGRATIONS,
  NOTIFICATION_MESSAGES,
  crmIntegration,
  type CrmIntegration,
  maskUrl,
  type CrmType,
  type DeliveryChannel,
  type NotificationSettingsPayload,
  type NotificationSettingsSaved,
  type NotificationSettingsView,
} from '@app/contracts';
import type { Db } from '../../../platform/db/knex';
import type { Config } from '../../../platform/config';
import type { SecretBox } from '../../../platform/crypto/secret-box';
import { settingsInvalid } from '../notifications.errors';
import { countWaitingEmails } from '../delivery/agent-identity';

/** A row of notification_settings (an agent without one has the defaults: both emails on, nothing else). */
export interface SettingsRow {
  agentId: number;
  emailNotifications: boolean;
  instantNotifications: boolean;
  webhookUrl: string | null;
  webhookSecretEnc: string | null;
  webhookDisabledAt: Date | null;
  zapierWebhookUrl: string | null;
  zapierDisabledAt: Date | null;
  crmType: CrmType | null;
  crmWebhookUrl: string | null;
  crmApiKeyEnc: string | null;
  crmDisabledAt: Date | null;
}

export const defaultSettings = (agentId: number): SettingsRow => ({
  agentId,
  emailNotifications: true,
  instantNotifications: true,
  webhookUrl: null,
  webhookSecretEnc: null,
  webhookDisabledAt: null,
  zapierWebhookUrl: null,
  zapierDisabledAt: null,
  crmType: null,
  crmWebhookUrl: null,
  crmApiKeyEnc: null,
  crmDisabledAt: null,
});

export async function loadSettings(db: Db | Knex.Transaction, agentId: number): Promise<SettingsRow> {
  const row = await db('notificationSettings').where({ agentId }).first();
  return row ? (row as SettingsRow) : defaultSettings(agentId);
}

/** A new Standard Webhooks secret: `whsec_` + base64 of 24 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(24).toString('base64')}`;
}

/** The settings on the wire; `waitingEmails`: emails held for a verified address (`countWaitingEmails`). */
export function presentSettings(s: SettingsRow, waitingEmails = 0): NotificationSettingsView {
  return {
    emailNotifications: s.emailNotifications,
    instantNotifications: s.instantNotifications,
    // The custom webhook URL is the agent's own endpoint (signed requests carry the credential), shown whole.
    webhookUrl: s.webhookUrl,
    hasWebhookSecret: !!s.webhookSecretEnc,
    webhookDisabled: !!s.webhookDisabledAt,
    // Zapier catch hooks and CRM webhook URLs are credentials: anyone with one can post leads into it.
    zapierWebhookUrl: maskUrl(s.zapierWebhookUrl),
    zapierDisabled: !!s.zapierDisabledAt,
    crmType: s.crmType,
    crmWebhookUrl: maskUrl(s.crmWebhookUrl),
    hasCrmApiKey: !!s.crmApiKeyEnc,
    crmDisabled: !!s.crmDisabledAt,
    waitingEmails,
  };
}

/**
 * PUT semantics: an absent field keeps its value; null/"" clears a URL or the CRM. Secrets are replaced
 * only when typed, removed only with clear*. A webhook URL without a secret gets a generated one, returned
 * once. Saving a URL again (even unchanged) turns a channel that answered 410 Gone back on.
 * A masked URL sent back unchanged (the form shows it masked) keeps the stored one.
 */
export async function saveSettings(
  db: Db,
  box: SecretBox,
  agentId: number,
  input: NotificationSettingsPayload,
): Promise<NotificationSettingsSaved> {
  return db.transaction(async (trx) => {
    await trx('notificationSettings').insert({ agentId }).onConflict('agentId').ignore();
    const current = (await trx('notificationSettings').where({ agentId }).forUpdate().first()) as SettingsRow;
    const next: SettingsRow = { ...current };
    let generatedWebhookSecret: string | undefined;

    if (input.emailNotifications !== undefined) next.emailNotifications = input.emailNotifications;
    if (input.instantNotifications !== undefined) next.instantNotifications = input.instantNotifications;

    if (input.webhookUrl !== undefined) {
      next.webhookUrl = input.webhookUrl;
      next.webhookDisabledAt = null;
    }
    if (input.clearWebhookSecret) next.webhookSecretEnc = null;
    if (input.webhookSecret) next.webhookSecretEnc = box.seal(input.webhookSecret);
    if (!next.webhookUrl) next.webhookSecretEnc = null;
    else if (!next.webhookSecretEnc) {
      // Every webhook is signed: the agent who set no secret gets one, shown this once.
      generatedWebhookSecret = generateWebhookSecret();
      next.webhookSecretEnc = box.seal(generatedWebhookSecret);
    }

    if (input.zapierWebhookUrl !== undefined && input.zapierWebhookUrl !== maskUrl(current.zapierWebhookUrl)) {
      next.zapierWebhookUrl = input.zapierWebhookUrl;
    }
    if (input.zapierWebhookUrl !== undefined) next.zapierDisabledAt = null;

    if (input.crmType !== undefined) {
      if (input.crmType !== current.crmType) {
        // Another CRM: the old one's URL and key mean nothing to it.
        next.crmWebhookUrl = null;
        next.crmApiKeyEnc = null;
      }
      next.crmType = input.crmType;
      next.crmDisabledAt = null;
    }
    if (input.crmWebhookUrl !== undefined && (input.crmWebhookUrl !== maskUrl(current.crmWebhookUrl) || next.crmType !== current.crmType)) {
      next.crmWebhookUrl = input.crmWebhookUrl;
      next.crmDisabledAt = null;
    }
    if (input.clearCrmApiKey) next.crmApiKeyEnc = null;
    if (input.crmApiKey) next.crmApiKeyEnc = box.seal(input.crmApiKey);
    if (!next.crmType) {
      next.crmWebhookUrl = null;
      next.crmApiKeyEnc = null;
    } else {
      const crm = crmIntegration(next.crmType);
      const fields: Record<string, string> = {};
      if (!crm.needsUrl) next.crmWebhookUrl = null;
      if (crm.needsUrl && !next.crmWebhookUrl) fields.crmWebhookUrl = NOTIFICATION_MESSAGES.crmWebhookUrlRequired;
      if (crm.requiresApiKey && !next.crmApiKeyEnc) fields.crmApiKey = NOTIFICATION_MESSAGES.crmApiKeyRequired;
      if (Object.keys(fields).length) throw settingsInvalid(fields);
    }

    const { agentId: _id, ...values } = next;
    await trx('notificationSettings').where({ agentId }).update({ ...values, updatedAt: trx.fn.now() });
    return { ...presentSettings(next, await countWaitingEmails(trx, agentId)), ...(generatedWebhookSecret ? { generatedWebhookSecret } : {}) };
  });
}

/** The CRMs this server can deliver to: Real Geeks needs the product's own API credentials (REALGEEKS_API_USERNAME/PASSWORD). */
export function availableCrmIntegrations(config: Pick<Config, 'REALGEEKS_API_USERNAME'>): CrmIntegration[] {
  return CRM_INTEGRATIONS.filter((c) => c.type !== 'realgeeks' || !!config.REALGEEKS_API_USERNAME);
}

/** A CRM this server cannot deliver to is refused like an unknown one. */
export function assertCrmAvailable(config: Pick<Config, 'REALGEEKS_API_USERNAME'>, crmType: CrmType | null | undefined): void {
  if (crmType && !availableCrmIntegrations(config).some((c) => c.type === crmType)) throw settingsInvalid({ crmType: NOTIFICATION_MESSAGES.crmType });
}

/** Which delivery channels are on, and not turned off by a 410 Gone. */
export function activeChannels(s: SettingsRow): DeliveryChannel[] {
  const channels: DeliveryChannel[] = [];
  if (s.emailNotifications && s.instantNotifications) channels.push('email');
  if (s.webhookUrl && !s.webhookDisabledAt) channels.push('webhook');
  if (s.zapierWebhookUrl && !s.zapierDisabledAt) channels.push('zapier');
  if (s.crmType && !s.crmDisabledAt) channels.push('crm');
  return channels;
}

const DISABLED_COLUMN: Partial<Record<DeliveryChannel, keyof SettingsRow>> = {
  webhook: 'webhookDisabledAt',
  zapier: 'zapierDisabledAt',
  crm: 'crmDisabledAt',
};

/** The receiver answered 410 Gone: stop delivering there until the agent saves the URL again. */
export async function disableChannel(trx: Knex.Transaction, agentId: number, channel: DeliveryChannel): Promise<void> {
  const column = DISABLED_COLUMN[channel];
  if (!column) return;
  await trx('notificationSettings').where({ agentId }).update({ [column]: trx.fn.now(), updatedAt: trx.fn.now() });
}
