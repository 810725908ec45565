import type { DeliveryChannel, DeliveryKind, DeliveryStatus, DeliveryView } from '@app/contracts';
import type { BadgeTone } from '@app/ui';

/** The delivery log's words: channels, kinds and statuses as the agent reads them, and what an attempt answered. */
export const CHANNEL_LABEL: Record<DeliveryChannel, string> = { email: 'Email', webhook: 'Webhook', zapier: 'Zapier', crm: 'CRM', hook: 'App (REST hook)', sms: 'Text' };
export const KIND_LABEL: Record<DeliveryKind, string> = {
  'lead.created': 'New lead',
  'lead.test': 'Test',
  'lead.digest': 'Daily digest',
  'campaign.live': 'Campaign live',
  'lead.notice': 'Lead notice',
  'endpoint.disabled': 'Endpoint disabled notice',
  'delivery.dead': 'Failed delivery notice',
  'report.mid_flight': 'Halfway report',
  'report.final': 'Final report',
  'autopilot.scheduled': 'Autopilot: ad scheduled',
  'autopilot.card_needed': 'Autopilot: card needed',
  'autopilot.payment_failed': 'Autopilot: payment failed',
  'autopilot.confirm_payment': 'Autopilot: confirm payment',
  'autopilot.delivery_stopped': 'Autopilot: ad paused or stopped',
  'autopilot.resume_offer': 'Autopilot: resume offer',
};
export const STATUS: Record<DeliveryStatus, { label: string; tone: BadgeTone }> = {
  succeeded: { label: 'Delivered', tone: 'success' },
  failed: { label: 'Failed', tone: 'warning' },
  dead: { label: 'Dead', tone: 'danger' },
  disabled: { label: 'Disabled (410)', tone: 'danger' },
};

/**
 * The rows that offer Replay: the server says the delivery may be sent again (a dead or failed attempt of a dead
 * delivery, contracts `isReplayable`; never one still being retried), on the newest of its attempts on the page
 * only, so a delivery is offered once, not on every attempt it made.
 */
export function replayableIds(items: readonly Pick<DeliveryView, 'id' | 'webhookId' | 'attempt' | 'replayable'>[]): Set<number> {
  const newest = new Map<string, number>();
  for (const d of items) newest.set(d.webhookId, Math.max(newest.get(d.webhookId) ?? 0, d.attempt));
  return new Set(items.filter((d) => d.replayable && newest.get(d.webhookId) === d.attempt).map((d) => d.id));
}

/** The toast after a replay, in the agent's words (no internal ids). */
export function replayQueuedToast(channel: DeliveryChannel, attempt: number): { title: string; description: string } {
  return { title: 'Replay queued', description: `The ${CHANNEL_LABEL[channel]} delivery will be sent again now (attempt ${attempt}).` };
}

export function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export function outcome(d: DeliveryView): string {
  const parts = [d.responseCode !== null ? `HTTP ${d.responseCode}` : null, d.error, d.warning].filter(Boolean);
  if (d.nextAttemptAt) parts.push(`next attempt ${when(d.nextAttemptAt)}`);
  return parts.join(' · ') || '—';
}
