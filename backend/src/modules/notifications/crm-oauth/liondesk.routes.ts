import crypto from 'node:crypto';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { idParam, lionDeskConnectionViewSchema, type LionDeskConnectResult } from '@app/contracts';
import { defineRoutes, route } from '../../../platform/http/route';
import { rateLimit } from '../../../platform/http/rate-limit';
import { actorOf, hashOf, isImpersonating } from '../../../platform/auth/actor';
import { signLink, verifyLink } from '../../../platform/crypto/signed-links';
import { AppError } from '../../../platform/errors';
import { audit } from '../../../platform/audit';
import type { AppDeps } from '../../../platform/deps';
import { getAccessibleAgent } from '../../agents';
import { deliveryTransports } from '../delivery/delivery-deps';
import { integrationsReadOnly, liondeskNotConfigured } from '../notifications.errors';
import {
  deleteLionDeskConnection,
  LIONDESK_CALLBACK_PATH,
  liondeskAuthorizeUrl,
  liondeskConfigured,
  lionDeskConnectionView,
  requestTokens,
  saveLionDeskConnection,
} from './liondesk-oauth';

const AgentIdParams = z.object({ id: idParam });
/** The callback's query: LionDesk's `code` (or an OAuth `error`, RFC 6749 §4.1.2.1) and our `state`, as it came back. */
const CallbackQuery = z.object({
  code: z.string().min(1).max(2048).optional(),
  state: z.string().min(1).max(2048).optional(),
  error: z.string().max(200).optional(),
});
const STATE_PURPOSE = 'liondesk-connect';
/** How long the agent has on LionDesk's screen before the state is refused. */
const STATE_TTL_SECONDS = 10 * 60;
/** Connects per browser: each callback costs a call to LionDesk's token endpoint. */
const CONNECT_RATE_LIMIT = { name: 'liondesk-connect', points: 30, durationSeconds: 15 * 60 } as const;

/** What the session keeps between the connect and the callback: the hash of the state's nonce (one use). */
type LionDeskSession = { liondeskStateHash?: string | null };

export const lionDeskRoutes = defineRoutes({
  connection: {
    method: 'get', path: '/api/agents/:id/crm/liondesk', auth: 'agent', tag: 'notifications', summary: "The agent's LionDesk connection: connected, needs reconnecting (never a token)",
    params: AgentIdParams, ok: { 200: lionDeskConnectionViewSchema }, errors: [403, 404],
  },
  connect: {
    method: 'get', path: '/api/agents/:id/crm/liondesk/connect', auth: 'agent', tag: 'notifications', summary: "Connect LionDesk: to LionDesk's authorization page (browser navigation)", params: AgentIdParams,
    description:
      'OAuth 2.0 authorization-code grant (developers.liondesk.com/docs/authentication/authorization-grant): response_type=code, client_id, redirect_uri `<PUBLIC_URL>/api/crm/liondesk/callback`, scope write, and a signed `state` that expires in 10 minutes, names the agent and is bound to this browser session. Without LIONDESK_CLIENT_ID/LIONDESK_CLIENT_SECRET: 404 `notifications.liondesk_not_configured`; an admin\'s Login As: 403.',
    ok: { 302: { contentType: 'text/html', description: "To LionDesk's authorization page" } }, errors: [403, 404, 429],
  },
  callback: {
    method: 'get', path: LIONDESK_CALLBACK_PATH, auth: 'public', tag: 'notifications', summary: 'Back from LionDesk: exchanges the code for tokens (stored sealed) and makes LionDesk the CRM',
    description: 'To /dashboard?liondesk=connected; otherwise /dashboard?liondesk=denied (LionDesk sent `error`) | expired (a forged, spent, expired or other-browser `state`) | failed (the token endpoint refused). Never a 500.',
    ok: { 302: { contentType: 'text/html', description: 'To /dashboard?liondesk=…' } }, errors: [429],
  },
  disconnect: {
    method: 'delete', path: '/api/agents/:id/crm/liondesk', auth: 'agent', tag: 'notifications', summary: 'Disconnect LionDesk: its stored tokens are deleted',
    params: AgentIdParams, ok: { 204: { contentType: 'application/json', description: 'Done (no body)' } }, errors: [403, 404],
  },
});

const backToDashboard = (ctx: Context, result: LionDeskConnectResult) => ctx.redirect(`/dashboard?liondesk=${result}`);

/**
 * The agent's LionDesk connection (OAuth 2.0 authorization-code grant, developers.liondesk.com/docs/authentication/
 * authorization-grant):
 *  - GET /api/agents/{id}/crm/liondesk/connect: 302 to LionDesk's authorization page. `state` is signed (HMAC, the
 *    signed-links key), expires in 10 minutes, names the agent, and carries a nonce whose hash this browser's session
 *    keeps: a state from another browser, another agent's or a replayed one is refused.
 *  - GET /api/crm/liondesk/callback: checks the state and the signed-in agent again, exchanges the code at the token
 *    endpoint, stores both tokens sealed (write-only), makes LionDesk the agent's CRM, and goes back to /dashboard
 *    with `?liondesk=connected|denied|expired|failed` (the settings card says what happened). Never a 500.
 *  - GET /api/agents/{id}/crm/liondesk: whether it is connected (no token, ever); DELETE: disconnect.
 * An admin's Login As may look but not connect or disconnect (DESIGN §6).
 */
export function addLionDeskRoutes(router: Router, deps: AppDeps): void {
  const { config, db, logger } = deps;
  const limit = rateLimit(CONNECT_RATE_LIMIT);

  route(router, lionDeskRoutes.connection, async (ctx, { params }) => {
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await lionDeskConnectionView(db, agent.id);
  });

  route(router, lionDeskRoutes.connect, limit, async (ctx, { params }) => {
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    if (!liondeskConfigured(config)) throw liondeskNotConfigured();
    if (isImpersonating(ctx)) throw integrationsReadOnly();
    const nonce = crypto.randomBytes(24).toString('base64url');
    (ctx.session as unknown as LionDeskSession).liondeskStateHash = hashOf(nonce);
    const state = signLink(config, { purpose: STATE_PURPOSE, subject: String(agent.id), action: nonce, expiresAt: Date.now() / 1000 + STATE_TTL_SECONDS });
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(liondeskAuthorizeUrl(config, state));
  });

  route(router, lionDeskRoutes.callback, limit, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const parsed = CallbackQuery.safeParse(ctx.query);
    const session = (ctx.session ?? {}) as unknown as LionDeskSession;
    const expectedHash = session.liondeskStateHash ?? null;
    // One use: whatever comes back, this state is spent.
    if (ctx.session) session.liondeskStateHash = null;
    if (!parsed.success || !liondeskConfigured(config)) return backToDashboard(ctx, 'failed');
    const { code, state, error } = parsed.data;
    const check = state ? verifyLink(config, state, STATE_PURPOSE) : ({ ok: false, reason: 'invalid' } as const);
    if (!check.ok || !expectedHash || hashOf(check.claims.action) !== expectedHash) {
      logger.warn({ reason: check.ok ? 'session_mismatch' : check.reason }, 'liondesk connect: state refused');
      return backToDashboard(ctx, error ? 'denied' : 'expired');
    }
    if (error || !code) return backToDashboard(ctx, 'denied');
    let agentId: number;
    try {
      agentId = (await getAccessibleAgent(actorOf(ctx), Number(check.claims.subject), 'signed_in')).id;
    } catch (err) {
      if (err instanceof AppError) return backToDashboard(ctx, 'expired');
      throw err;
    }
    if (isImpersonating(ctx)) return backToDashboard(ctx, 'failed');

    const answer = await requestTokens(config, { grant_type: 'authorization_code', code }, new Date());
    if (!answer.ok) {
      // Logged without the code or any token: only the status and LionDesk's error words.
      logger.warn({ status: answer.status, detail: answer.detail }, 'liondesk connect: code exchange failed');
      await audit(db, { actorType: 'agent', actorId: agentId, action: 'notifications.liondesk_connect_failed', targetType: 'agent', targetId: agentId, details: { status: answer.status } }, ctx);
      return backToDashboard(ctx, 'failed');
    }
    const { box } = deliveryTransports(config);
    await db.transaction(async (trx) => {
      await saveLionDeskConnection(trx, box, agentId, answer.tokens);
      // Connecting LionDesk makes it the agent's CRM (the other CRM's URL and key mean nothing to it).
      await trx('notificationSettings').insert({ agentId }).onConflict('agentId').ignore();
      await trx('notificationSettings')
        .where({ agentId })
        .update({ crmType: 'liondesk', crmWebhookUrl: null, crmApiKeyEnc: null, crmDisabledAt: null, updatedAt: trx.fn.now() });
    });
    await audit(db, { actorType: 'agent', actorId: agentId, action: 'notifications.liondesk_connected', targetType: 'agent', targetId: agentId }, ctx);
    backToDashboard(ctx, 'connected');
  });

  route(router, lionDeskRoutes.disconnect, async (ctx, { params }) => {
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    // An admin's Login As may not remove a connection; with none stored there is nothing to change.
    if (isImpersonating(ctx) && (await lionDeskConnectionView(db, agent.id)).connected) throw integrationsReadOnly();
    if (await deleteLionDeskConnection(db, agent.id)) {
      await audit(db, { actorType: 'agent', actorId: agent.id, action: 'notifications.liondesk_disconnected', targetType: 'agent', targetId: agent.id }, ctx);
    }
    ctx.status = 204;
  });
}
