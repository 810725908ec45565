import type { DeliveryChannel } from '@app/contracts';
import type { IntegrationState } from '../notifications';

/**
 * The agent's integration state in words, for the answers and the OpenAI system prompt. Built only
 * from IntegrationState, which holds no secret, key or credential URL, so nothing here can leak one.
 */

const when = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');

export function webhookLine(s: IntegrationState): string {
  const w = s.webhook;
  if (!w.urlSet) return 'You have not set a custom webhook URL yet.';
  return [
    `Your custom webhook URL is set${w.host ? ` (to \`${w.host}\`)` : ''}`,
    w.secretSet ? ' and has a signing secret (it is never shown again; type a new one to replace it).' : ' but has no signing secret yet.',
    w.disabled ? ' It is turned off because your endpoint answered 410 Gone: save the URL again to turn it back on.' : '',
  ].join('');
}

export function zapierLine(s: IntegrationState): string {
  if (!s.zapier.urlSet) return 'You have not set a Zapier webhook URL yet.';
  return `A Zapier webhook URL is set.${s.zapier.disabled ? ' It is turned off because Zapier answered 410 Gone: paste the URL of a live Zap and save.' : ''}`;
}

export function crmLine(s: IntegrationState): string {
  const c = s.crm;
  if (!c.type) return 'You have not chosen a CRM yet.';
  const parts = [`Your CRM is ${c.name}`];
  if (c.type === 'custom') parts.push(c.urlSet ? ', its CRM URL is set' : ', but no CRM URL is set yet');
  parts.push(c.apiKeySet ? ' and an API key is set.' : c.type === 'followupboss' ? ', but no API key is set yet (Follow Up Boss needs one).' : ', with no API key.');
  if (c.disabled) parts.push(' It is turned off because the CRM answered 410 Gone.');
  return parts.join('');
}

const CHANNEL_NAME: Record<DeliveryChannel, string> = { webhook: 'custom webhook', zapier: 'Zapier', crm: 'CRM', email: 'email', hook: 'a subscribed integration (REST hook)', sms: 'text alerts' };

export function lastDeliveryLine(s: IntegrationState): string {
  const d = s.lastDelivery;
  if (!d) return 'No lead has been delivered to a webhook, Zapier or your CRM yet.';
  const what = d.kind === 'lead.test' ? 'test lead' : 'lead delivery';
  const code = d.responseCode ? ` (HTTP ${d.responseCode})` : d.status === 'succeeded' ? '' : ' (no answer from the receiver)';
  return `Your last ${what} to ${CHANNEL_NAME[d.channel]} ${d.status === 'succeeded' ? 'succeeded' : `has the status **${d.status}**`}${code}, attempt ${d.attempt}, at ${when(d.at)}.`;
}

/** The lines that matter for a topic; every line for general help. */
export function groundingFor(topic: string, s: IntegrationState | null): string[] {
  if (!s) return [];
  switch (topic) {
    case 'custom-webhook':
      return [webhookLine(s), lastDeliveryLine(s)];
    case 'zapier-setup':
      return [zapierLine(s), lastDeliveryLine(s)];
    case 'crm-integration':
      return [crmLine(s), lastDeliveryLine(s)];
    case 'webhook-testing':
      return [webhookLine(s), zapierLine(s), crmLine(s), lastDeliveryLine(s)];
    default:
      return [webhookLine(s), zapierLine(s), crmLine(s), lastDeliveryLine(s)];
  }
}
