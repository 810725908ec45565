import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { agentReportSchema, agentReportsSchema, idParam, type AgentReport } from '@app/contracts';
import type { AppDeps } from '../../platform/deps';
import type { Db } from '../../platform/db/knex';
import { actorOf } from '../../platform/auth/actor';
import { defineRoutes, route } from '../../platform/http/route';
import { rateLimit } from '../../platform/http/rate-limit';
import { assertAgentAccess } from '../agents';
import { findAgentCampaignDeliveries, findCampaignDeliveries } from '../campaigns';
import { creditsOfCampaigns } from '../payments';
import { findListingCards } from '../listings';
import { figuresFor, listingAddress, loadCampaignReport } from './report-data';
import { publicOrigin, ReportLinks, sellerUrl } from './report-links';
import { renderReportPdf } from './report-pdf';
import { renderSellerPage } from './seller-page';
import { reportNotFinal, reportNotFound, sellerLinkNotFound } from './reports.errors';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
/** A PDF costs a few hundred milliseconds of CPU: renders per client address (public link) and per agent. */
export const PDF_RATE_LIMIT = { points: 30, durationSeconds: 10 * 60 } as const;
const reportParams = z.object({ id: idParam, campaignId: idParam });
const pdf = { contentType: 'application/pdf', schema: z.string().meta({ format: 'binary' }), description: 'The PDF' };
const html = (description: string) => ({ contentType: 'text/html', description });

export const reportsRoutes = defineRoutes({
  list: {
    method: 'get', path: '/api/agents/:id/reports', auth: 'agent', tag: 'reports', summary: "The agent's campaign reports: running (figures so far) and final (settled), with the seller link and the PDF",
    params: z.object({ id: idParam }), ok: { 200: agentReportsSchema }, errors: [403, 404],
  },
  pdf: {
    method: 'get', path: '/api/agents/:id/reports/:campaignId/pdf', auth: 'agent', tag: 'reports', summary: 'The report as a PDF (30 renders per 10 minutes)',
    params: reportParams, ok: { 200: pdf }, errors: [403, 404, 429],
  },
  newSellerLink: {
    method: 'post', path: '/api/agents/:id/reports/:campaignId/seller-link', auth: 'agent', tag: 'reports', summary: 'A new seller link for a final report (after a revocation; an existing live link stays)',
    params: reportParams, body: { contentType: 'application/json', schema: z.object({}), description: 'Empty: the path names the report' }, ok: { 200: agentReportSchema }, errors: [403, 404, 409],
  },
  revokeSellerLink: {
    method: 'delete', path: '/api/agents/:id/reports/:campaignId/seller-link', auth: 'agent', tag: 'reports', summary: 'Revoke the seller link: it answers 404 from now on',
    params: reportParams, ok: { 200: agentReportSchema }, errors: [403, 404],
  },
  sellerPage: {
    method: 'get', path: '/report/:token', auth: 'public', tag: 'pages', summary: "The seller's report page: public, server-rendered, noindex, Open Graph; counts only",
    ok: { 200: html('The report page'), 404: html('Report not available (unknown or revoked link)') },
  },
  sellerPdf: {
    method: 'get', path: '/report/:token/report.pdf', auth: 'public', tag: 'pages', summary: "The seller's report as a PDF (30 renders per 10 minutes per client)",
    ok: { 200: pdf, 404: { contentType: 'application/json', description: 'Unknown or revoked link' } }, errors: [429],
  },
});

/** The agent's reports: running campaigns (figures so far) and settled ones (final), newest first. */
export async function listAgentReports(db: Db, links: ReportLinks, origin: string, agentId: number): Promise<AgentReport[]> {
  const campaigns = await findAgentCampaignDeliveries(db, agentId);
  if (!campaigns.length) return [];
  const ids = campaigns.map((c) => c.id);
  const [listings, credits, tokens] = await Promise.all([findListingCards(campaigns.map((c) => c.listingId)), creditsOfCampaigns(db, ids), links.liveTokens(db, ids)]);
  const figures = await figuresFor(db, campaigns, listings);
  return campaigns.map((c) => ({
    campaignId: c.id,
    headline: c.headline,
    listingAddress: listingAddress(listings.get(c.listingId)),
    status: c.settledAt ? 'final' : 'running',
    startsAt: iso(c.startsAt),
    endsAt: iso(c.endsAt),
    settledAt: iso(c.settledAt),
    figures: figures.get(c.id)!,
    credit: credits.get(c.id) ?? null,
    sellerUrl: c.settledAt && tokens.has(c.id) ? sellerUrl(origin, tokens.get(c.id)!) : null,
    pdfUrl: `/api/agents/${agentId}/reports/${c.id}/pdf`,
  }));
}

function pdfName(address: string | null, campaignId: number): string {
  const base = (address ?? `campaign-${campaignId}`).replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);
  return `report-${base || campaignId}.pdf`;
}

/** GET /api/agents/:id/reports, the PDF, and the seller link's creation and revocation (behind the agent's login). */
export function reportsRouter({ config, db, caches }: AppDeps): Router {
  const router = new Router();
  const links = ReportLinks.fromConfig(config);
  const origin = publicOrigin(config);

  async function ownCampaign(ctx: Context, params: { id: number; campaignId: number }) {
    await assertAgentAccess({ caches }, actorOf(ctx), params.id, 'signed_in');
    const c = (await findCampaignDeliveries([params.campaignId], db)).get(params.campaignId);
    if (!c || c.agentId !== params.id || !['active', 'completed'].includes(c.status)) throw reportNotFound();
    return c;
  }

  route(router, reportsRoutes.list, async (ctx, { params: { id } }) => {
    await assertAgentAccess({ caches }, actorOf(ctx), id, 'signed_in');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listAgentReports(db, links, origin, id);
  });

  route(router, reportsRoutes.pdf, rateLimit({ name: 'report-pdf-agent', ...PDF_RATE_LIMIT, key: (ctx) => String(ctx.params.id) }), async (ctx, { params }) => {
    await ownCampaign(ctx, params);
    const report = (await loadCampaignReport(db, params.campaignId))!;
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Disposition', `attachment; filename="${pdfName(listingAddress(report.listing), params.campaignId)}"`);
    ctx.type = 'application/pdf';
    ctx.body = await renderReportPdf(report, config);
  });

  // A new seller link (after a revocation): only for a final report.
  route(router, reportsRoutes.newSellerLink, async (ctx, { params }) => {
    const c = await ownCampaign(ctx, params);
    if (!c.settledAt) throw reportNotFinal();
    await links.create(db, [{ campaignId: c.id, agentId: c.agentId }]);
    ctx.body = (await listAgentReports(db, links, origin, params.id)).find((r) => r.campaignId === c.id);
  });

  route(router, reportsRoutes.revokeSellerLink, async (ctx, { params }) => {
    const c = await ownCampaign(ctx, params);
    await links.revoke(db, c.id);
    ctx.body = (await listAgentReports(db, links, origin, params.id)).find((r) => r.campaignId === c.id);
  });

  return router;
}

/**
 * The seller's page /report/{token} and its PDF: public (no login), noindex, never cached by browsers or
 * proxies (a revoked link stops working at once). An unknown, malformed or revoked token is the same 404.
 */
export function reportPagesRouter({ config, db }: AppDeps): Router {
  const router = new Router();
  const links = ReportLinks.fromConfig(config);

  async function reportFor(token: string) {
    const campaignId = await links.resolve(db, token);
    const report = campaignId ? await loadCampaignReport(db, campaignId) : undefined;
    if (!report) throw sellerLinkNotFound();
    return report;
  }

  route(router, reportsRoutes.sellerPage, async (ctx) => {
    ctx.set('X-Robots-Tag', 'noindex, nofollow');
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    let report;
    try {
      report = await reportFor(ctx.params.token);
    } catch {
      ctx.status = 404;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><link rel="icon" href="data:,"><title>Report not available</title></head><body style="font-family:system-ui,sans-serif;max-width:560px;margin:40px auto;padding:16px"><h1>Report not available</h1><p>This report link is not available. Ask your agent for a new one.</p></body></html>';
      return;
    }
    const origin = config.PUBLIC_URL ? new URL(config.PUBLIC_URL).origin : `${ctx.protocol}://${ctx.host}`;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = renderSellerPage(report, { origin, pageUrl: `${origin}/report/${ctx.params.token}` });
  });

  route(router, reportsRoutes.sellerPdf, rateLimit({ name: 'report-pdf-public', ...PDF_RATE_LIMIT }), async (ctx) => {
    ctx.set('X-Robots-Tag', 'noindex, nofollow');
    ctx.set('Cache-Control', 'no-store');
    const report = await reportFor(ctx.params.token);
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `inline; filename="${pdfName(listingAddress(report.listing), report.campaign.id)}"`);
    ctx.body = await renderReportPdf(report, config);
  });

  return router;
}
