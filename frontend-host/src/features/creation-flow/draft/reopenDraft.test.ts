import type { CampaignWizard } from '@app/contracts';
import { isCompleteDraft } from './completeDraft';
import { reopenedDraft } from './reopenDraft';

const wizard = (over: Partial<CampaignWizard['campaign']> = {}, mlsId: string | null = 'FL30418'): CampaignWizard =>
  ({
    agent: { id: 7, name: 'Sarah Johnson', email: null, phone: null, state: 'FL', brokerage: null, mlsId, profileImageUrl: null, logoUrl: null, hasPassword: true, createdAt: '2026-11-27T00:00:00.000Z' },
    listing: { id: 9, agentId: 7, mlsId: 'FL26404135', city: 'Tampa', state: 'FL' },
    campaign: {
      id: 42, agentId: 7, listingId: 9, templateType: 'just-listed', adFormat: 'single', headline: 'Amazing Property in Tampa', description: 'Sunny.',
      subtitle: 'Looking to buy, rent or sell?', callToAction: 'Learn more', targetAudience: 'Local Home Buyers (25-55)', impressions: 15000, impressionsRequested: 15000,
      price: '299', status: 'draft', imageUrl: '/demo-mls/photos/exterior-01.jpg', carouselImages: [], link: 'http://localhost:3000/listing/FL26404135',
      targetingLocation: { city: 'Tampa', state: 'FL', radius: 25 }, targetingInterests: [{ id: 'real-estate', name: 'Real estate', enabled: true }], targetingTemplate: 'buyers',
      facebookCampaignId: null, listingMlsId: 'FL26404135', launchError: null, createdAt: '2026-11-27T00:00:00.000Z', ...over,
    },
  }) as CampaignWizard;

describe('reopenedDraft', () => {
  it('is a complete wizard draft that updates the saved campaign, with its targeting kept', () => {
    const { path, campaign } = reopenedDraft(wizard());
    expect(path).toBe('mls');
    expect(isCompleteDraft(campaign)).toBe(true);
    expect(campaign).toMatchObject({ campaignId: 42, price: '299', targetingCustomized: true, targetingTemplate: 'buyers' });
  });

  it('fills missing text with empty strings, and a manual agent takes the manual path', () => {
    const { path, campaign } = reopenedDraft(wizard({ headline: null, description: null, link: null }, null));
    expect(path).toBe('manual');
    expect(campaign).toMatchObject({ headline: '', description: '', link: '' });
  });
});
