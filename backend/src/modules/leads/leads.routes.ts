import Router from '@koa/router';
import { z } from 'zod';
import { agentLeadsQuerySchema, idParam, leadChallengeRequestSchema, leadSubmissionSchema, mlsIdParam, type LeadReviewed } from '@app/contracts';
import { validate, inputOf } from '../../platform/http/validate';
import { sendJson } from '../../platform/http/compression';
import { actorOf } from '../../platform/auth/actor';
import { agentLeadsPageJson, leadChallengeFor, submitLead, type LeadsDeps } from './leads.service';
import { discardLead, releaseLead } from './lead-review';

const SubmitLeadRequest = { params: z.object({ mlsId: mlsIdParam }), body: leadSubmissionSchema };
const LeadChallengeRequest = { params: z.object({ mlsId: mlsIdParam }), body: leadChallengeRequestSchema };
const AgentLeads = { params: z.object({ id: idParam }), query: agentLeadsQuerySchema };
const ReviewLead = { params: z.object({ id: idParam, leadId: idParam }) };

export function leadsRouter(leads: LeadsDeps): Router {
  const router = new Router();

  // Public: a buyer's lead from a listing page. 201 with the lead's id, also for a retry of the same form.
  router.post('/api/listings/:mlsId/leads', validate(SubmitLeadRequest), async (ctx) => {
    const { params, body } = inputOf(ctx, SubmitLeadRequest);
    const { id, challenge } = await submitLead(leads, { mlsId: params.mlsId, input: body, ip: ctx.ip, userAgent: ctx.get('User-Agent') || null });
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 201;
    ctx.body = challenge ? { id, challenge } : { id };
  });

  // Public: the form, as it opens, asks whether its listing is guarded; if so, the challenge to solve meanwhile.
  router.post('/api/listings/:mlsId/lead-challenge', validate(LeadChallengeRequest), async (ctx) => {
    const { params, body } = inputOf(ctx, LeadChallengeRequest);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await leadChallengeFor(leads, params.mlsId, body);
  });

  // The agent's own leads, a page at a time (DESIGN §3 access): 404 unknown agent, 403 someone else's.
  router.get('/api/agents/:id/leads', validate(AgentLeads), async (ctx) => {
    const { params, query } = inputOf(ctx, AgentLeads);
    const json = await agentLeadsPageJson({ caches: leads.caches }, actorOf(ctx), params.id, query);
    ctx.set('Cache-Control', 'no-store');
    await sendJson(ctx, json);
  });

  // The agent's review of a lead held while its listing was guarded: Release hands it to delivery, Discard keeps it undelivered.
  router.post('/api/agents/:id/leads/:leadId/release', validate(ReviewLead), async (ctx) => {
    const { params } = inputOf(ctx, ReviewLead);
    await releaseLead(leads, actorOf(ctx), params.id, params.leadId);
    ctx.body = { id: params.leadId, status: 'received' } satisfies LeadReviewed;
  });

  router.post('/api/agents/:id/leads/:leadId/discard', validate(ReviewLead), async (ctx) => {
    const { params } = inputOf(ctx, ReviewLead);
    await discardLead(leads, actorOf(ctx), params.id, params.leadId);
    ctx.body = { id: params.leadId, status: 'discarded' } satisfies LeadReviewed;
  });

  return router;
}
