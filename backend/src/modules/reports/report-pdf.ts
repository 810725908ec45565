import { createElement as h, type ReactElement } from 'react';
import sharp from 'sharp';
import { formatUsd } from '@app/contracts';
import type { Config } from '../../platform/config';
import { loadImageBytes } from '../campaigns';
import { chartGeometry, dayLabel } from './chart';
import { listingAddress, type CampaignReport } from './report-data';

/**
 * The report as a PDF (US Letter), built with @react-pdf/renderer in this process (no browser): the agent's
 * branding, the listing photo and address, the figures against the guarantee, the daily impressions-and-
 * clicks chart (react-pdf's own SVG), and the ad as it ran. Standard PDF fonts (nothing embedded) and photos
 * re-encoded at print size keep a 30-day report far under 500 KB.
 */

type ReactPdf = typeof import('@react-pdf/renderer');
let loaded: Promise<ReactPdf> | undefined;
// ESM-only package: loaded once, on first use, from this CommonJS build.
const reactPdf = () =>
  (loaded ??= import('@react-pdf/renderer').then((pdf) => {
    // Whole words only: figures and labels are never hyphenated.
    pdf.Font.registerHyphenationCallback((word) => [word]);
    return pdf;
  }));

const BLUE = '#2563eb';
const AMBER = '#d97706';
const GREY = '#6b7280';
const n = (v: number) => v.toLocaleString('en-US');
const fmtDate = (d: Date | null) => (d ? d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }) : '—');

/** A photo at print size: JPEG, at most `width` px wide. Undefined when it cannot be read (the PDF goes on without it). */
async function printImage(url: string | null | undefined, config: Config, width: number): Promise<Buffer | undefined> {
  if (!url) return undefined;
  try {
    const bytes = await loadImageBytes(url, { selfOrigin: config.PUBLIC_URL ?? `http://127.0.0.1:${config.PORT}`, allowLoopback: config.OUTBOUND_ALLOW_LOOPBACK, timeoutMs: 10_000 });
    return await sharp(bytes).rotate().resize({ width, withoutEnlargement: true }).jpeg({ quality: 72, mozjpeg: true }).toBuffer();
  } catch {
    return undefined;
  }
}

export async function renderReportPdf(report: CampaignReport, config: Config, opts: { generatedAt?: Date } = {}): Promise<Buffer> {
  const pdf = await reactPdf();
  const { Document, Page, View, Text, Image, Svg, Rect, Line, Polyline, StyleSheet } = pdf;
  const { campaign: c, listing, agent, figures: f } = report;
  const [photo, adImage, logo] = await Promise.all([
    printImage(listing?.imageUrl, config, 1000),
    printImage(c.imageUrl ?? c.carouselImages[0], config, 500),
    printImage(agent?.logoUrl ?? agent?.profileImageUrl, config, 240),
  ]);
  const s = StyleSheet.create({
    page: { padding: 36, fontSize: 10, fontFamily: 'Helvetica', color: '#1f2933' },
    row: { flexDirection: 'row' },
    h1: { fontSize: 20, fontFamily: 'Helvetica-Bold', marginBottom: 2 },
    muted: { color: GREY },
    tile: { width: '25%', padding: 6 },
    tileBox: { borderWidth: 1, borderColor: '#e5e7eb', borderRadius: 4, padding: 8 },
    tileValue: { fontSize: 15, fontFamily: 'Helvetica-Bold' },
    section: { fontSize: 12, fontFamily: 'Helvetica-Bold', marginTop: 14, marginBottom: 6 },
  });
  const tile = (label: string, value: string, note?: string) =>
    h(View, { style: s.tile, key: label }, h(View, { style: s.tileBox }, h(Text, { style: s.muted }, label), h(Text, { style: s.tileValue }, value), note ? h(Text, { style: s.muted }, note) : null));
  const deliveredPct = Math.floor((f.delivered * 100) / f.promised);
  const g = chartGeometry(report.daily, 540, 200);
  const chart = h(
    Svg,
    { width: g.width, height: g.height, viewBox: `0 0 ${g.width} ${g.height}` },
    ...g.leftTicks.map((t, i) => h(Line, { key: `g${i}`, x1: g.plot.left, x2: g.plot.right, y1: t.y, y2: t.y, stroke: '#e5e7eb', strokeWidth: 0.5 })),
    ...g.leftTicks.map((t, i) => h(Text, { key: `l${i}`, x: g.plot.left - 30, y: t.y + 3, style: { fontSize: 7 }, fill: GREY } as never, t.label)),
    ...g.rightTicks.map((t, i) => h(Text, { key: `r${i}`, x: g.plot.right + 4, y: t.y + 3, style: { fontSize: 7 }, fill: AMBER } as never, t.label)),
    ...g.bars.map((b, i) => h(Rect, { key: `b${i}`, x: b.x, y: b.y, width: b.width, height: Math.max(0, b.height), fill: BLUE })),
    g.clicks.length > 1 ? h(Polyline, { key: 'clicks', points: g.clicks.map((p) => `${p.x},${p.y}`).join(' '), stroke: AMBER, strokeWidth: 1.5, fill: 'none' }) : null,
    ...g.xLabels.map((l, i) => h(Text, { key: `x${i}`, x: l.x - 12, y: g.height - 8, style: { fontSize: 7 }, fill: GREY } as never, l.label)),
  );
  const address = listingAddress(listing) ?? 'Your listing';
  const doc: ReactElement = h(
    Document,
    { title: `Campaign report: ${address}`, author: agent?.name ?? 'Listing Ads', creator: 'Listing Ads', producer: 'Listing Ads' },
    h(
      Page,
      { size: 'LETTER', style: s.page },
      h(
        View,
        { style: [s.row, { justifyContent: 'space-between', alignItems: 'center', marginBottom: 10 }] },
        h(View, null, h(Text, { style: s.h1 }, 'Campaign report'), h(Text, { style: s.muted }, `${fmtDate(c.startsAt)} – ${fmtDate(c.endedAt ?? c.endsAt)}`)),
        h(
          View,
          { style: [s.row, { alignItems: 'center' }] },
          logo ? h(Image, { src: { data: logo, format: 'jpg' }, style: { width: 40, height: 40, marginRight: 8, objectFit: 'contain' } }) : null,
          h(View, null, h(Text, { style: { fontFamily: 'Helvetica-Bold' } }, agent?.name ?? ''), h(Text, { style: s.muted }, agent?.brokerage ?? ''), agent?.phone ? h(Text, { style: s.muted }, agent.phone) : null),
        ),
      ),
      photo ? h(Image, { src: { data: photo, format: 'jpg' }, style: { width: '100%', height: 190, objectFit: 'cover', borderRadius: 4 } }) : null,
      h(Text, { style: [s.section, { marginTop: 8 }] }, address),
      listing?.price ? h(Text, { style: s.muted }, `${formatUsd(Number(listing.price))} · MLS # ${listing.mlsId}`) : null,
      h(Text, { style: s.section }, 'Results'),
      h(
        View,
        { style: [s.row, { flexWrap: 'wrap', marginHorizontal: -6 }] },
        tile('Impressions', n(f.delivered), `${deliveredPct}% of ${n(f.promised)} guaranteed`),
        tile('People reached', n(f.reach)),
        tile('Clicks', n(f.clicks)),
        tile('Click-through rate', `${f.ctrPercent.toFixed(2)}%`),
        tile('Frequency', f.frequency.toFixed(2), 'impressions per person'),
        tile('Listing-page views', n(f.listingPageViews)),
        tile('Leads', n(f.leads)),
      ),
      h(Text, { style: s.section }, 'Daily impressions and clicks'),
      h(View, { style: [s.row, { marginBottom: 4 }] }, h(Text, { style: { color: BLUE, marginRight: 12 } }, '■ Impressions'), h(Text, { style: { color: AMBER } }, '— Clicks')),
      report.daily.length ? chart : h(Text, { style: s.muted }, 'No delivery yet.'),
      h(Text, { style: s.section, minPresenceAhead: 120 } as never, 'The ad as it ran'),
      h(
        View,
        { style: [s.row, { borderWidth: 1, borderColor: '#e5e7eb', borderRadius: 4, padding: 8 }] },
        adImage ? h(Image, { src: { data: adImage, format: 'jpg' }, style: { width: 160, height: 120, objectFit: 'cover', marginRight: 10 } }) : null,
        h(View, { style: { flex: 1 } }, h(Text, { style: { fontFamily: 'Helvetica-Bold', marginBottom: 4 } }, c.headline ?? ''), h(Text, null, c.primaryText ?? '')),
      ),
      h(
        Text,
        { style: [s.muted, { marginTop: 16, fontSize: 8 }] },
        `Prepared by Listing Ads for ${agent?.name ?? 'the agent'} on ${fmtDate(opts.generatedAt ?? new Date())}. Figures as reported by the ad platform; listing-page views and leads counted by Listing Ads.`,
      ),
    ),
  );
  const out = await pdf.renderToBuffer(doc as never);
  return Buffer.from(out);
}

export { dayLabel };
