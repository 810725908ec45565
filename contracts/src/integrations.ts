/** Lead-notification integrations (spec 001 §2 Notification settings, §3, §7). */

export const CRM_TYPES = ['followupboss', 'kvcore', 'hubspot', 'salesforce', 'custom'] as const;
export type CrmType = (typeof CRM_TYPES)[number];

/** GET /api/crm-integrations answer, in display order. */
export const CRM_INTEGRATIONS: readonly CrmIntegration[] = [
  { type: 'followupboss', name: 'Follow Up Boss' },
  { type: 'kvcore', name: 'kvCORE' },
  { type: 'hubspot', name: 'HubSpot' },
  { type: 'salesforce', name: 'Salesforce' },
  { type: 'custom', name: 'Custom CRM' },
];

export interface CrmIntegration {
  type: CrmType;
  name: string;
}

export function isCrmType(value: unknown): value is CrmType {
  return typeof value === 'string' && (CRM_TYPES as readonly string[]).includes(value);
}

export function crmName(type: CrmType): string {
  return CRM_INTEGRATIONS.find((c) => c.type === type)!.name;
}

/** The test-webhook targets. */
export const WEBHOOK_TYPES = ['custom', 'zapier', 'crm'] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

/** Notification defaults: both on. */
export const DEFAULT_EMAIL_NOTIFICATIONS = true;
export const DEFAULT_INSTANT_NOTIFICATIONS = true;
