import type { CampaignWizard } from '@app/contracts';
import type { CampaignDraft, WizardPath } from './wizardTypes';

/**
 * A saved draft as the wizard's draft (autopilot's Edit link reopens one): every field the wizard keeps,
 * from the server's campaign, with its id, so the steps update it (PATCH) instead of making another.
 */
export function reopenedDraft(w: CampaignWizard): { path: Exclude<WizardPath, 'none'>; campaign: CampaignDraft } {
  const c = w.campaign;
  return {
    path: w.agent.mlsId ? 'mls' : 'manual',
    campaign: {
      agentId: c.agentId,
      listingId: c.listingId,
      templateType: c.templateType,
      adFormat: c.adFormat,
      headline: c.headline ?? '',
      description: c.description ?? '',
      subtitle: c.subtitle ?? '',
      callToAction: c.callToAction ?? '',
      targetAudience: c.targetAudience ?? '',
      price: c.price,
      impressions: c.impressions,
      imageUrl: c.imageUrl,
      carouselImages: c.carouselImages,
      link: c.link ?? '',
      campaignId: c.id,
      ...(c.targetingLocation ? { targetingLocation: c.targetingLocation } : {}),
      targetingInterests: c.targetingInterests,
      ...(c.targetingTemplate ? { targetingTemplate: c.targetingTemplate } : {}),
      // The saved targeting stands: a new preview does not replace it.
      targetingCustomized: true,
    },
  };
}
