import crypto from 'node:crypto';
import fs from 'node:fs';
import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { MAX_UPLOAD_BYTES, storedUploadSchema, uploadSlotSchema } from '@app/contracts';
import { defineRoutes, route } from '../../platform/http/route';
import { consumeRateLimit, rateLimit } from '../../platform/http/rate-limit';
import { SESSION_COOKIE } from '../../platform/http/session-store';
import { actorOf, type Actor } from '../../platform/auth/actor';
import { AppError } from '../../platform/errors';
import { getAccessibleAgent } from '../agents';
import { agentRequired } from './uploads.errors';
import type { AppDeps } from '../../platform/deps';
import { publicOrigin } from '../../platform/config';
import { createUploadStorages } from './providers';
import { discardRest } from './providers/local-disk';
import { UUID_PATTERN } from './providers/upload-storage';
import { VARIANT_CONTENT_TYPES, VARIANT_WIDTHS, VariantCache, acceptsWebp, type VariantWidth } from './variants';
import { createUpload, findServableUpload, openOriginal, receiveLocalUpload, variantOf, type UploadsDeps } from './uploads.service';

const INVALID_UPLOAD_ID = 'Invalid upload id';
const uploadId = z.string({ error: INVALID_UPLOAD_ID }).trim().toLowerCase().regex(UUID_PATTERN, { error: INVALID_UPLOAD_ID });
const widthMessage = `w must be one of ${VARIANT_WIDTHS.join(', ')}`;

/** The spec's call takes an empty body; anything sent is ignored. */
const PutLocalUpload = {
  params: z.object({ id: uploadId }),
  // Checked by the signature verification itself: anything malformed is a 403 like a forged link.
  query: z.object({ expires: z.unknown().optional(), sig: z.unknown().optional() }),
};
const ServeUpload = {
  params: z.object({ id: uploadId }),
  query: z.object({
    w: z
      .enum(VARIANT_WIDTHS.map(String) as [string, ...string[]], { error: widthMessage })
      .transform((w) => Number(w) as VariantWidth)
      .optional(),
  }),
};

const image = { contentType: 'image/*', schema: z.string().meta({ format: 'binary' }), description: 'The image bytes' };

export const uploadsRoutes = defineRoutes({
  slot: {
    method: 'post', path: '/api/objects/upload', auth: 'agent', tag: 'uploads', summary: 'A signed, expiring PUT URL for one image',
    description: 'Only for a session with an agent (wizard or logged in): otherwise 403 `uploads.agent_required`.', body: z.object({}), ok: { 200: uploadSlotSchema }, errors: [403, 429],
  },
  putLocal: {
    method: 'put', path: '/api/objects/local/:id', auth: 'public', tag: 'uploads', summary: "The local disk provider's signed PUT", ...PutLocalUpload,
    body: image, ok: { 200: storedUploadSchema }, errors: [403, 404, 409, 413, 415],
  },
  serve: {
    method: 'get', path: '/objects/uploads/:id', auth: 'public', tag: 'uploads', summary: 'An uploaded image, or a resized variant (?w=)', ...ServeUpload,
    ok: { 200: image, 304: { contentType: 'image/*', description: 'Not modified (ETag)' } }, errors: [404],
  },
});

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** A one-way tag of the browser session, so uploads can be traced to it without storing a usable session id. */
function sessionHashOf(ctx: Context): string | null {
  if (!ctx.session || ctx.session.isNew) return null;
  const sid = ctx.cookies.get(SESSION_COOKIE, { signed: true });
  return sid ? crypto.createHash('sha256').update(sid).digest('hex') : null;
}

/**
 * Answers 304 when the browser already holds this exact representation. The caching headers are
 * set only here and just before a body is sent, so an error response never carries them.
 */
function notModified(ctx: Context, etag: string): boolean {
  ctx.status = 200;
  ctx.etag = etag;
  if (!ctx.fresh) {
    ctx.remove('ETag');
    return false;
  }
  ctx.status = 304;
  ctx.set('Cache-Control', IMMUTABLE);
  return true;
}

function sendImage(ctx: Context, opts: { etag: string; type: string; size: number; body: NonNullable<Context['body']> }) {
  ctx.set('Cache-Control', IMMUTABLE);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.etag = opts.etag;
  ctx.type = opts.type;
  ctx.body = opts.body;
  ctx.length = opts.size;
}

/** Upload slots: per client address (burst), per browser session and per agent (disk and rows are not free). */
export const UPLOAD_SLOTS_IP_RATE_LIMIT = { points: 60, durationSeconds: 60 } as const;
export const UPLOAD_SLOTS_SESSION_RATE_LIMIT = { points: 40, durationSeconds: 60 * 60 } as const;
export const UPLOAD_SLOTS_AGENT_RATE_LIMIT = { points: 200, durationSeconds: 24 * 60 * 60 } as const;

/**
 * The agent an upload slot is for: the one this session is signed in as, else the newest one the wizard in this
 * browser works on (DESIGN §3: draft access uploads). A session with neither gets no slot.
 */
async function uploadingAgent(actor: Actor): Promise<{ agentId: number; anonymous: boolean }> {
  const candidates = [...(actor.loggedInAgentId ? [actor.loggedInAgentId] : []), ...[...actor.wizardAgentIds].reverse()];
  for (const id of candidates) {
    try {
      const agentId = (await getAccessibleAgent(actor, id, 'draft')).id;
      // Not logged in as it: a wizard's upload, which counts against its session and address too (L4).
      return { agentId, anonymous: actor.loggedInAgentId !== agentId };
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
    }
  }
  throw agentRequired();
}

export function uploadsRouter(deps: AppDeps): Router {
  const uploads: UploadsDeps = {
    db: deps.db,
    logger: deps.logger,
    storages: createUploadStorages(deps.config, deps.logger),
    variants: new VariantCache(deps.config.DATA_DIR),
    quotaBytes: deps.config.UPLOAD_QUOTA_BYTES,
  };
  const router = new Router();

  route(router, uploadsRoutes.slot, rateLimit({ name: 'upload-slots', ...UPLOAD_SLOTS_IP_RATE_LIMIT }), async (ctx) => {
    const { agentId, anonymous } = await uploadingAgent(actorOf(ctx));
    const sessionHash = sessionHashOf(ctx);
    // Quotas: per session and per agent, whichever address the requests come from.
    if (sessionHash) await consumeRateLimit(deps.db, { name: 'upload-slots-session', ...UPLOAD_SLOTS_SESSION_RATE_LIMIT }, sessionHash);
    await consumeRateLimit(deps.db, { name: 'upload-slots-agent', ...UPLOAD_SLOTS_AGENT_RATE_LIMIT }, String(agentId));
    const { uploadURL } = await createUpload(uploads, { origin: publicOrigin(deps.config), sessionHash, agentId, clientAddress: anonymous ? ctx.ip : null });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { uploadURL };
  });

  // The local provider's signed PUT. The JSON body parser leaves non-JSON bodies unread and
  // koa-compress touches only responses, so the raw stream reaches us here.
  route(router, uploadsRoutes.putLocal, async (ctx, { params, query }) => {
    const declared = ctx.get('Content-Length');
    try {
      ctx.body = await receiveLocalUpload(uploads, {
        id: params.id,
        expires: query.expires,
        sig: query.sig,
        body: ctx.req,
        declaredLength: /^\d+$/.test(declared) ? Number(declared) : null,
        bodyAlreadyRead: ctx.req.readableEnded || (ctx.request as { rawBody?: unknown }).rawBody !== undefined,
      });
    } finally {
      // Refused before reading the body (bad link, 404, 409, declared too large): read and drop up to
      // 20 MB of it, so the browser gets our answer instead of a reset connection; past that, reset.
      discardRest(ctx.req, 2 * MAX_UPLOAD_BYTES);
    }
  });

  // Public: listing photos are shown to buyers. Never SVG: only verified raster types are stored.
  route(router, uploadsRoutes.serve, async (ctx, { params, query }) => {
    const upload = await findServableUpload(uploads, params.id);
    const id = upload.row.id;
    if (query.w) {
      const format = acceptsWebp(ctx.get('Accept')) ? 'webp' : 'jpeg';
      ctx.vary('Accept');
      const etag = `${id}-w${query.w}.${format}`;
      if (notModified(ctx, etag)) return;
      const variant = await variantOf(uploads, upload, query.w, format);
      sendImage(ctx, { etag, type: VARIANT_CONTENT_TYPES[format], size: variant.size, body: fs.createReadStream(variant.path) });
      return;
    }
    // Uploads are immutable (one PUT per id, GCS pinned to the verified generation): the id is the ETag.
    if (notModified(ctx, id)) return;
    const original = await openOriginal(uploads, upload);
    sendImage(ctx, { etag: id, type: upload.row.contentType ?? 'application/octet-stream', size: original.size, body: original.body });
  });

  return router;
}
