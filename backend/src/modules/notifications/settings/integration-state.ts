import { crmName, type CrmType, type DeliveryChannel, type DeliveryKind, type DeliveryStatus } from '@app/contracts';
import type { Db } from '../../../platform/db/knex';
import { loadSettings } from './settings.service';

/**
 * What the agent has wired up, for the help assistant's answers: only whether each thing is set, never
 * a secret, a key or a credential URL (Zapier and CRM URLs are credentials). The custom webhook's host is
 * given, since the agent's own endpoint is no secret and it helps to name it.
 */
export interface IntegrationState {
  emailNotifications: boolean;
  instantNotifications: boolean;
  webhook: { urlSet: boolean; host: string | null; secretSet: boolean; disabled: boolean };
  zapier: { urlSet: boolean; disabled: boolean };
  crm: { type: CrmType | null; name: string | null; urlSet: boolean; apiKeySet: boolean; disabled: boolean };
  /** The newest delivery attempt on a webhook-like channel (email left out: it is not what agents ask about). */
  lastDelivery: {
    channel: DeliveryChannel;
    kind: DeliveryKind;
    status: DeliveryStatus;
    responseCode: number | null;
    attempt: number;
    at: string;
  } | null;
}

function hostOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

export async function integrationState({ db }: { db: Db }, agentId: number): Promise<IntegrationState> {
  const [s, last] = await Promise.all([
    loadSettings(db, agentId),
    db('notificationDeliveries')
      .where({ agentId })
      .whereIn('channel', ['webhook', 'zapier', 'crm'])
      .orderBy('id', 'desc')
      .first('channel', 'kind', 'status', 'responseCode', 'attempt', 'createdAt'),
  ]);
  return {
    emailNotifications: s.emailNotifications,
    instantNotifications: s.instantNotifications,
    webhook: { urlSet: !!s.webhookUrl, host: hostOf(s.webhookUrl), secretSet: !!s.webhookSecretEnc, disabled: !!s.webhookDisabledAt },
    zapier: { urlSet: !!s.zapierWebhookUrl, disabled: !!s.zapierDisabledAt },
    crm: {
      type: s.crmType,
      name: s.crmType ? crmName(s.crmType) : null,
      urlSet: !!s.crmWebhookUrl,
      apiKeySet: !!s.crmApiKeyEnc,
      disabled: !!s.crmDisabledAt,
    },
    lastDelivery: last
      ? {
          channel: last.channel,
          kind: last.kind,
          status: last.status,
          responseCode: last.responseCode ?? null,
          attempt: last.attempt,
          at: new Date(last.createdAt).toISOString(),
        }
      : null,
  };
}
