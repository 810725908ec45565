import Router from '@koa/router';
import { z } from 'zod';
import { campaignDraftSchema, idParam } from '@app/contracts';
import { validate, inputOf } from '../../platform/http/validate';
import { sendJson } from '../../platform/http/compression';
import { actorOf, browserKeyOf } from '../../platform/auth/actor';
import type { AppDeps } from '../../platform/deps';
import { accessibleCampaignJson, campaignForWizard, createCampaignDraft, updateCampaignDraft } from './campaigns.service';
import { presentCampaign } from './campaigns.presenter';

const CampaignId = { params: z.object({ id: idParam }) };
const CreateCampaign = { body: campaignDraftSchema };
const UpdateCampaign = { params: CampaignId.params, body: campaignDraftSchema };

export function campaignsRouter({ db, config, caches }: AppDeps): Router {
  const router = new Router();

  router.post('/api/campaigns', validate(CreateCampaign), async (ctx) => {
    // The campaign is recorded as this browser's (its key is made now if it has none).
    browserKeyOf(ctx);
    ctx.status = 201;
    ctx.body = presentCampaign(await createCampaignDraft({ db, config }, actorOf(ctx), inputOf(ctx, CreateCampaign).body));
  });

  router.get('/api/campaigns/:id', validate(CampaignId), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    await sendJson(ctx, await accessibleCampaignJson({ caches }, actorOf(ctx), inputOf(ctx, CampaignId).params.id));
  });

  // A draft reopened in the wizard (autopilot's Edit link): the campaign with its agent and listing, for the owner.
  router.get('/api/campaigns/:id/wizard', validate(CampaignId), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await campaignForWizard(actorOf(ctx), inputOf(ctx, CampaignId).params.id);
  });

  router.patch('/api/campaigns/:id', validate(UpdateCampaign), async (ctx) => {
    const { params, body } = inputOf(ctx, UpdateCampaign);
    ctx.body = presentCampaign(await updateCampaignDraft({ db, config }, actorOf(ctx), params.id, body));
  });

  return router;
}
