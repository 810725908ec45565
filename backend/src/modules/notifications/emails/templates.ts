import { formatUsd, phoneLink, type LeadDelivery, type PhoneLink } from '@app/contracts';
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
function leadPhoneHtml(link: PhoneLink | null): string {
  if (!link) return '—';
  return link.href ? `<a href="${esc(link.href)}">${esc(link.display)}</a>` : esc(link.display);
}

/**
 * Every email to the agent opens the dashboard through a one-time sign-in link (DESIGN §3): no password needed,
 * and never a dead end at /login. The link works once, for 30 minutes; after that /login sends a new one.
 */
const LEAD_FOOTER = 'You get these emails because lead notifications are on in your dashboard (Lead Notifications → General).';

const SIGN_IN_NOTE = 'The button signs you in: it works once, for 30 minutes. After that, ask for a new sign-in link at';

export function layout(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>, title: string, inner: string, dashboardUrl: string, footer = LEAD_FOOTER): string {
  return `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;max-width:600px;margin:0 auto;padding:16px">
<h2 style="margin:0 0 12px">${esc(title)}</h2>${inner}
<p style="margin-top:24px"><a href="${esc(dashboardUrl)}" style="background:#2563eb;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">Open your dashboard</a></p>
<p style="color:#6b7280;font-size:12px">${esc(SIGN_IN_NOTE)} ${esc(publicOrigin(config))}/login.</p>
<p style="color:#6b7280;font-size:12px">${esc(footer)}</p>
</body></html>`;
}

export const dashboardText = (config: Pick<Config, 'PUBLIC_URL' | 'PORT'>, dashboardUrl: string) =>
  `Open your dashboard (signs you in): ${dashboardUrl}\n${SIGN_IN_NOTE} ${publicOrigin(config)}/login.\n`;

const interestOf = (l: LeadDelivery['lead']) =>
  [l.interestedInTour ? 'Wants a tour' : null, l.interestedInSimilar ? 'Interested in similar homes' : null].filter(Boolean).join(', ') || 'General inquiry';

function leadBlock(d: LeadDelivery): { html: string; text: string } {
  const price = formatUsd(Number(d.listing.price));
  // The phone is parsed once (libphonenumber) for both parts.
  const phone = phoneLink(d.lead.phone);
  const address = `${d.listing.address}, ${d.listing.city}, ${d.listing.state}${d.listing.postalCode ? ` ${d.listing.postalCode}` : ''}`;
  const html = `<table style="border-collapse:collapse;width:100%">
<tr><td style="padding:4px 8px;color:#6b7280">Name</td><td style="padding:4px 8px">${esc(d.lead.name)}</td></tr>
<tr><td style="padding:4px 8px;color:#6b7280">Email</td><td style="padding:4px 8px"><a href="mailto:${esc(d.lead.email)}">${esc(d.lead.email)}</a></td></tr>
<tr><td style="padding:4px 8px;color:#6b7280">Phone</td><td style="padding:4px 8px">${leadPhoneHtml(phone)}</td></tr>
<tr><td style="padding:4px 8px;color:#6b7280">Interest</td><td style="padding:4px 8px">${esc(interestOf(d.lead))}</td></tr>
<tr><td style="padding:4px 8px;color:#6b7280">Message</td><td style="padding:4px 8px;white-space:pre-wrap">${esc(d.lead.message || '—')}</td></tr>
<tr><td style="padding:4px 8px;color:#6b7280">Property</td><td style="padding:4px 8px"><a href="${esc(d.listing.url)}">${esc(address)}</a> · ${esc(price)} · MLS # ${esc(d.listing.mlsId)}</td></tr>
</table>`;
  const text = [
    `Name: ${d.lead.name}`,
    `Email: ${d.lead.email}`,
    `Phone: ${phone?.display ?? '-'}`,
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

// ---------------------------------------------------------------- autopilot (DESIGN §7)

const AUTOPILOT_FOOTER = 'You get these emails because Autopilot is on in your dashboard (Autopilot card). Turn it off there at any time.';

/** A scheduled autopilot ad, as the email shows it (a snapshot taken when the draft was scheduled). */
export interface AutopilotAdSnapshot {
  runId: number;
  agentId: number;
  campaignId: number;
  /** "Just Listed", "Just Sold", "Price Improved". */
  adLabel: string;
  headline: string;
  description: string;
  imageUrl: string | null;
  /** "8647 Cypress Bend Ct, Tampa, FL". */
  listingAddress: string;
  listingPriceCents: number;
  budgetCents: number;
  impressions: number;
  /** ISO: when the ad launches unless the agent skips it; the links expire then. */
  launchAt: string;
  /** "Visa •••• 4242", or null: no card saved yet. */
  card: string | null;
  /** On a sale: the Just Listed ad that was stopped, if one ran. */
  stoppedCampaignId: number | null;
}

/** An autopilot ad that could not be paid: why, and until when it can still be fixed. */
export interface AutopilotPaymentProblem {
  runId: number;
  agentId: number;
  campaignId: number;
  adLabel: string;
  headline: string;
  listingAddress: string;
  budgetCents: number;
  /** The payment provider's words ("Your card was declined."), if it said something. */
  message: string | null;
  /** ISO: the draft expires, unpaid, then. */
  expiresAt: string;
}

/** Delivery stopped by the listing's status: paused (pending, withdrawn) or stopped (sold). */
export interface AutopilotDeliveryStopped {
  agentId: number;
  campaignId: number;
  listingAddress: string;
  mode: 'paused' | 'stopped';
  /** "the listing went under contract (Pending)". */
  reason: string;
  delivered: number;
  unusedImpressions: number;
}

export interface AutopilotResumeOffer {
  runId: number;
  agentId: number;
  campaignId: number;
  listingAddress: string;
  unusedImpressions: number | null;
  expiresAt: string;
}

/** Where an autopilot link opens (a page that asks before it acts: mail scanners follow links). */
export type AutopilotLinkMaker = (runId: number, action: 'launch' | 'edit' | 'skip' | 'card' | 'confirm' | 'resume', expiresAt: string) => string;

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short' });

const button = (href: string, label: string, color = '#2563eb') =>
  `<a href="${esc(href)}" style="display:inline-block;background:${color};color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none;margin:0 8px 8px 0">${esc(label)}</a>`;

export function autopilotScheduledEmail(config: Config, to: string, ad: AutopilotAdSnapshot, link: AutopilotLinkMaker, dash: string): EmailMessage {
  const image = ad.imageUrl ? (ad.imageUrl.startsWith('/') ? `${publicOrigin(config)}${ad.imageUrl}` : ad.imageUrl) : null;
  const budget = formatUsd(ad.budgetCents / 100);
  const price = formatUsd(ad.listingPriceCents / 100);
  const at = when(ad.launchAt);
  const launch = link(ad.runId, 'launch', ad.launchAt);
  const edit = link(ad.runId, 'edit', ad.launchAt);
  const skip = link(ad.runId, 'skip', ad.launchAt);
  const card = link(ad.runId, 'card', ad.launchAt);
  const payment = ad.card
    ? `<p>At launch we charge ${esc(budget)} to your ${esc(ad.card)}. Nothing is charged before then, and nothing if you skip.</p>`
    : `<p><strong>A card is needed to launch.</strong> Nothing is charged before launch time. ${button(card, 'Add a card')}</p>`;
  const stopped = ad.stoppedCampaignId ? `<p>Your Just Listed ad for this home was stopped: the home sold.</p>` : '';
  return {
    to,
    subject: `${ad.adLabel} ad for ${ad.listingAddress} launches ${at}`,
    html: layout(
      config,
      `Your ${ad.adLabel} ad is ready`,
      `${stopped}<p>Autopilot made this ad for <strong>${esc(ad.listingAddress)}</strong> (${esc(price)}). It launches on its own at <strong>${esc(at)}</strong>, unless you skip it.</p>
<div style="border:1px solid #e5e7eb;border-radius:8px;overflow:hidden">
${image ? `<img src="${esc(image)}" alt="" style="width:100%;display:block">` : ''}
<div style="padding:12px"><strong>${esc(ad.headline)}</strong><p style="white-space:pre-wrap">${esc(ad.description)}</p></div></div>
<table style="margin-top:12px">
<tr><td style="padding:4px 8px;color:#6b7280">Listing price</td><td style="padding:4px 8px">${esc(price)}</td></tr>
<tr><td style="padding:4px 8px;color:#6b7280">Budget</td><td style="padding:4px 8px">${esc(budget)}</td></tr>
<tr><td style="padding:4px 8px;color:#6b7280">Impressions</td><td style="padding:4px 8px">${esc(ad.impressions.toLocaleString('en-US'))}</td></tr>
<tr><td style="padding:4px 8px;color:#6b7280">Launches</td><td style="padding:4px 8px">${esc(at)}</td></tr>
</table>
${payment}
<p style="margin-top:16px">${button(launch, 'Launch now', '#16a34a')}${button(edit, 'Edit')}${button(skip, 'Skip', '#6b7280')}</p>
<p style="color:#6b7280;font-size:12px">Each link works once, until the launch time. No login needed.</p>`,
      dash,
      AUTOPILOT_FOOTER,
    ),
    text: [
      ad.stoppedCampaignId ? 'Your Just Listed ad for this home was stopped: the home sold.\n' : '',
      `Autopilot made a ${ad.adLabel} ad for ${ad.listingAddress} (${price}). It launches on its own at ${at}, unless you skip it.`,
      '',
      `Headline: ${ad.headline}`,
      `Text: ${ad.description}`,
      image ? `Image: ${image}` : '',
      `Budget: ${budget}`,
      `Impressions: ${ad.impressions.toLocaleString('en-US')}`,
      `Launches: ${at}`,
      '',
      ad.card ? `At launch we charge ${budget} to your ${ad.card}. Nothing is charged before then, and nothing if you skip.` : `A card is needed to launch. Add one: ${card}`,
      '',
      `Launch now: ${launch}`,
      `Edit: ${edit}`,
      `Skip: ${skip}`,
      '',
      'Each link works once, until the launch time. No login needed.',
      dashboardText(config, dash),
    ]
      .filter((line, i, all) => line !== '' || all[i - 1] !== '')
      .join('\n'),
  };
}

type ProblemKind = 'autopilot.card_needed' | 'autopilot.payment_failed' | 'autopilot.confirm_payment';

export function autopilotPaymentProblemEmail(config: Config, to: string, kind: ProblemKind, p: AutopilotPaymentProblem, link: AutopilotLinkMaker, dash: string): EmailMessage {
  const budget = formatUsd(p.budgetCents / 100);
  const until = when(p.expiresAt);
  const action = kind === 'autopilot.confirm_payment' ? link(p.runId, 'confirm', p.expiresAt) : link(p.runId, 'card', p.expiresAt);
  const { subject, title, body, label } =
    kind === 'autopilot.card_needed'
      ? { subject: `Add a card to launch your ad for ${p.listingAddress}`, title: 'A card is needed to launch your ad', body: `Your ${p.adLabel} ad for ${p.listingAddress} (${budget}) is ready to launch, but there is no card to charge. Nothing launched.`, label: 'Add a card' }
      : kind === 'autopilot.confirm_payment'
        ? { subject: `Confirm the payment for your ad for ${p.listingAddress}`, title: 'Your bank asks you to confirm the payment', body: `Your bank asks you to confirm the ${budget} payment for your ${p.adLabel} ad for ${p.listingAddress}. Nothing was charged and nothing launched yet.`, label: 'Confirm the payment' }
        : { subject: `The payment for your ad for ${p.listingAddress} failed`, title: 'The payment failed', body: `We could not charge ${budget} for your ${p.adLabel} ad for ${p.listingAddress}${p.message ? `: ${p.message}` : '.'} Nothing launched. Update your card and we try again.`, label: 'Update your card' };
  const tail = `The ad waits until ${until}; after that it expires and nothing is charged.`;
  return {
    to,
    subject,
    html: layout(config, title, `<p>${esc(body)}</p><p>${esc(tail)}</p><p>${button(action, label)}</p>`, dash, AUTOPILOT_FOOTER),
    text: `${body}\n\n${tail}\n\n${label}: ${action}\n\n${dashboardText(config, dash)}`,
  };
}

export function autopilotDeliveryStoppedEmail(config: Config, to: string, p: AutopilotDeliveryStopped, dash: string): EmailMessage {
  const verb = p.mode === 'paused' ? 'paused' : 'stopped';
  const body = `Your ad for ${p.listingAddress} is ${verb}: ${p.reason}. It delivered ${p.delivered.toLocaleString('en-US')} impressions; the ${p.unusedImpressions.toLocaleString('en-US')} not delivered are recorded for your delivery guarantee.${p.mode === 'paused' ? ' If the home comes back on the market, we offer to resume it.' : ''}`;
  return {
    to,
    subject: `Your ad for ${p.listingAddress} is ${verb}`,
    html: layout(config, `Your ad is ${verb}`, `<p>${esc(body)}</p>`, dash, AUTOPILOT_FOOTER),
    text: `${body}\n\n${dashboardText(config, dash)}`,
  };
}

export function autopilotResumeOfferEmail(config: Config, to: string, p: AutopilotResumeOffer, link: AutopilotLinkMaker, dash: string): EmailMessage {
  const resume = link(p.runId, 'resume', p.expiresAt);
  const body = `${p.listingAddress} is back on the market. Your paused ad can run again${p.unusedImpressions ? ` and deliver its remaining ${p.unusedImpressions.toLocaleString('en-US')} impressions` : ''}, at no extra charge.`;
  return {
    to,
    subject: `${p.listingAddress} is back on the market: resume your ad?`,
    html: layout(config, 'Resume your ad?', `<p>${esc(body)}</p><p>${button(resume, 'Resume the ad', '#16a34a')}</p><p style="color:#6b7280;font-size:12px">The link works once, until ${esc(when(p.expiresAt))}. No login needed.</p>`, dash, AUTOPILOT_FOOTER),
    text: `${body}\n\nResume the ad: ${resume}\n\n${dashboardText(config, dash)}`,
  };
}
