import { campaignViewSchema } from '@app/contracts';
import { Campaign } from './campaign.model';
import { presentCampaign } from './campaigns.presenter';

const draft = {
  id: 11, agentId: 7, listingId: 3, agentName: 'Dana Whitfield', state: 'FL', mlsListingId: 'manual-3', templateType: 'just-listed',
  adFormat: 'single', headline: null, description: null, subtitle: null, callToAction: null, targetAudience: null, imageUrl: null,
  carouselImages: [], link: null, targeting: {}, budgetCents: 29900, impressionsRequested: 15000, status: 'draft',
  statusChangedAt: new Date(), stripePaymentIntentId: 'pi_secret_internal', facebookCampaignId: null, launchError: null,
  launchAttempts: 0, launchLeaseJob: null, launchLeaseUntil: null, startsAt: null, endsAt: null, impressionsDelivered: 0, reach: 0,
  clicks: 0, createdAt: new Date('2026-11-20T10:00:00Z'), updatedAt: new Date('2026-11-20T10:00:00Z'),
};

describe('presentCampaign → the CampaignView contract', () => {
  it('a fresh draft parses, without payment internals', () => {
    const view = presentCampaign(Campaign.fromJson(draft, { skipValidation: true }));
    expect(campaignViewSchema.strict().parse(view)).toEqual(view);
    expect(view).toMatchObject({ price: '299', targetingLocation: null, targetingInterests: [], targetingTemplate: null });
    expect(JSON.stringify(view)).not.toContain('pi_secret_internal');
  });

  it('a launched carousel campaign with targeting parses', () => {
    const view = presentCampaign(
      Campaign.fromJson(
        { ...draft, adFormat: 'carousel', headline: 'Just Listed', description: 'Bright corner lot.', subtitle: 'Tampa', callToAction: 'Learn More',
          targetAudience: 'Home buyers', imageUrl: 'https://photos.example.com/1.jpg',
          carouselImages: ['https://photos.example.com/1.jpg', 'https://photos.example.com/2.jpg'], link: 'https://ads.example.com/listing/manual-3',
          targeting: { targetingLocation: { city: 'Tampa', state: 'FL', radius: 25 }, targetingInterests: [{ id: 'i1', name: 'Real estate', enabled: true }],
            targetingTemplate: 'buyers' },
          budgetCents: 29950, status: 'active', facebookCampaignId: '120210000000001' },
        { skipValidation: true },
      ),
    );
    expect(campaignViewSchema.strict().parse(view)).toEqual(view);
    expect(view.price).toBe('299.50');
  });
});
