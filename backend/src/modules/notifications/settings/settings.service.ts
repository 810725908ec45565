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
import { settingsChanged, settingsInvalid } from '../notifications.errors';
import { countWaitingEmails } from '../delivery/agent-identity';
import { deleteLionDeskConnection } from '../crm-oauth/liondesk-oauth';

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

/** `loadSettings` for several agents in one statement: each agent's settings (or the defaults) by id. */
export async function loadSettingsOf(db: Db | Knex.Transaction, agentIds: readonly number[]): Promise<Map<number, SettingsRow>> {
  const ids = [...new Set(agentIds)];
  const out = new Map(ids.map((id) => [id, defaultSettings(id)]));
  if (ids.length) for (const row of (await db('notificationSettings').whereIn('agentId', ids)) as SettingsRow[]) out.set(Number(row.agentId), row);
  return out;
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

/** The URL fields a save may change; each one is a place leads (and the stored secret or key) are sent. */
const URL_FIELDS = ['webhookUrl', 'zapierWebhookUrl', 'crmWebhookUrl'] as const;
type UrlField = (typeof URL_FIELDS)[number];

/** The form shows the Zapier and CRM URLs masked: sent back so, they mean "keep the stored one". */
const keepsStored = (field: UrlField, typed: string, current: SettingsRow) =>
  typed === current[field] || (field !== 'webhookUrl' && typed === maskUrl(current[field]));

/** The URLs this save would set that are not the stored ones (nor their masked form). */
export function changedUrls(current: SettingsRow, input: NotificationSettingsPayload): Partial<Record<UrlField, string>> {
  const out: Partial<Record<UrlField, string>> = {};
  for (const field of URL_FIELDS) {
    const typed = input[field];
    if (typed && !keepsStored(field, typed, current)) out[field] = typed;
  }
  return out;
}

/** Whether this save would change an integration: a URL (set or cleared), the CRM type, a secret or a key. */
export function changesIntegrations(current: SettingsRow, input: NotificationSettingsPayload): boolean {
  if (input.webhookSecret != null || input.crmApiKey != null || input.clearWebhookSecret || input.clearCrmApiKey) return true;
  if (input.crmType !== undefined && input.crmType !== current.crmType) return true;
  return URL_FIELDS.some((field) => input[field] !== undefined && !(input[field] === null ? current[field] === null : keepsStored(field, input[field]!, current)));
}

export interface SaveSettingsOptions {
  /** Whether a typed URL's host resolves to public addresses only (platform/outbound `resolvesToPublicAddresses`). */
  isPublicTarget: (url: string) => Promise<boolean>;
}

/**
 * PUT semantics: an absent field keeps its value; null/"" clears a URL or the CRM. Secrets are replaced
 * only when typed, removed only with clear*. A webhook URL without a secret gets a generated one, returned
 * once. Saving a URL again (even unchanged) turns a channel that answered 410 Gone back on.
 * A masked URL sent back unchanged (the form shows it masked) keeps the stored one.
 * A new URL must resolve to public addresses (private, loopback, link-local and metadata targets are refused
 * with one field message, whichever it was), and it ends the stored secret or key of its channel: the old
 * webhook secret or CRM key never goes to a new URL. A secret typed in the same save is kept; otherwise the
 * webhook gets a new generated one (shown once) and the CRM key must be typed again.
 */
export async function saveSettings(
  db: Db,
  box: SecretBox,
  agentId: number,
  input: NotificationSettingsPayload,
  opts: SaveSettingsOptions,
): Promise<NotificationSettingsSaved> {
  // Checked before the row is locked: DNS may take seconds.
  const typed = changedUrls(await loadSettings(db, agentId), input);
  const refused: Record<string, string> = {};
  await Promise.all(
    Object.entries(typed).map(async ([field, url]) => {
      if (!(await opts.isPublicTarget(url))) refused[field] = NOTIFICATION_MESSAGES.publicTargetRequired;
    }),
  );
  if (Object.keys(refused).length) throw settingsInvalid(refused);

  return db.transaction(async (trx) => {
    await trx('notificationSettings').insert({ agentId }).onConflict('agentId').ignore();
    const current = (await trx('notificationSettings').where({ agentId }).forUpdate().first()) as SettingsRow;
    const next: SettingsRow = { ...current };
    const moved = changedUrls(current, input);
    if (Object.keys(moved).some((field) => typed[field as UrlField] !== moved[field as UrlField])) {
      // Another save changed the stored URLs since the check above: check this one's against them again.
      throw settingsChanged();
    }
    let generatedWebhookSecret: string | undefined;

    if (input.emailNotifications !== undefined) next.emailNotifications = input.emailNotifications;
    if (input.instantNotifications !== undefined) next.instantNotifications = input.instantNotifications;

    if (input.webhookUrl !== undefined) {
      // Another endpoint (or none): the secret the old one knew is not the new one's.
      if (input.webhookUrl !== current.webhookUrl) next.webhookSecretEnc = null;
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
      // Another CRM endpoint: the key stays with the one it was given for.
      if (input.crmWebhookUrl !== current.crmWebhookUrl) next.crmApiKeyEnc = null;
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

    // Another CRM (or none): the LionDesk tokens mean nothing to it, and are not kept.
    if (current.crmType === 'liondesk' && next.crmType !== 'liondesk') await deleteLionDeskConnection(trx, agentId);

    const { agentId: _id, ...values } = next;
    await trx('notificationSettings').where({ agentId }).update({ ...values, updatedAt: trx.fn.now() });
    return { ...presentSettings(next, await countWaitingEmails(trx, agentId)), ...(generatedWebhookSecret ? { generatedWebhookSecret } : {}) };
  });
}

type CrmAvailabilityConfig = Pick<Config, 'REALGEEKS_API_USERNAME' | 'LIONDESK_CLIENT_ID'>;

/**
 * The CRMs this server can deliver to: Real Geeks needs the product's own API credentials (REALGEEKS_API_USERNAME/
 * PASSWORD), LionDesk the product's OAuth app (LIONDESK_CLIENT_ID/SECRET; the config takes them as a pair).
 */
export function availableCrmIntegrations(config: CrmAvailabilityConfig): CrmIntegration[] {
  return CRM_INTEGRATIONS.filter((c) => (c.type !== 'realgeeks' || !!config.REALGEEKS_API_USERNAME) && (c.type !== 'liondesk' || !!config.LIONDESK_CLIENT_ID));
}

/** A CRM this server cannot deliver to is refused like an unknown one. */
export function assertCrmAvailable(config: CrmAvailabilityConfig, crmType: CrmType | null | undefined): void {
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
