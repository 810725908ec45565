import fs from 'node:fs';
import Router from '@koa/router';
import { z } from 'zod';
import type { Context } from 'koa';
import { isManualMlsId, mlsIdParam, type ListingResponse, type PublicCampaign } from '@app/contracts';
import type { AppDeps } from '../../platform/deps';
import { publicOrigin } from '../../platform/config';
import { answerConditionally, etagOf } from '../../platform/http/conditional';
import { defineRoutes, route } from '../../platform/http/route';
import { findListingResponse, PUBLIC_LISTING_CACHE } from '../listings';
import { findPublicCampaign } from '../campaigns';
import { formTokenStep, leadFormTokens } from '../leads';
import { loadListingPageRenderer, type ListingPageRenderer } from './renderer';
import { OgImages } from './og-image';
import { PageViewCounter } from './page-views';

type Kind = 'listing' | 'manual';

interface Rendered {
  status: 200 | 404;
  tag: string;
  /** The document as UTF-8 bytes, cut where the per-request form token goes (TOKEN_SLOT). */
  head: Buffer;
  tail: Buffer | null;
  expires: number;
  /** The whole document for the current token step: the pages of one step share their token and their bytes. */
  body?: { step: number; bytes: Buffer };
}

/** Stands in for the form token in a cached render; filled in once per token step (the token is the render time). */
const TOKEN_SLOT = 'LEADFORMTOKEN0SLOT';
/** A few seconds of staleness on a page that proxies may cache for a minute is harmless; it spares the database and React. */
const RENDER_TTL_MS = 5_000;
const RENDER_CACHE_MAX = 500;

/** Server-rendered public listing pages (spec 001 §2): /listing/:mlsId, /manual-listing/:mlsId, and their share image. */
const html = (description: string) => ({ contentType: 'text/html', description });

export const listingPagesRoutes = defineRoutes({
  listing: {
    method: 'get', path: '/listing/:mlsId', auth: 'public', tag: 'pages', summary: 'The public listing page, server-rendered (Open Graph, JSON-LD)',
    ok: { 200: html('The listing page'), 302: html('A manual listing: to /manual-listing/{mlsId}'), 304: html('Not modified'), 404: html('Property Not Found') },
  },
  manualListing: {
    method: 'get', path: '/manual-listing/:mlsId', auth: 'public', tag: 'pages', summary: 'The public page of a manually entered listing, server-rendered',
    ok: { 200: html('The listing page'), 304: html('Not modified'), 404: html('Property Not Found') },
  },
  ogImage: {
    method: 'get', path: '/og/listing/:file', auth: 'public', tag: 'pages', summary: "The listing's 1200×630 share image ({mlsId}.jpg)",
    ok: {
      200: { contentType: 'image/*', schema: z.string().meta({ format: 'binary' }), description: 'The image bytes' },
      304: { contentType: 'image/*', description: 'Not modified' },
      404: { contentType: 'text/plain', description: 'No such listing' },
    },
  },
});

export function listingPagesRouter(deps: AppDeps, opts: { renderer?: () => ListingPageRenderer; views?: PageViewCounter } = {}): Router {
  const router = new Router();
  const tokens = leadFormTokens(deps);
  const ogImages = new OgImages(deps.config.DATA_DIR);
  let renderer: ListingPageRenderer | undefined;
  const getRenderer = () => (renderer ??= (opts.renderer ?? loadListingPageRenderer)());
  const cache = new Map<string, Rendered>();
  const views = deps.config.LISTING_PAGE_VIEWS ? (opts.views ?? new PageViewCounter(deps.db, deps.logger)) : undefined;

  // Canonical, Open Graph and JSON-LD URLs: from configuration, never from the request's Host (the page is cached).
  const origin = publicOrigin(deps.config);

  async function render(kind: Kind, mlsId: string): Promise<Rendered> {
    const key = `${kind}|${mlsId}`;
    const hit = cache.get(key);
    if (hit && hit.expires > Date.now()) return hit;
    const r = getRenderer();
    const valid = mlsIdParam.safeParse(mlsId).success;
    const response: ListingResponse | undefined = valid ? await findListingResponse(mlsId) : undefined;
    const campaign: PublicCampaign = response && kind === 'manual' ? await findPublicCampaign(response.listing.id) : null;
    const path = `/${kind === 'manual' ? 'manual-listing' : 'listing'}/${encodeURIComponent(mlsId)}`;
    const page = { kind: response ? kind : 'not-found', mlsId, response: response ?? null, campaign, formToken: TOKEN_SLOT, pageUrl: `${origin}${path}` };
    const ogImage = response ? `${origin}/og/listing/${encodeURIComponent(mlsId)}.jpg` : null;
    const html = r.bundle.renderListingDocument({ page, origin, ogImage, assets: r.assets });
    // Encoded once per render: a response then only joins the bytes around its token, instead of
    // replacing it in a 28 KB string and encoding that again.
    // A page without a form (none so far) has no slot: it is all head.
    const at = html.indexOf(TOKEN_SLOT);
    const head = Buffer.from(at < 0 ? html : html.slice(0, at));
    const tail = at < 0 ? null : Buffer.from(html.slice(at + TOKEN_SLOT.length));
    const rendered: Rendered = { status: response ? 200 : 404, tag: etagOf({ v: r.version, page }), head, tail, expires: Date.now() + RENDER_TTL_MS };
    if (cache.size >= RENDER_CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(key, rendered);
    return rendered;
  }

  async function sendPage(ctx: Context, kind: Kind, mlsId: string) {
    const page = await render(kind, mlsId);
    if (page.status === 404) {
      ctx.status = 404;
      ctx.set('Cache-Control', 'no-store');
      ctx.set('X-Robots-Tag', 'noindex');
    } else {
      // A view of a page that exists (a revalidation too): an increment in memory, written every few seconds.
      views?.count(mlsId);
      // Weak: two renders differ only in the form token, which either copy may use.
      if (answerConditionally(ctx, page.tag, { ...PUBLIC_LISTING_CACHE, weak: true })) return;
    }
    ctx.type = 'text/html; charset=utf-8';
    if (!page.tail) {
      ctx.body = page.head;
      return;
    }
    const now = Date.now();
    const step = formTokenStep(now);
    if (page.body?.step !== step) {
      const token = Buffer.from(tokens.issue(mlsId, now));
      page.body = { step, bytes: Buffer.concat([page.head, token, page.tail], page.head.length + token.length + page.tail.length) };
    }
    ctx.body = page.body.bytes;
  }

  route(router, listingPagesRoutes.listing, async (ctx) => {
    const mlsId = ctx.params.mlsId;
    if (isManualMlsId(mlsId)) {
      ctx.status = 302;
      ctx.redirect(`/manual-listing/${encodeURIComponent(mlsId)}`);
      return;
    }
    await sendPage(ctx, 'listing', mlsId);
  });

  route(router, listingPagesRoutes.manualListing, async (ctx) => {
    await sendPage(ctx, 'manual', ctx.params.mlsId);
  });

  // The share image named by og:image: 1200×630 JPEG, made once per content and kept under DATA_DIR/og/.
  route(router, listingPagesRoutes.ogImage, async (ctx) => {
    const m = /^(.+)\.jpg$/.exec(ctx.params.file);
    const mlsId = m?.[1] ?? '';
    const response = mlsIdParam.safeParse(mlsId).success ? await findListingResponse(mlsId) : undefined;
    if (!response) {
      ctx.status = 404;
      return;
    }
    const file = await ogImages.fileFor(response);
    if (answerConditionally(ctx, etagOf(file), { maxAge: 3600, staleWhileRevalidate: 86_400 })) return;
    ctx.type = 'image/jpeg';
    ctx.body = fs.createReadStream(file);
  });

  return router;
}
