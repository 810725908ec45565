import Router from '@koa/router';
import { z } from 'zod';
import {
  agentLeadsPageSchema,
  agentLeadsQuerySchema,
  idParam,
  leadChallengeAnswerSchema,
  leadChallengeRequestSchema,
  leadCreatedSchema,
  leadReviewedSchema,
  leadSubmissionSchema,
  mlsIdParam,
  type LeadReviewed,
} from '@app/contracts';
import { defineRoutes, route } from '../../platform/http/route';
import { sendJson } from '../../platform/http/compression';
import { actorOf } from '../../platform/auth/actor';
import { agentLeadsPageJson, leadChallengeFor, submitLead, type LeadsDeps } from './leads.service';
import { discardLead, releaseLead } from './lead-review';

const mlsId = z.object({ mlsId: mlsIdParam });
const leadParams = z.object({ id: idParam, leadId: idParam });

export const leadsRoutes = defineRoutes({
  submit: {
    method: 'post', path: '/api/listings/:mlsId/leads', auth: 'public', tag: 'leads',
    summary: 'A buyer sends a lead (honeypot, signed time-trap token, idempotency key, consent). While the listing is guarded (a flood), a lead that looks like part of it is held for review; the answer then may carry a proof-of-work challenge, and the same form sent again with its proof is delivered',
    params: mlsId, body: leadSubmissionSchema, ok: { 201: leadCreatedSchema }, errors: [404, 429],
  },
  challenge: {
    method: 'post', path: '/api/listings/:mlsId/lead-challenge', auth: 'public', tag: 'leads',
    summary: "The lead form, as it opens, asks for its challenge: while the listing is guarded, the proof-of-work challenge its send would be answered with (for this form's idempotency key), so the page solves it while the buyer types; else null. Counts and stores nothing",
    params: mlsId, body: leadChallengeRequestSchema, ok: { 200: leadChallengeAnswerSchema }, errors: [400, 404],
  },
  agentLeads: {
    method: 'get', path: '/api/agents/:id/leads', auth: 'agent', tag: 'leads',
    summary: "One page of the agent's leads (received, or held for review), newest first, with the total (limit, cursor, status)",
    params: z.object({ id: idParam }), query: agentLeadsQuerySchema, ok: { 200: agentLeadsPageSchema }, errors: [400, 403, 404],
  },
  release: {
    method: 'post', path: '/api/agents/:id/leads/:leadId/release', auth: 'agent', tag: 'leads', summary: 'Release a lead held for review: it is delivered on every channel, as a new lead',
    params: leadParams, ok: { 200: leadReviewedSchema }, errors: [403, 404, 409],
  },
  discard: {
    method: 'post', path: '/api/agents/:id/leads/:leadId/discard', auth: 'agent', tag: 'leads', summary: 'Discard a lead held for review: it is kept, never delivered',
    params: leadParams, ok: { 200: leadReviewedSchema }, errors: [403, 404, 409],
  },
});

export function leadsRouter(leads: LeadsDeps): Router {
  const router = new Router();

  // Public: a buyer's lead from a listing page. 201 with the lead's id, also for a retry of the same form.
  route(router, leadsRoutes.submit, async (ctx, { params, body }) => {
    const { id, challenge } = await submitLead(leads, { mlsId: params.mlsId, input: body, ip: ctx.ip, userAgent: ctx.get('User-Agent') || null });
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 201;
    ctx.body = challenge ? { id, challenge } : { id };
  });

  // Public: the form, as it opens, asks whether its listing is guarded; if so, the challenge to solve meanwhile.
  route(router, leadsRoutes.challenge, async (ctx, { params, body }) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await leadChallengeFor(leads, params.mlsId, body);
  });

  // The agent's own leads, a page at a time (DESIGN §3 access): 404 unknown agent, 403 someone else's.
  route(router, leadsRoutes.agentLeads, async (ctx, { params, query }) => {
    const json = await agentLeadsPageJson({ caches: leads.caches }, actorOf(ctx), params.id, query);
    ctx.set('Cache-Control', 'no-store');
    await sendJson(ctx, json);
  });

  // The agent's review of a lead held while its listing was guarded: Release hands it to delivery, Discard keeps it undelivered.
  route(router, leadsRoutes.release, async (ctx, { params }) => {
    await releaseLead(leads, actorOf(ctx), params.id, params.leadId);
    ctx.body = { id: params.leadId, status: 'received' } satisfies LeadReviewed;
  });

  route(router, leadsRoutes.discard, async (ctx, { params }) => {
    await discardLead(leads, actorOf(ctx), params.id, params.leadId);
    ctx.body = { id: params.leadId, status: 'discarded' } satisfies LeadReviewed;
  });

  return router;
}
