import Router from '@koa/router';
import { z } from 'zod';
import { agentLeadsQuerySchema, idParam, leadSubmissionSchema, mlsIdParam } from '@app/contracts';
import { validate, inputOf } from '../../platform/http/validate';
import { sendJson } from '../../platform/http/compression';
import { actorOf } from '../../platform/auth/actor';
import { agentLeadsPageJson, submitLead, type LeadsDeps } from './leads.service';

const SubmitLeadRequest = { params: z.object({ mlsId: mlsIdParam }), body: leadSubmissionSchema };
const AgentLeads = { params: z.object({ id: idParam }), query: agentLeadsQuerySchema };

export function leadsRouter(leads: LeadsDeps): Router {
  const router = new Router();

  // Public: a buyer's lead from a listing page. 201 with the lead's id, also for a retry of the same form.
  router.post('/api/listings/:mlsId/leads', validate(SubmitLeadRequest), async (ctx) => {
    const { params, body } = inputOf(ctx, SubmitLeadRequest);
    const { id } = await submitLead(leads, { mlsId: params.mlsId, input: body, ip: ctx.ip, userAgent: ctx.get('User-Agent') || null });
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 201;
    ctx.body = { id };
  });

  // The agent's own leads, a page at a time (DESIGN §3 access): 404 unknown agent, 403 someone else's.
  router.get('/api/agents/:id/leads', validate(AgentLeads), async (ctx) => {
    const { params, query } = inputOf(ctx, AgentLeads);
    const json = await agentLeadsPageJson({ caches: leads.caches }, actorOf(ctx), params.id, query);
    ctx.set('Cache-Control', 'no-store');
    await sendJson(ctx, json);
  });

  return router;
}
