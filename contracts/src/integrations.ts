/** Lead-notification integrations (spec 001 §2 Notification settings, §3, §7). */

/**
 * CRMs we deliver leads to. Only CRMs whose documented HTTP shapes we implement and test are listed:
 * Follow Up Boss (its Events API), HubSpot (CRM v3 contacts and notes, through @hubspot/api-client with
 * a private-app token), Real Geeks (the Lead Router Incoming Leads API; offered only where the server has
 * Real Geeks API credentials), Lofty (its Open API, POST /v1.0/leads with the agent's API key), LionDesk (its v2 API,
 * POST /contacts with the agent's OAuth access token; offered only where the server has LionDesk OAuth app
 * credentials: the agent connects their account instead of pasting a key), and any other CRM that accepts a JSON
 * webhook. kvCORE/BoldTrail and Wise Agent are not native (no documented request shape for kvCORE/BoldTrail; Wise
 * Agent only through an OAuth app registration): agents reach them through the REST hooks API (Zapier, Make, n8n).
 */
export const CRM_TYPES = ['followupboss', 'hubspot', 'realgeeks', 'lofty', 'liondesk', 'custom'] as const;
export type CrmType = (typeof CRM_TYPES)[number];

export interface CrmIntegration {
  type: CrmType;
  name: string;
  /** The CRM URL field is needed (Follow Up Boss has one fixed endpoint). */
  needsUrl: boolean;
  /** An API key is required (for the generic webhook it is optional: sent as a Bearer token when set). */
  requiresApiKey: boolean;
  /** What the CRM calls the credential the agent pastes in the key field. */
  apiKeyLabel: string;
  /** The agent connects the CRM account through OAuth (a Connect button, no key field): LionDesk. */
  oauth?: true;
}

/** GET /api/crm-integrations answer, in display order. */
export const CRM_INTEGRATIONS: readonly CrmIntegration[] = [
  { type: 'followupboss', name: 'Follow Up Boss', needsUrl: false, requiresApiKey: true, apiKeyLabel: 'API key' },
  { type: 'hubspot', name: 'HubSpot', needsUrl: false, requiresApiKey: true, apiKeyLabel: 'Private app access token' },
  { type: 'realgeeks', name: 'Real Geeks', needsUrl: false, requiresApiKey: true, apiKeyLabel: 'Site UUID' },
  { type: 'lofty', name: 'Lofty', needsUrl: false, requiresApiKey: true, apiKeyLabel: 'API key' },
  { type: 'liondesk', name: 'LionDesk', needsUrl: false, requiresApiKey: false, apiKeyLabel: 'API key', oauth: true },
  { type: 'custom', name: 'Other CRM (JSON webhook)', needsUrl: true, requiresApiKey: false, apiKeyLabel: 'API key' },
];

export function isCrmType(value: unknown): value is CrmType {
  return typeof value === 'string' && (CRM_TYPES as readonly string[]).includes(value);
}

export function crmIntegration(type: CrmType): CrmIntegration {
  return CRM_INTEGRATIONS.find((c) => c.type === type)!;
}

export function crmName(type: CrmType): string {
  return crmIntegration(type).name;
}

/**
 * An agent's LionDesk connection (GET /api/agents/{id}/crm/liondesk): whether tokens are stored, and whether LionDesk
 * refused to renew them (the agent must connect again). The tokens themselves never leave the server.
 */
export interface LionDeskConnectionView {
  connected: boolean;
  needsReconnect: boolean;
  connectedAt: string | null;
}

/** What the LionDesk connect flow tells the dashboard (`/dashboard?liondesk=<result>`), and the words shown for each. */
export const LIONDESK_CONNECT_RESULTS = {
  connected: 'LionDesk is connected: new leads will arrive in LionDesk as contacts.',
  denied: 'LionDesk was not connected: access was not allowed on LionDesk’s screen.',
  expired: 'LionDesk was not connected: the connection request expired or did not come from this browser. Please click Connect LionDesk again.',
  failed: 'LionDesk was not connected: LionDesk did not accept the connection. Please click Connect LionDesk again.',
} as const;
export type LionDeskConnectResult = keyof typeof LIONDESK_CONNECT_RESULTS;

/** The test-webhook targets. */
export const WEBHOOK_TYPES = ['custom', 'zapier', 'crm'] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

// Texts of the dashboard's Lead Notifications card, here (no zod) so the remote imports them by path.
/** Toasts of the settings card (spec 001 §8). */
export const NOTIFICATION_TOASTS = {
  loadFailed: 'Failed to load notification settings',
  saved: { title: 'Settings Saved', description: 'Your notification settings have been updated successfully' },
  saveFailed: 'Failed to save notification settings',
  testOk: 'Test Successful',
  testFailedTitle: 'Test Failed',
  testFailed: (type: string) => `Failed to send test ${type} notification`,
} as const;

/** Said in the settings UI next to the instant toggle. */
export const INSTANT_NOTIFICATIONS_HINT =
  'On: every lead is emailed the moment it arrives. Off: you get one digest email a day listing the day’s leads.';

/** Notification defaults: both on. */
export const DEFAULT_EMAIL_NOTIFICATIONS = true;
export const DEFAULT_INSTANT_NOTIFICATIONS = true;

/** Zapier catch hooks live here; any other URL in the Zapier field is a mistake. */
export const ZAPIER_HOOK_PREFIX = 'https://hooks.zapier.com/';

/**
 * Delivery channels: one delivery job per (lead, channel); `hook` is one per (lead, REST hook subscribed
 * through /api/v1/hooks); `sms` texts the agent, the leads of one minute grouped into one text.
 */
export const DELIVERY_CHANNELS = ['email', 'webhook', 'zapier', 'crm', 'hook', 'sms'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

/** One attempt's outcome, as logged. `disabled`: the receiver answered 410 Gone and the endpoint was turned off. */
export const DELIVERY_STATUSES = ['succeeded', 'failed', 'dead', 'disabled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Replays an agent may make, from the dashboard (or an admin viewing as the agent): at most this many a minute. */
export const DELIVERY_REPLAYS_PER_MINUTE = 10;

/**
 * Replay is for an attempt that failed (`dead`, or `failed` and retried since) of a delivery that is now dead:
 * not one that succeeded, answered 410 Gone (`disabled`: save the URL again instead), is still being retried
 * (pending) or was delivered on a later attempt.
 */
export function isReplayable(attemptStatus: DeliveryStatus, messageStatus: 'pending' | 'delivered' | 'dead'): boolean {
  return (attemptStatus === 'dead' || attemptStatus === 'failed') && messageStatus === 'dead';
}

/**
 * What was delivered. `lead.notice`: the content-free email to an MLS-published address that nobody has verified
 * yet ("You have a new lead on <address>", a sign-in link; no buyer data), at most one an hour.
 */
export const DELIVERY_KINDS = [
  'lead.created',
  'lead.test',
  'lead.digest',
  'campaign.live',
  'endpoint.disabled',
  'delivery.dead',
  'lead.notice',
  'report.mid_flight',
  'report.final',
  // Autopilot's emails to the agent (DESIGN §7).
  'autopilot.scheduled',
  'autopilot.card_needed',
  'autopilot.payment_failed',
  'autopilot.confirm_payment',
  'autopilot.delivery_stopped',
  'autopilot.resume_offer',
] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/**
 * Standard Webhooks retry schedule (standardwebhooks.com): the delay before each attempt, in seconds.
 * Immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h: ten attempts over about 3 days.
 */
export const DELIVERY_RETRY_SCHEDULE_SECONDS = [0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400] as const;
export const DELIVERY_MAX_ATTEMPTS = DELIVERY_RETRY_SCHEDULE_SECONDS.length;

/** A URL that is a credential (Zapier catch hooks, CRM webhooks) shown masked: origin and the first path segment only. */
export function maskUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    const first = url.pathname.split('/').filter(Boolean)[0];
    const rest = url.pathname.length > (first ? first.length + 1 : 1) || url.search ? '/…' : '';
    return `${url.protocol}//${url.host}${first ? `/${first}` : ''}${rest}`;
  } catch {
    return '…';
  }
}

/** An email address shown in logs: first letter and the domain. */
export function maskEmail(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const at = raw.lastIndexOf('@');
  if (at < 1) return '…';
  return `${raw[0]}…@${raw.slice(at + 1)}`;
}
