import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { bodyParser } from '@koa/bodyparser';
import twilio from 'twilio';
import { z } from 'zod';
import { idParam, smsNumberSchema, smsVerifySchema, smsViewSchema } from '@app/contracts';
import { defineRoutes, route } from '../../../platform/http/route';
import { actorOf, isImpersonating } from '../../../platform/auth/actor';
import { impersonationRefused } from '../../../platform/errors';
import { audit } from '../../../platform/audit';
import type { AppDeps } from '../../../platform/deps';
import { getAccessibleAgent } from '../../agents';
import { smsWebhookDisabled, smsWebhookSignatureInvalid } from '../notifications.errors';
import { applyInboundSms, loadSms, presentSms, startSmsVerification, turnSmsOff, verifySmsCode } from './sms.service';
import { maskPhone } from './sms-text';

const AgentIdParams = z.object({ id: idParam });

/** Twilio's inbound-message webhook (its Messaging "A message comes in" URL). */
export const TWILIO_SMS_WEBHOOK_PATH = '/api/webhooks/twilio/sms';

export const smsRoutes = defineRoutes({
  get: {
    method: 'get', path: '/api/agents/:id/sms', auth: 'agent', tag: 'notifications', summary: "The agent's text alerts: number, state (off, pending, active, stopped by STOP), consent time",
    params: AgentIdParams, ok: { 200: smsViewSchema }, errors: [403, 404],
  },
  setNumber: {
    method: 'put', path: '/api/agents/:id/sms', auth: 'agent', tag: 'notifications', summary: 'Text a one-time code to a US mobile number (the consent shown beside it must be agreed)', params: AgentIdParams, body: smsNumberSchema,
    description: 'A new number starts over (no texts until its code is entered). 3 codes per 10 minutes per agent. An admin\'s Login As may not change it.',
    ok: { 200: smsViewSchema }, errors: [403, 404, 429, 502],
  },
  verify: {
    method: 'post', path: '/api/agents/:id/sms/verify', auth: 'agent', tag: 'notifications', summary: 'Enter the texted code: text alerts turn on and the consent is stored (time, text shown, address)',
    params: AgentIdParams, body: smsVerifySchema, ok: { 200: smsViewSchema }, errors: [403, 404, 409],
  },
  off: { method: 'delete', path: '/api/agents/:id/sms', auth: 'agent', tag: 'notifications', summary: 'Turn text alerts off', params: AgentIdParams, ok: { 200: smsViewSchema }, errors: [403, 404] },
  twilioWebhook: {
    method: 'post', path: TWILIO_SMS_WEBHOOK_PATH, auth: 'public', tag: 'notifications', summary: "Twilio's inbound-message webhook: STOP (and the other opt-out words) pauses texts at once, START resumes",
    headers: z.object({ 'x-twilio-signature': z.string() }),
    body: { contentType: 'application/x-www-form-urlencoded', schema: z.record(z.string(), z.string()), description: "Twilio's message fields (From, Body, …), verified against X-Twilio-Signature" },
    ok: { 200: { contentType: 'text/xml', description: 'An empty TwiML response' } }, errors: [403, 404],
  },
});

/**
 * Text alerts on the dashboard (the agent's own, through the access rule; Login As may read but never change
 * the number: DESIGN §6) and Twilio's inbound webhook, where STOP and START arrive.
 */
export function addSmsRoutes(router: Router, deps: AppDeps): void {
  route(router, smsRoutes.get, async (ctx, { params }) => {
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentSms(deps.config, await loadSms(deps.db, agent.id));
  });

  // Step 1: the number and the consent shown beside it; a code is texted to the number.
  route(router, smsRoutes.setNumber, async (ctx, { params, body }) => {
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    if (isImpersonating(ctx)) throw impersonationRefused();
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await startSmsVerification(deps, agent.id, body.phone);
  });

  // Step 2: the code back; the consent is stored with the time, the text shown and the address.
  route(router, smsRoutes.verify, async (ctx, { params, body }) => {
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    if (isImpersonating(ctx)) throw impersonationRefused();
    const view = await verifySmsCode(deps, agent.id, body.code, ctx.ip);
    const row = await loadSms(deps.db, agent.id);
    await audit(deps.db, { actorType: 'agent', actorId: agent.id, action: 'sms.consent_given', targetType: 'agent', targetId: agent.id, details: { phone: maskPhone(row!.phone), consentText: row!.consentText } }, ctx);
    ctx.body = view;
  });

  route(router, smsRoutes.off, async (ctx, { params }) => {
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    if (isImpersonating(ctx)) throw impersonationRefused();
    await turnSmsOff(deps.db, agent.id);
    await audit(deps.db, { actorType: 'agent', actorId: agent.id, action: 'sms.turned_off', targetType: 'agent', targetId: agent.id }, ctx);
    ctx.body = presentSms(deps.config, undefined);
  });

  // Twilio posts inbound texts as a form, signed with X-Twilio-Signature over the URL it called and the fields.
  // The app's body layer reads JSON only (and leaves an empty body for other types, unread): this route reads its form.
  const parseForm = bodyParser({ enableTypes: ['form'], formLimit: '64kb' } as Parameters<typeof bodyParser>[0]);
  const form = async (ctx: Context, next: Next) => {
    (ctx.request as { body?: unknown }).body = undefined;
    return parseForm(ctx, next);
  };
  route(router, smsRoutes.twilioWebhook, form, async (ctx) => {
    const { TWILIO_AUTH_TOKEN, PUBLIC_URL } = deps.config;
    if (!TWILIO_AUTH_TOKEN || !PUBLIC_URL) throw smsWebhookDisabled();
    const params = ((ctx.request as { body?: unknown }).body ?? {}) as Record<string, string>;
    const url = `${PUBLIC_URL.replace(/\/$/, '')}${ctx.originalUrl}`;
    if (!twilio.validateRequest(TWILIO_AUTH_TOKEN, ctx.get('x-twilio-signature'), url, params)) throw smsWebhookSignatureInvalid();
    const from = typeof params.From === 'string' ? params.From : '';
    const text = typeof params.Body === 'string' ? params.Body : '';
    const result = await applyInboundSms(deps.db, from, text);
    if (result.action) {
      await audit(deps.db, { actorType: 'system', action: `sms.inbound_${result.action}`, targetType: 'agent', details: { phone: maskPhone(from), agentIds: result.agentIds } }, ctx);
    }
    // Twilio answers STOP/START itself on a messaging service; an empty response sends nothing more.
    ctx.type = 'text/xml';
    ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';
  });
}
