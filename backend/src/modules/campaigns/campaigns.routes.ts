import Router from '@koa/router';
import { z } from 'zod';
import { campaignDraftSchema, campaignViewSchema, campaignWizardSchema, idParam } from '@app/contracts';
import { defineRoutes, route } from '../../platform/http/route';
import { sendJson } from '../../platform/http/compression';
import { actorOf, browserKeyOf } from '../../platform/auth/actor';
import type { AppDeps } from '../../platform/deps';
import { accessibleCampaignJson, campaignForWizard, createCampaignDraft, updateCampaignDraft } from './campaigns.service';
import { presentCampaign } from './campaigns.presenter';

const Campaign = campaignViewSchema.meta({ id: 'Campaign' });
const id = z.object({ id: idParam });

export const campaignsRoutes = defineRoutes({
  create: { method: 'post', path: '/api/campaigns', auth: 'agent', tag: 'campaigns', summary: 'Save the wizard draft as a campaign', body: campaignDraftSchema, ok: { 201: Campaign }, errors: [403, 404] },
  get: {
    method: 'get', path: '/api/campaigns/:id', auth: 'agent', tag: 'campaigns', summary: 'One campaign', description: "Another session's campaign answers 404, like an unknown one.",
    params: id, ok: { 200: Campaign }, errors: [403, 404],
  },
  wizard: {
    method: 'get', path: '/api/campaigns/:id/wizard', auth: 'agent', tag: 'campaigns', summary: 'A draft reopened in the wizard: the campaign, its agent and its listing',
    params: id, ok: { 200: campaignWizardSchema }, errors: [403, 404, 409],
  },
  update: {
    method: 'patch', path: '/api/campaigns/:id', auth: 'agent', tag: 'campaigns', summary: "Replace a draft's content (also while its payment is pending)",
    params: id, body: campaignDraftSchema, ok: { 200: Campaign }, errors: [403, 404, 409],
  },
});

export function campaignsRouter({ db, config, caches }: AppDeps): Router {
  const router = new Router();

  route(router, campaignsRoutes.create, async (ctx, { body }) => {
    // The campaign is recorded as this browser's (its key is made now if it has none).
    browserKeyOf(ctx);
    ctx.status = 201;
    ctx.body = presentCampaign(await createCampaignDraft({ db, config }, actorOf(ctx), body));
  });

  route(router, campaignsRoutes.get, async (ctx, { params }) => {
    ctx.set('Cache-Control', 'no-store');
    await sendJson(ctx, await accessibleCampaignJson({ caches }, actorOf(ctx), params.id));
  });

  // A draft reopened in the wizard (autopilot's Edit link): the campaign with its agent and listing, for the owner.
  route(router, campaignsRoutes.wizard, async (ctx, { params }) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await campaignForWizard(actorOf(ctx), params.id);
  });

  route(router, campaignsRoutes.update, async (ctx, { params, body }) => {
    ctx.body = presentCampaign(await updateCampaignDraft({ db, config }, actorOf(ctx), params.id, body));
  });

  return router;
}
