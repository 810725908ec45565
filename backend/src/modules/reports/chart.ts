import type { ReportDay } from '@app/contracts';

/**
 * The daily impressions-and-clicks chart as geometry: bars for impressions (left scale), a line for clicks
 * (right scale), nice round ticks. Drawn twice from the same numbers: inline SVG on the seller page, and
 * react-pdf's SVG in the PDF.
 */
export interface ChartGeometry {
  width: number;
  height: number;
  plot: { left: number; top: number; right: number; bottom: number };
  bars: { x: number; y: number; width: number; height: number; day: string; impressions: number }[];
  clicks: { x: number; y: number }[];
  leftTicks: { y: number; label: string }[];
  rightTicks: { y: number; label: string }[];
  xLabels: { x: number; label: string }[];
}

/** 1, 2 or 5 × 10^k at or above `v` (at least 1). */
export function niceMax(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

const short = (n: number) => (n >= 1_000_000 ? `${+(n / 1_000_000).toFixed(1)}M` : n >= 1000 ? `${+(n / 1000).toFixed(1)}k` : String(n));
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export const dayLabel = (day: string) => `${MONTHS[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}`;

export function chartGeometry(days: ReportDay[], width = 640, height = 240): ChartGeometry {
  const plot = { left: 44, top: 12, right: width - 40, bottom: height - 28 };
  const w = plot.right - plot.left;
  const h = plot.bottom - plot.top;
  const maxImp = niceMax(Math.max(0, ...days.map((d) => d.impressions)));
  const maxClk = niceMax(Math.max(0, ...days.map((d) => d.clicks)));
  const slot = days.length ? w / days.length : w;
  const barW = Math.max(1, slot * 0.7);
  const bars = days.map((d, i) => {
    const bh = (d.impressions / maxImp) * h;
    return { x: plot.left + i * slot + (slot - barW) / 2, y: plot.bottom - bh, width: barW, height: bh, day: d.day, impressions: d.impressions };
  });
  const clicks = days.map((d, i) => ({ x: plot.left + i * slot + slot / 2, y: plot.bottom - (d.clicks / maxClk) * h }));
  const ticks = (max: number) => [0, 0.25, 0.5, 0.75, 1].map((f) => ({ y: plot.bottom - f * h, label: short(Math.round(max * f)) }));
  const every = Math.max(1, Math.ceil(days.length / 8));
  const xLabels = days.map((d, i) => ({ x: plot.left + i * slot + slot / 2, label: dayLabel(d.day), i })).filter((l) => l.i % every === 0).map(({ x, label }) => ({ x, label }));
  return { width, height, plot, bars, clicks, leftTicks: ticks(maxImp), rightTicks: ticks(maxClk), xLabels };
}

const r1 = (n: number) => Math.round(n * 10) / 10;
const escXml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The chart as an SVG element for the seller page (numbers and dates only). */
export function chartSvg(days: ReportDay[], title: string): string {
  const g = chartGeometry(days);
  const parts: string[] = [];
  for (const t of g.leftTicks) {
    parts.push(`<line x1="${g.plot.left}" x2="${g.plot.right}" y1="${r1(t.y)}" y2="${r1(t.y)}" stroke="#e5e7eb"/>`);
    parts.push(`<text x="${g.plot.left - 6}" y="${r1(t.y + 4)}" text-anchor="end">${t.label}</text>`);
  }
  for (const t of g.rightTicks) parts.push(`<text x="${g.plot.right + 6}" y="${r1(t.y + 4)}" fill="#b45309">${t.label}</text>`);
  for (const b of g.bars) parts.push(`<rect x="${r1(b.x)}" y="${r1(b.y)}" width="${r1(b.width)}" height="${r1(b.height)}" fill="#2563eb" rx="1"><title>${escXml(dayLabel(b.day))}: ${b.impressions} impressions</title></rect>`);
  if (g.clicks.length > 1) parts.push(`<polyline fill="none" stroke="#d97706" stroke-width="2" points="${g.clicks.map((p) => `${r1(p.x)},${r1(p.y)}`).join(' ')}"/>`);
  for (const l of g.xLabels) parts.push(`<text x="${r1(l.x)}" y="${g.height - 8}" text-anchor="middle">${escXml(l.label)}</text>`);
  return `<svg viewBox="0 0 ${g.width} ${g.height}" width="100%" role="img" aria-label="${escXml(title)}" font-size="11" fill="#4b5563">${parts.join('')}</svg>`;
}
