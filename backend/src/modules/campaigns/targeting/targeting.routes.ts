import Router from '@koa/router';
import { INVALID_STATE_MESSAGE, targetingPreviewResponseSchema, targetingPreviewSchema, type TargetingPreviewResponse } from '@app/contracts';
import { defineRoutes, route } from '../../../platform/http/route';
import { validationFailed } from '../../../platform/errors';
import type { AppDeps } from '../../../platform/deps';
import { interestsForPrice } from './interests';
import { estimateReach } from './reach';
import { stateCode } from './us-places';

export const targetingRoutes = defineRoutes({
  preview: {
    method: 'post', path: '/api/targeting/preview', auth: 'public', tag: 'campaigns', summary: 'Interests and estimated reach for a place and price',
    body: targetingPreviewSchema, ok: { 200: targetingPreviewResponseSchema },
  },
});

/**
 * POST /api/targeting/preview {city, state, listingPrice} → {interests, estimatedReach}.
 * No session needed: it reveals nothing about anyone, and it is computed locally.
 * The radius is step 5's choice (25 miles when absent).
 */
export function targetingRouter(_deps: AppDeps): Router {
  const router = new Router();

  route(router, targetingRoutes.preview, async (ctx, { body: { city, state, listingPrice, radius } }) => {
    const code = stateCode(state);
    if (!code) throw validationFailed({ state: INVALID_STATE_MESSAGE });
    const body: TargetingPreviewResponse = {
      interests: interestsForPrice(listingPrice),
      estimatedReach: estimateReach({ city, state: code, radius }).estimatedReach,
    };
    ctx.body = body;
  });

  return router;
}
