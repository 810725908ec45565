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

function layout(title: string, inner: string, dashboardUrl: string): string {
  return `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;max-width:600px;margin:0 auto;padding:16px">
<h2 style="margin:0 0 12px">${esc(title)}</h2>${inner}
<p style="margin-top:24px"><a href="${esc(dashboardUrl)}" style="background:#2563eb;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">Open your dashboard</a></p>
<p style="color:#6b7280;font-size:12px">You get these emails because lead notifications are on in your dashboard (Lead Notifications → General).</p>
</body></html>`;
}

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

export function leadEmail(config: Config, to: string, d: LeadDelivery): EmailMessage {
  const dash = dashboardLink(config, d.agentId);
  const block = leadBlock(d);
  return {
    to,
    // Replying goes straight to the buyer.
    replyTo: d.lead.email,
    subject: `New lead: ${d.lead.name} — ${d.listing.address}`,
    html: layout('You have a new lead', `<p>${esc(d.lead.name)} sent a request about your listing. Reply to this email to answer them.</p>${block.html}`, dash),
    text: `You have a new lead. Reply to this email to answer them.\n\n${block.text}\n\nYour dashboard: ${dash}\n`,
  };
}

export function digestEmail(config: Config, to: string, agentId: number, leads: LeadDelivery[], date: string): EmailMessage {
  const dash = dashboardLink(config, agentId);
  const blocks = leads.map(leadBlock);
  const n = leads.length;
  return {
    to,
    subject: `Your daily lead digest: ${n} new lead${n === 1 ? '' : 's'} (${date})`,
    html: layout(
      `${n} new lead${n === 1 ? '' : 's'}`,
      `<p>Instant notifications are off, so here are the leads of the last day in one email.</p>${blocks.map((b) => `<div style="border-top:1px solid #e5e7eb;padding:8px 0">${b.html}</div>`).join('')}`,
      dash,
    ),
    text: `${n} new lead${n === 1 ? '' : 's'} (instant notifications are off, so they come in one daily email).\n\n${blocks.map((b) => b.text).join('\n\n---\n\n')}\n\nYour dashboard: ${dash}\n`,
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

export function campaignLiveEmail(config: Config, to: string, c: CampaignLiveSnapshot): EmailMessage {
  const dash = dashboardLink(config, c.agentId);
  const budget = formatUsd(c.budgetCents / 100);
  const impressions = c.impressions.toLocaleString('en-US');
  const image = absoluteUrl(config, c.imageUrl);
  const when = c.startsAt && c.endsAt ? `${c.startsAt.slice(0, 10)} to ${c.endsAt.slice(0, 10)}` : null;
  return {
    to,
    subject: `Your ad is live${c.listingAddress ? `: ${c.listingAddress}` : ''}`,
    html: layout(
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
    ),
    text: `Your campaign is live.\n\nHeadline: ${c.headline ?? ''}\nText: ${c.primaryText ?? ''}\n${image ? `Image: ${image}\n` : ''}Targeting: ${c.targeting ?? '-'}\nBudget: ${budget}\nImpressions ordered: ${impressions}\n${when ? `Runs: ${when}\n` : ''}\nYour dashboard: ${dash}\n`,
  };
}

const CHANNEL_NAMES: Record<string, string> = { webhook: 'custom webhook', zapier: 'Zapier hook', crm: 'CRM', email: 'email' };

export function endpointDisabledEmail(config: Config, to: string, agentId: number, p: { channel: string; target: string | null }): EmailMessage {
  const dash = dashboardLink(config, agentId);
  const name = CHANNEL_NAMES[p.channel] ?? p.channel;
  const body = `Your ${name}${p.target ? ` (${p.target})` : ''} answered "410 Gone", which means the endpoint no longer exists. We stopped sending leads there. Leads still reach you by email and on your dashboard. To turn it back on, save the URL again in Lead Notifications.`;
  return { to, subject: `Lead delivery to your ${name} is turned off`, html: layout(`Your ${name} is turned off`, `<p>${esc(body)}</p>`, dash), text: `${body}\n\nYour dashboard: ${dash}\n` };
}

export function deliveryDeadEmail(
  config: Config,
  to: string,
  agentId: number,
  p: { channel: string; target: string | null; attempts: number; lastError: string | null; leadName: string | null; webhookId: string },
): EmailMessage {
  const dash = dashboardLink(config, agentId);
  const name = CHANNEL_NAMES[p.channel] ?? p.channel;
  const body = `We could not deliver ${p.leadName ? `the lead from ${p.leadName}` : 'a lead'} to your ${name}${p.target ? ` (${p.target})` : ''} after ${p.attempts} attempts over about three days. Last error: ${p.lastError ?? 'unknown'}. The lead is safe on your dashboard, where the delivery log lets you send it again (delivery ${p.webhookId}) once the receiver works.`;
  return { to, subject: `A lead could not be delivered to your ${name}`, html: layout('A lead delivery failed', `<p>${esc(body)}</p>`, dash), text: `${body}\n\nYour dashboard: ${dash}\n` };
}
