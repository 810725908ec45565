import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { bodyParser } from '@koa/bodyparser';
import twilio from 'twilio';
import { z } from 'zod';
import { idParam, smsNumberSchema, smsVerifySchema } from '@app/contracts';
import { validate, inputOf } from '../../../platform/http/validate';
import { actorOf, isImpersonating } from '../../../platform/auth/actor';
import { impersonationRefused } from '../../../platform/errors';
import { audit } from '../../../platform/audit';
import type { AppDeps } from '../../../platform/deps';
import { getAccessibleAgent } from '../../agents';
import { smsWebhookDisabled, smsWebhookSignatureInvalid } from '../notifications.errors';
import { applyInboundSms, loadSms, presentSms, startSmsVerification, turnSmsOff, verifySmsCode } from './sms.service';
import { maskPhone } from './sms-text';

const AgentIdParams = z.object({ id: idParam });
const SetNumber = { params: AgentIdParams, body: smsNumberSchema };
const Verify = { params: AgentIdParams, body: smsVerifySchema };

/** Twilio's inbound-message webhook (its Messaging "A message comes in" URL). */
export const TWILIO_SMS_WEBHOOK_PATH = '/api/webhooks/twilio/sms';

/**
 * Text alerts on the dashboard (the agent's own, through the access rule; Login As may read but never change
 * the number: DESIGN §6) and Twilio's inbound webhook, where STOP and START arrive.
 */
export function addSmsRoutes(router: Router, deps: AppDeps): void {
  router.get('/api/agents/:id/sms', validate({ params: AgentIdParams }), async (ctx) => {
    const agent = await getAccessibleAgent(actorOf(ctx), inputOf(ctx, { params: AgentIdParams }).params.id, 'signed_in');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentSms(deps.config, await loadSms(deps.db, agent.id));
  });

  // Step 1: the number and the consent shown beside it; a code is texted to the number.
  router.put('/api/agents/:id/sms', validate(SetNumber), async (ctx) => {
    const { params, body } = inputOf(ctx, SetNumber);
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    if (isImpersonating(ctx)) throw impersonationRefused();
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await startSmsVerification(deps, agent.id, body.phone);
  });

  // Step 2: the code back; the consent is stored with the time, the text shown and the address.
  router.post('/api/agents/:id/sms/verify', validate(Verify), async (ctx) => {
    const { params, body } = inputOf(ctx, Verify);
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    if (isImpersonating(ctx)) throw impersonationRefused();
    const view = await verifySmsCode(deps, agent.id, body.code, ctx.ip);
    const row = await loadSms(deps.db, agent.id);
    await audit(deps.db, { actorType: 'agent', actorId: agent.id, action: 'sms.consent_given', targetType: 'agent', targetId: agent.id, details: { phone: maskPhone(row!.phone), consentText: row!.consentText } }, ctx);
    ctx.body = view;
  });

  router.delete('/api/agents/:id/sms', validate({ params: AgentIdParams }), async (ctx) => {
    const agent = await getAccessibleAgent(actorOf(ctx), inputOf(ctx, { params: AgentIdParams }).params.id, 'signed_in');
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
  router.post(TWILIO_SMS_WEBHOOK_PATH, form, async (ctx) => {
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
