import Router from '@koa/router';
import { INVALID_STATE_MESSAGE, targetingPreviewSchema, type TargetingPreviewResponse } from '@app/contracts';
import { validate, inputOf } from '../../../platform/http/validate';
import { validationFailed } from '../../../platform/errors';
import type { AppDeps } from '../../../platform/deps';
import { interestsForPrice } from './interests';
import { estimateReach } from './reach';
import { stateCode } from './us-places';

const Preview = { body: targetingPreviewSchema };

/**
 * POST /api/targeting/preview {city, state, listingPrice} → {interests, estimatedReach}.
 * No session needed: it reveals nothing about anyone, and it is computed locally.
 * The radius is step 5's choice (25 miles when absent).
 */
export function targetingRouter(_deps: AppDeps): Router {
  const router = new Router();

  router.post('/api/targeting/preview', validate(Preview), async (ctx) => {
    const { city, state, listingPrice, radius } = inputOf(ctx, Preview).body;
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
