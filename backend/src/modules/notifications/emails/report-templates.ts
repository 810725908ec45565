import { formatCents } from '@app/contracts';
import type { Config } from '../../../platform/config';
import type { EmailMessage } from '../../../platform/email/mailer';
import { dashboardLink, esc } from './templates';

/** A campaign report as its email tells it (a snapshot the reports module takes when it records the report). */
export interface CampaignReportEmail {
  kind: 'mid_flight' | 'final';
  campaignId: number;
  agentId: number;
  /** "12 Palm Ave, Tampa, FL". */
  listingAddress: string | null;
  figures: {
    promised: number;
    delivered: number;
    reach: number;
    clicks: number;
    /** Percent, two decimals. */
    ctrPercent: number;
    frequency: number;
    listingPageViews: number;
    leads: number;
  };
  /** Mid-flight: how far the flight and the delivery are (percent), and whether delivery keeps pace. */
  pace?: { flightPercent: number; deliveredPercent: number; onTrack: boolean };
  /** Final: the credit for a shortfall, if any. */
  credit?: { amountCents: number; method: 'refund' | 'account_credit' } | null;
  /** Final: the seller link (a public page) and the PDF (the dashboard's download, behind the agent's login). */
  sellerUrl?: string;
  pdfPath?: string;
}

const n = (v: number) => v.toLocaleString('en-US');

function figureRows(r: CampaignReportEmail): { label: string; value: string }[] {
  const f = r.figures;
  return [
    { label: 'Impressions', value: `${n(f.delivered)} of ${n(f.promised)} guaranteed` },
    { label: 'People reached', value: n(f.reach) },
    { label: 'Clicks', value: n(f.clicks) },
    { label: 'Click-through rate', value: `${f.ctrPercent.toFixed(2)}%` },
    { label: 'Frequency', value: f.frequency.toFixed(2) },
    { label: 'Listing-page views', value: n(f.listingPageViews) },
    { label: 'Leads', value: n(f.leads) },
  ];
}

function page(title: string, inner: string, dashboardUrl: string): string {
  return `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;max-width:600px;margin:0 auto;padding:16px">
<h2 style="margin:0 0 12px">${esc(title)}</h2>${inner}
<p style="margin-top:24px"><a href="${esc(dashboardUrl)}" style="background:#2563eb;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">Open your dashboard</a></p>
<p style="color:#6b7280;font-size:12px">You get this email because you ran a campaign with Listing Ads. Every impression we guarantee is checked at the end of the flight, and any shortfall is credited automatically.</p>
</body></html>`;
}

function creditSentence(r: CampaignReportEmail): string | null {
  if (!r.credit) return null;
  const amount = formatCents(r.credit.amountCents);
  const missing = r.figures.promised - r.figures.delivered;
  return r.credit.method === 'refund'
    ? `Your campaign delivered ${n(missing)} impressions fewer than guaranteed, so we are refunding ${amount} to your card (it appears within 5–10 business days).`
    : `Your campaign delivered ${n(missing)} impressions fewer than guaranteed, so we added ${amount} of account credit: your next checkout uses it automatically.`;
}

/** The mid-flight and final report emails: the figures, the pace or the credit, the seller link and the PDF. */
export function campaignReportEmail(config: Config, to: string, r: CampaignReportEmail): EmailMessage {
  const dash = dashboardLink(config, r.agentId);
  const where = r.listingAddress ? `: ${r.listingAddress}` : '';
  const rows = figureRows(r);
  const table = `<table style="border-collapse:collapse;width:100%">${rows
    .map((x) => `<tr><td style="padding:4px 8px;color:#6b7280">${esc(x.label)}</td><td style="padding:4px 8px;text-align:right"><strong>${esc(x.value)}</strong></td></tr>`)
    .join('')}</table>`;
  const text = rows.map((x) => `${x.label}: ${x.value}`).join('\n');
  if (r.kind === 'mid_flight') {
    const p = r.pace!;
    const pace = p.onTrack
      ? `Halfway there: ${p.flightPercent}% of the flight has passed and ${p.deliveredPercent}% of the guaranteed impressions are delivered. Delivery is on pace for the goal.`
      : `Halfway there: ${p.flightPercent}% of the flight has passed and ${p.deliveredPercent}% of the guaranteed impressions are delivered. Delivery is behind pace; if it falls short at the end, the difference is credited automatically.`;
    return {
      to,
      subject: `Halfway report${where}`,
      html: page('Your campaign at halfway', `<p>${esc(pace)}</p>${table}`, dash),
      text: `Your campaign at halfway\n\n${pace}\n\n${text}\n\nYour dashboard: ${dash}\n`,
    };
  }
  const credit = creditSentence(r);
  const kept = r.figures.delivered >= r.figures.promised ? 'Your campaign delivered every impression we guaranteed.' : null;
  const pdf = r.pdfPath ? `${dash.replace(/\/dashboard.*$/, '')}${r.pdfPath}` : null;
  const links = [
    r.sellerUrl ? `<p>Share the results with your seller: <a href="${esc(r.sellerUrl)}">${esc(r.sellerUrl)}</a> (no login needed; you can turn the link off on your dashboard).</p>` : '',
    pdf ? `<p><a href="${esc(pdf)}">Download the PDF report</a></p>` : '',
  ].join('');
  return {
    to,
    subject: `Final report${where}`,
    html: page('Your campaign report', `${kept ? `<p>${esc(kept)}</p>` : ''}${credit ? `<p>${esc(credit)}</p>` : ''}${table}${links}`, dash),
    text: `Your campaign report\n\n${kept ? `${kept}\n\n` : ''}${credit ? `${credit}\n\n` : ''}${text}\n\n${r.sellerUrl ? `Seller link: ${r.sellerUrl}\n` : ''}${pdf ? `PDF report: ${pdf}\n` : ''}\nYour dashboard: ${dash}\n`,
  };
}
