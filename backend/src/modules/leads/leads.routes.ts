import Router from '@koa/router';
import { z } from 'zod';
import { idParam, leadSubmissionSchema, mlsIdParam } from '@app/contracts';
import { validate, inputOf } from '../../platform/http/validate';
import { actorOf } from '../../platform/auth/actor';
import { getAccessibleAgent } from '../agents';
import { listAgentLeads, submitLead, type LeadsDeps } from './leads.service';
import { presentLead } from './leads.presenter';

const SubmitLeadRequest = { params: z.object({ mlsId: mlsIdParam }), body: leadSubmissionSchema };
const AgentLeads = { params: z.object({ id: idParam }) };

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

  // The agent's own leads (DESIGN §3 access): 404 unknown agent, 403 someone else's.
  router.get('/api/agents/:id/leads', validate(AgentLeads), async (ctx) => {
    const agent = await getAccessibleAgent(actorOf(ctx), inputOf(ctx, AgentLeads).params.id);
    const { leads: rows, listings } = await listAgentLeads(agent.id);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = rows.map((l) => presentLead(l, listings.get(l.listingId)));
  });

  return router;
}
