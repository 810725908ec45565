import { loadConfig } from '../../../platform/config';
import { createSecretBox } from '../../../platform/crypto/secret-box';
import type { SafeFetch } from '../../../platform/outbound/http';
import type { Mailer } from '../../../platform/email/mailer';
import { defaultSettings, type SettingsRow } from '../settings/settings.service';
import { toLeadDelivery } from '../delivery/lead-deliveries';
import type { ChannelContext, MessageRow } from '../channels/channel';

/**
 * One lead, one message and a channel context, for the channels' contract tests (nock against each
 * receiver's documented HTTP shape). The channels get a client over global fetch, which nock intercepts;
 * the SSRF-safe client itself is tested in ssrf.test.ts.
 */
export const nockFetch: SafeFetch = async (url, init = {}) => {
  const res = await fetch(url, { method: init.method, headers: init.headers, body: init.body, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: () => res.text(), url };
};

const KEY = 'a'.repeat(64);
export const box = createSecretBox(KEY);
export const config = loadConfig({ NODE_ENV: 'test', ENCRYPTION_KEY: KEY, PUBLIC_URL: 'https://www.listingads.example', FOLLOWUPBOSS_SYSTEM: 'ListingAds', FOLLOWUPBOSS_SYSTEM_KEY: 'sys-key-1' });
export const NOW = new Date('2026-11-24T15:00:00.000Z');
export const mailer: Mailer = { provider: 'outbox', send: async () => ({ messageId: 'x', transport: 'outbox' }), close() {} };

export const data = toLeadDelivery(config, {
  id: 41,
  agentId: 7,
  listingId: 3,
  name: 'Jamie Q. Buyer',
  email: 'jamie@example.com',
  phone: '8135550101',
  message: 'Is it still available?',
  source: 'property_page',
  interestedInTour: true,
  interestedInSimilar: false,
  createdAt: '2026-11-24T14:59:59.000Z',
  listing: { mlsId: 'MLS-123', address: '12 Palm Ave', city: 'Tampa', state: 'FL', postalCode: '33602', price: '450000', bedrooms: 3, bathrooms: '2.0', squareFeet: 1850, imageUrl: 'https://photos.example.com/1.jpg' },
});

export const message: MessageRow = {
  id: 1,
  agentId: 7,
  leadId: 41,
  campaignId: null,
  kind: 'lead.created',
  channel: 'webhook',
  webhookId: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W',
  payload: { type: 'lead.created', timestamp: '2026-11-24T14:59:59.000Z', data },
  status: 'pending',
  attempts: 0,
  lastAttemptAllowed: 10,
  nextAttemptAt: null,
  createdAt: NOW,
};

export const ctx = (settings: Partial<SettingsRow>, extra: Partial<ChannelContext> = {}): ChannelContext => ({
  config,
  settings: { ...defaultSettings(7), ...settings },
  box,
  safeFetch: nockFetch,
  mailer,
  recipient: async () => ({ agentId: 7, name: 'Dana', to: 'dana@example.com', kind: 'verified' }),
  signInLink: async () => 'https://homes.example.com/verify-email?token=test-token-0123456789abcdefghij',
  now: NOW,
  ...extra,
});
