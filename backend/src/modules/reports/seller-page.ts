import type { PublicAgent } from '@app/contracts';
import { chartSvg } from './chart';
import { listingAddress, type CampaignReport } from './report-data';

/**
 * The seller's page (/report/{token}): a public, server-rendered document with no script at all (nothing to
 * hydrate), Open Graph tags for the link preview, and noindex. It shows the agent's branding, the listing,
 * the ad as it ran, the figures against the guarantee and the daily chart. Counts only: no buyer's name or
 * contact, and nothing about money (the price paid, credits) either.
 */
const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const n = (v: number) => v.toLocaleString('en-US');
const fmtDate = (d: Date | null) => (d ? d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }) : '—');

function absolute(origin: string, url: string): string {
  return /^https?:\/\//.test(url) ? url : `${origin}${url.startsWith('/') ? '' : '/'}${url}`;
}

/** Our uploads have resized variants (?w=); other photos are used as they are. */
function img(url: string, alt: string, width: number, height: number, attrs = ''): string {
  const upload = /^\/objects\/uploads\/[0-9a-f-]{36}$/i.test(url);
  const src = upload ? `${url}?w=640` : url;
  const set = upload ? ` srcset="${esc([320, 640, 1280].map((w) => `${url}?w=${w} ${w}w`).join(', '))}" sizes="(min-width: 720px) 680px, 100vw"` : '';
  return `<img src="${esc(src)}"${set} alt="${esc(alt)}" width="${width}" height="${height}"${attrs}>`;
}

const CSS = `*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1f2933;background:#f8fafc;line-height:1.45}
main{max-width:720px;margin:0 auto;padding:16px}header{display:flex;align-items:center;gap:12px;margin-bottom:12px}
header img{border-radius:50%;object-fit:cover;width:48px;height:48px}h1{font-size:1.5rem;margin:0}h2{font-size:1.1rem;margin:24px 0 8px}
.muted{color:#4b5563}.photo{width:100%;height:auto;aspect-ratio:16/9;object-fit:cover;border-radius:8px;display:block;background:#e5e7eb}
.tiles{display:grid;grid-template-columns:repeat(2,1fr);gap:8px}@media(min-width:600px){.tiles{grid-template-columns:repeat(4,1fr)}}
.tile{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:10px}.tile b{display:block;font-size:1.3rem}
.bar{height:8px;background:#e5e7eb;border-radius:4px;overflow:hidden;margin-top:6px}.bar i{display:block;height:100%;background:#2563eb}
.card{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:12px}.ad{display:flex;gap:12px;flex-wrap:wrap}
.ad img{width:160px;height:120px;object-fit:cover;border-radius:6px}.legend span{margin-right:12px}.k1{color:#1d4ed8}.k2{color:#b45309}
footer{margin:24px 0;font-size:.85rem;color:#4b5563}`;

export function renderSellerPage(report: CampaignReport, input: { origin: string; pageUrl: string }): string {
  const { campaign: c, listing, agent, figures: f } = report;
  const address = listingAddress(listing) ?? 'Listing';
  const title = `Ad results: ${address}`;
  const pct = Math.floor((f.delivered * 100) / f.promised);
  const desc = `${n(f.delivered)} impressions, ${n(f.reach)} people reached, ${n(f.clicks)} clicks and ${n(f.listingPageViews)} listing-page views for ${address}.`;
  const photo = listing?.imageUrl ?? null;
  const ogImage = photo ? absolute(input.origin, photo) : null;
  const tiles: [string, string, string?][] = [
    ['Impressions', n(f.delivered), `${Math.min(pct, 999)}% of ${n(f.promised)} guaranteed`],
    ['People reached', n(f.reach)],
    ['Clicks', n(f.clicks)],
    ['Click-through rate', `${f.ctrPercent.toFixed(2)}%`],
    ['Frequency', f.frequency.toFixed(2), 'impressions per person'],
    ['Listing-page views', n(f.listingPageViews)],
    ['Leads', n(f.leads)],
  ];
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow">',
    '<link rel="icon" href="data:,">',
    `<title>${esc(title)}</title>`,
    `<meta name="description" content="${esc(desc)}">`,
    '<meta property="og:type" content="website">',
    '<meta property="og:site_name" content="Listing Ads">',
    `<meta property="og:title" content="${esc(title)}">`,
    `<meta property="og:description" content="${esc(desc)}">`,
    `<meta property="og:url" content="${esc(input.pageUrl)}">`,
    ...(ogImage ? [`<meta property="og:image" content="${esc(ogImage)}">`, `<meta name="twitter:image" content="${esc(ogImage)}">`] : []),
    `<meta name="twitter:card" content="${ogImage ? 'summary_large_image' : 'summary'}">`,
    `<meta name="twitter:title" content="${esc(title)}">`,
    `<meta name="twitter:description" content="${esc(desc)}">`,
    ...(photo ? [`<link rel="preload" as="image" href="${esc(/^\/objects\/uploads\//.test(photo) ? `${photo}?w=640` : photo)}" fetchpriority="high">`] : []),
    `<style>${CSS}</style>`,
  ].join('');
  const agentBlock = agentHeader(agent);
  const body = `<main>
${agentBlock}
<h1>${esc(title)}</h1>
<p class="muted">${esc(fmtDate(c.startsAt))} – ${esc(fmtDate(c.endedAt ?? c.endsAt))}${c.endedAt ? '' : ' (running)'}</p>
${photo ? img(photo, address, 1280, 720, ' class="photo" fetchpriority="high"') : ''}
<h2>Results</h2>
<div class="tiles">${tiles
    .map(([label, value, note], i) => `<div class="tile"><span class="muted">${esc(label)}</span><b>${esc(value)}</b>${note ? `<span class="muted">${esc(note)}</span>` : ''}${i === 0 ? `<div class="bar" role="presentation"><i style="width:${Math.min(100, pct)}%"></i></div>` : ''}</div>`)
    .join('')}</div>
<h2>Daily impressions and clicks</h2>
<div class="card"><p class="legend"><span class="k1">■ Impressions</span><span class="k2">— Clicks</span></p>${report.daily.length ? chartSvg(report.daily, `Daily impressions and clicks for ${address}`) : '<p class="muted">No delivery yet.</p>'}</div>
<h2>The ad as it ran</h2>
<div class="card ad">${c.imageUrl ? img(c.imageUrl, 'The ad’s image', 160, 120, ' loading="lazy"') : ''}<div><strong>${esc(c.headline ?? '')}</strong><p>${esc(c.primaryText ?? '')}</p></div></div>
<footer>Figures as reported by the ad platform (Facebook and Instagram); listing-page views and leads counted by Listing Ads. Leads are shown as a count only.</footer>
</main>`;
  return `<!doctype html><html lang="en"><head>${head}</head><body>${body}</body></html>`;
}

function agentHeader(agent: PublicAgent | null): string {
  if (!agent) return '';
  const pic = agent.profileImageUrl ?? agent.logoUrl;
  const contact = [agent.phone, agent.email].filter(Boolean).map((x) => esc(x)).join(' · ');
  return `<header>${pic ? img(pic, agent.name, 48, 48) : ''}<div><strong>${esc(agent.name)}</strong>${agent.brokerage ? `<br><span class="muted">${esc(agent.brokerage)}</span>` : ''}${contact ? `<br><span class="muted">${contact}</span>` : ''}</div></header>`;
}
