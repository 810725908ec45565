import { formatPhone, formatUsd, phoneLink, type LeadDelivery } from '@app/contracts';
import type { Config } from '../../../platform/config';
import type { EmailMessage } from '../../../platform/email/mailer';

export const esc = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Where links in emails point: PUBLIC_URL, or this server on localhost. */
export function publicOrigin(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
}

/** A URL as an outside system needs it: our own paths (/objects/uploads/…, /demo-mls/…) on the public origin. */
export function absoluteUrl(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>, url: string | null | undefined): string | null {
  if (!url) return null;
  return url.startsWith('/') ? `${publicOrigin(config)}${url}` : url;
}

/** The lead's phone in an email: formatted, and a tel: link (with its extension) when it can be dialled. */
function leadPhoneHtml(raw: string | null): string {
  if (!raw) return '—';
  const link = phoneLink(raw)!;
  return link.href ? `<a href="${esc(link.href)}">${esc(link.display)}</a>` : esc(link.display);
}

export const dashboardLink = (config: Pick<Config, 'PUBLIC_URL' | 'PORT'>, agentId: number) => `${publicOrigin(config)}/dashboard?agent=${agentId}`;

/**
 * Every email to the agent opens the dashboard through a one-time sign-in link (DESIGN §3): no password needed,
 * and never a dead end at /login. The link works once, for 30 minutes; after that /login sends a new one.
 */
const SIGN_IN_NOTE = 'The button signs you in: it works once, for 30 minutes. After that, ask for a new sign-in link at';

function layout(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>, title: string, inner: string, dashboardUrl: string, footer = 'You get these emails because lead notifications are on in your dashboard (Lead Notifications → General).'): string {
  return `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;max-width:600px;margin:0 auto;padding:16px">
<h2 style="margin:0 0 12px">${esc(title)}</h2>${inner}
<p style="margin-top:24px"><a href="${esc(dashboardUrl)}" style="background:#2563eb;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">Open your dashboard</a></p>
<p style="color:#6b7280;font-size:12px">${esc(SIGN_IN_NOTE)} ${esc(publicOrigin(config))}/login.</p>
<p style="color:#6b7280;font-size:12px">${esc(footer)}</p>
</body></html>`;
}

const dashboardText = (config: Pick<Config, 'PUBLIC_URL' | 'PORT'>, dashboardUrl: string) =>
  `Open your dashboard (signs you in): ${dashboardUrl}\n${SIGN_IN_NOTE} ${publicOrigin(config)}/login.\n`;

const interestOf = (l: LeadDelivery['lead']) =>
  [l.interestedInTour ? 'Wants a tour' : null, l.interestedInSimilar ? 'Interested in similar homes' : null].filter(Boolean).join(', ') || 'General inquiry';

function leadBlock(d: LeadDelivery): { html: string; text: string } {
  const price = formatUsd(Number(d.listing.price));
  const address = `${d.listing.address}, ${d.listing.city}, ${d.listing.state}${d.listing.postalCode ? ` ${d.listing.postalCode}` : ''}`;
  const html = `<table style="border-collapse:collapse;width:100%">
<tr><td style="padding:4px 8px;color:#6b7280">Name</td><td style="padding:4px 8px">${esc(d.lead.name)}</td></tr>
<tr><td style="padding:4px 8px;color:#6b7280">Email</td><td style="padding:4px 8px"><a href="mailto:${esc(d.lead.email)}">${esc(d.lead.email)}</a></td></tr>
<tr><td style="padding:4px 8px;color:#6b7280">Phone</td><td style="padding:4px 8px">${leadPhoneHtml(d.lead.phone)}</td></tr>
<tr><td style="padding:4px 8px;color:#6b7280">Interest</td><td style="padding:4px 8px">${esc(interestOf(d.lead))}</td></tr>
<tr><td style="padding:4px 8px;color:#6b7280">Message</td><td style="padding:4px 8px;white-space:pre-wrap">${esc(d.lead.message || '—')}</td></tr>
<tr><td style="padding:4px 8px;color:#6b7280">Property</td><td style="padding:4px 8px"><a href="${esc(d.listing.url)}">${esc(address)}</a> · ${esc(price)} · MLS # ${esc(d.listing.mlsId)}</td></tr>
</table>`;
  const text = [
    `Name: ${d.lead.name}`,
    `Email: ${d.lead.email}`,
    `Phone: ${d.lead.phone ? formatPhone(d.lead.phone) : '-'}`,
    `Interest: ${interestOf(d.lead)}`,
    `Message: ${d.lead.message || '-'}`,
    `Property: ${address} (${price}, MLS # ${d.listing.mlsId})`,
    `Listing page: ${d.listing.url}`,
  ].join('\n');
  return { html, text };
}

export function leadEmail(config: Config, to: string, d: LeadDelivery, dash: string): EmailMessage {
  const block = leadBlock(d);
  return {
    to,
    // Replying goes straight to the buyer.
    replyTo: d.lead.email,
    subject: `New lead: ${d.lead.name} — ${d.listing.address}`,
    html: layout(config, 'You have a new lead', `<p>${esc(d.lead.name)} sent a request about your listing. Reply to this email to answer them.</p>${block.html}`, dash),
    text: `You have a new lead. Reply to this email to answer them.\n\n${block.text}\n\n${dashboardText(config, dash)}`,
  };
}

export function digestEmail(config: Config, to: string, leads: LeadDelivery[], date: string, dash: string): EmailMessage {
  const blocks = leads.map(leadBlock);
  const n = leads.length;
  return {
    to,
    subject: `Your daily lead digest: ${n} new lead${n === 1 ? '' : 's'} (${date})`,
    html: layout(
      config,
      `${n} new lead${n === 1 ? '' : 's'}`,
      `<p>Instant notifications are off, so here are the leads of the last day in one email.</p>${blocks.map((b) => `<div style="border-top:1px solid #e5e7eb;padding:8px 0">${b.html}</div>`).join('')}`,
      dash,
    ),
    text: `${n} new lead${n === 1 ? '' : 's'} (instant notifications are off, so they come in one daily email).\n\n${blocks.map((b) => b.text).join('\n\n---\n\n')}\n\n${dashboardText(config, dash)}`,
  };
}

/** The campaign as it runs, for the go-live email (a snapshot taken by the campaigns module at the transition). */
export interface CampaignLiveSnapshot {
  campaignId: number;
  agentId: number;
  headline: string | null;
  primaryText: string | null;
  imageUrl: string | null;
  /** Where the listing is ("Tampa, FL"). */
  listingAddress: string | null;
  targeting: string | null;
  budgetCents: number;
  impressions: number;
  startsAt: string | null;
  endsAt: string | null;
}

export function campaignLiveEmail(config: Config, to: string, c: CampaignLiveSnapshot, dash: string): EmailMessage {
  const budget = formatUsd(c.budgetCents / 100);
  const impressions = c.impressions.toLocaleString('en-US');
  const image = absoluteUrl(config, c.imageUrl);
  const when = c.startsAt && c.endsAt ? `${c.startsAt.slice(0, 10)} to ${c.endsAt.slice(0, 10)}` : null;
  return {
    to,
    subject: `Your ad is live${c.listingAddress ? `: ${c.listingAddress}` : ''}`,
    html: layout(
      config,
      'Your campaign is live',
      `<p>Your Facebook and Instagram ad is running now. This is the ad people see:</p>
<div style="border:1px solid #e5e7eb;border-radius:8px;overflow:hidden">
${image ? `<img src="${esc(image)}" alt="" style="width:100%;display:block">` : ''}
<div style="padding:12px"><strong>${esc(c.headline ?? '')}</strong><p style="white-space:pre-wrap">${esc(c.primaryText ?? '')}</p></div></div>
<table style="margin-top:12px">
<tr><td style="padding:4px 8px;color:#6b7280">Targeting</td><td style="padding:4px 8px">${esc(c.targeting ?? '—')}</td></tr>
<tr><td style="padding:4px 8px;color:#6b7280">Budget</td><td style="padding:4px 8px">${esc(budget)}</td></tr>
<tr><td style="padding:4px 8px;color:#6b7280">Impressions ordered</td><td style="padding:4px 8px">${esc(impressions)}</td></tr>
${when ? `<tr><td style="padding:4px 8px;color:#6b7280">Runs</td><td style="padding:4px 8px">${esc(when)}</td></tr>` : ''}
</table>`,
      dash,
      'You get this email because a campaign for your listing was paid for and is now running.',
    ),
    text: `Your campaign is live.\n\nHeadline: ${c.headline ?? ''}\nText: ${c.primaryText ?? ''}\n${image ? `Image: ${image}\n` : ''}Targeting: ${c.targeting ?? '-'}\nBudget: ${budget}\nImpressions ordered: ${impressions}\n${when ? `Runs: ${when}\n` : ''}\n${dashboardText(config, dash)}`,
  };
}

const CHANNEL_NAMES: Record<string, string> = { webhook: 'custom webhook', zapier: 'Zapier hook', crm: 'CRM', email: 'email' };

export function endpointDisabledEmail(config: Config, to: string, p: { channel: string; target: string | null }, dash: string): EmailMessage {
  const name = CHANNEL_NAMES[p.channel] ?? p.channel;
  const body = `Your ${name}${p.target ? ` (${p.target})` : ''} answered "410 Gone", which means the endpoint no longer exists. We stopped sending leads there. Leads still reach you by email and on your dashboard. To turn it back on, save the URL again in Lead Notifications.`;
  return { to, subject: `Lead delivery to your ${name} is turned off`, html: layout(config, `Your ${name} is turned off`, `<p>${esc(body)}</p>`, dash), text: `${body}\n\n${dashboardText(config, dash)}` };
}

export function deliveryDeadEmail(
  config: Config,
  to: string,
  p: { channel: string; target: string | null; attempts: number; lastError: string | null; leadName: string | null; webhookId: string },
  dash: string,
): EmailMessage {
  const name = CHANNEL_NAMES[p.channel] ?? p.channel;
  const body = `We could not deliver ${p.leadName ? `the lead from ${p.leadName}` : 'a lead'} to your ${name}${p.target ? ` (${p.target})` : ''} after ${p.attempts} attempts over about three days. Last error: ${p.lastError ?? 'unknown'}. The lead is safe on your dashboard, where the delivery log lets you send it again (delivery ${p.webhookId}) once the receiver works.`;
  return { to, subject: `A lead could not be delivered to your ${name}`, html: layout(config, 'A lead delivery failed', `<p>${esc(body)}</p>`, dash), text: `${body}\n\n${dashboardText(config, dash)}` };
}

/** What a lead notice carries: where the listing is, and the clock hour it counts against (one notice an hour). */
export interface LeadNoticePayload {
  hour: string;
  listingAddress: string;
}

/**
 * The content-free notice to the email the MLS publishes for an identity nobody verified (DESIGN §3): that a lead
 * came in on the listing, and a sign-in link. No buyer name, email, phone or message, and no Reply-To: until an
 * owner opens a link, the address is only the MLS's word, and the product is no relay for strangers' text.
 */
export function leadNoticeEmail(config: Config, to: string, p: LeadNoticePayload, dash: string): EmailMessage {
  const body = `A buyer sent a request about your listing at ${p.listingAddress}. Sign in to read it: opening the link confirms that this email address is yours, and from then on your leads come to it in full.`;
  return {
    to,
    subject: `You have a new lead on ${p.listingAddress}`,
    html: layout(config, 'You have a new lead', `<p>${esc(body)}</p>`, dash, 'You get this email because this address is the one your MLS publishes for you, and a buyer asked about your listing on Listing Ads. We send at most one such notice an hour.'),
    text: `${body}\n\n${dashboardText(config, dash)}\nWe send at most one such notice an hour.\n`,
  };
}
