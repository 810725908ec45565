import type { Campaign } from '../campaign.model';
import type { CampaignListing } from '../listing-access';
import { adLinkDescription, advertiserLine } from '@app/contracts';
import { buildLaunchPlan, callToActionType, dailyBudgetCents, launchNames, LaunchInputError, targetingFor } from './launch-plan';

const listing = {
  id: 1,
  agentId: 1,
  mlsId: 'A123',
  city: 'Tampa',
  state: 'FL',
  latitude: 27.9506,
  longitude: -82.4572,
  imageUrl: '/demo-mls/photos/exterior-01.jpg',
  images: ['/demo-mls/photos/exterior-01.jpg'],
  description: 'Listing description.',
} as unknown as CampaignListing;

const campaign = (over: Partial<Campaign> = {}) =>
  ({
    id: 42,
    templateType: 'just-listed',
    adFormat: 'single',
    mlsListingId: 'A123',
    headline: 'Amazing Property in Tampa',
    description: 'Updated kitchen. Walking distance to church and shops!',
    subtitle: 'Exclusive neighborhood, quiet street.',
    callToAction: 'Learn more',
    imageUrl: '/demo-mls/photos/exterior-01.jpg',
    carouselImages: [],
    link: '/listing/A123',
    targeting: {},
    budgetCents: 29900,
    impressionsRequested: 15000,
    ...over,
  }) as Campaign;

describe('launch plan', () => {
  it('names carry the campaign id and the environment, and do not change between attempts', () => {
    const a = launchNames(campaign(), 'https://ads.example.com');
    expect(a).toEqual({
      campaign: 'LA#42 · Just Listed · A123 · ads.example.com',
      adSet: 'LA#42 · ad set · ads.example.com',
      creative: 'LA#42 · creative · ads.example.com',
      ad: 'LA#42 · ad · ads.example.com',
    });
    expect(launchNames(campaign(), 'https://ads.example.com')).toEqual(a);
    expect(launchNames(campaign({ templateType: 'just-sold' }), undefined).campaign).toBe('LA#42 · Just Sold · A123 · local');
  });

  it('daily budget: the budget over the longest timeframe in cents, never under $1', () => {
    expect(dailyBudgetCents(9900, 5000)).toBe(990); // 7-10 days → 10
    expect(dailyBudgetCents(29900, 15000)).toBe(2135); // 10-14 days → 14
    expect(dailyBudgetCents(39900, 20000)).toBe(1900); // 14-21 days → 21
    expect(dailyBudgetCents(99900, 50000)).toBe(3567); // 21-28 days → 28
    expect(dailyBudgetCents(500, 50000)).toBe(100);
  });

  it('targets the listing point when the location is its city, the city centre otherwise, and nothing demographic', () => {
    const own = targetingFor(campaign({ targeting: { targetingLocation: { city: 'tampa', state: 'Florida', radius: 35 } } }), listing);
    expect(own.location).toEqual({ latitude: 27.9506, longitude: -82.4572, radiusMiles: 35, label: 'tampa, FL' });
    const other = targetingFor(campaign({ targeting: { targetingLocation: { city: 'Orlando', state: 'FL', radius: 15 } } }), listing);
    expect(other.location).toMatchObject({ radiusMiles: 15, label: 'Orlando, FL' });
    expect((other.location as { latitude: number }).latitude).toBeCloseTo(28.54, 1);
    const unknown = targetingFor(campaign({ targeting: { targetingLocation: { city: 'Nowhereville', state: 'FL', radius: 25 } } }), listing);
    expect(unknown.location).toEqual({ address: 'Nowhereville, FL', radiusMiles: 25, label: 'Nowhereville, FL' });
    // No stored targeting: the listing's city, 25 miles, the general template's interests.
    const fallback = targetingFor(campaign(), listing);
    expect(fallback.location).toMatchObject({ latitude: 27.9506, radiusMiles: 25 });
    expect(fallback.interests).toContain('Real estate');
    for (const t of [own, other, unknown, fallback]) expect(JSON.stringify(t)).not.toMatch(/age|gender|zip|postal/i);
  });

  it('keeps only enabled interests', () => {
    const t = targetingFor(
      campaign({
        targeting: {
          targetingInterests: [
            { id: 'a', name: 'Zillow', enabled: true },
            { id: 'b', name: 'Trulia', enabled: false },
          ],
        },
      }),
      listing,
    );
    expect(t.interests).toEqual(['Zillow']);
  });

  it('checks the copy again with the Fair Housing rewrite, and resolves the link against PUBLIC_URL', () => {
    const plan = buildLaunchPlan(campaign(), listing, { publicUrl: 'https://ads.example.com', requireAbsoluteLink: true });
    expect(plan.creative).toMatchObject({
      headline: 'Amazing Property in Tampa',
      primaryText: 'Updated kitchen. Close to local amenities and shops!',
      description: 'Desirable neighborhood, quiet street.',
      link: 'https://ads.example.com/listing/A123',
      callToAction: 'LEARN_MORE',
      images: ['/demo-mls/photos/exterior-01.jpg'],
      format: 'single',
    });
    expect(plan.fairHousingFindings).toBe(2);
    expect(plan.campaign).toEqual({ name: plan.names.campaign, specialAdCategories: ['HOUSING'], country: 'US', impressionsGoal: 15000 });
    expect(plan.timeframeDays).toBe(14);
  });

  it('the creative names the advertiser as the preview does: "{agent name} · {brokerage}" first on the description line', () => {
    const plan = buildLaunchPlan(campaign({ agentName: 'Dana Whitfield', agentBrokerage: 'Gulf Coast Realty', subtitle: 'Looking to buy, rent or sell?' }), listing, {
      publicUrl: 'https://ads.example.com',
      requireAbsoluteLink: true,
    });
    expect(plan.creative.description).toBe('Dana Whitfield · Gulf Coast Realty — Looking to buy, rent or sell?');
    expect(buildLaunchPlan(campaign({ agentName: 'Dana Whitfield', agentBrokerage: 'Gulf Coast Realty', subtitle: '' }), listing, { publicUrl: undefined, requireAbsoluteLink: false }).creative.description).toBe(
      'Dana Whitfield · Gulf Coast Realty',
    );
    expect(advertiserLine('Dana Whitfield', '  ')).toBe('Dana Whitfield');
    expect(advertiserLine(null, null)).toBe('');
    // One rule for the launch and the wizard's preview (contracts): the same inputs give the same line.
    expect(plan.creative.description).toBe(adLinkDescription({ agentName: 'Dana Whitfield', brokerage: 'Gulf Coast Realty', subtitle: 'Looking to buy, rent or sell?' }));
  });

  it('a headline the rewrite empties falls back to the template headline', () => {
    const plan = buildLaunchPlan(campaign({ headline: 'No children. Christians only!' }), listing, { publicUrl: undefined, requireAbsoluteLink: false });
    expect(plan.creative.headline).toBe('Amazing Property in Tampa');
  });

  it('refuses what no retry can fix', () => {
    const opts = { publicUrl: undefined, requireAbsoluteLink: true };
    expect(() => buildLaunchPlan(campaign(), listing, opts)).toThrow(new LaunchInputError('PUBLIC_URL is not configured, so the ad cannot link to the listing page'));
    expect(() => buildLaunchPlan(campaign({ adFormat: 'carousel', carouselImages: ['/a.jpg'], link: 'https://x.example/l' }), listing, opts)).toThrow('A carousel ad needs 2 to 10 images');
    expect(() => buildLaunchPlan(campaign({ imageUrl: null, link: 'https://x.example/l' }), { ...listing, imageUrl: null, images: [] }, opts)).toThrow('The ad has no image');
    // No ad goes out without text: a draft saved before the rule, with no listing description to fall back on.
    const textless = { ...listing, description: null } as unknown as CampaignListing;
    expect(() => buildLaunchPlan(campaign({ description: '  ', link: 'https://x.example/l' }), textless, opts)).toThrow(new LaunchInputError('The ad has no text'));
    expect(() => buildLaunchPlan(campaign({ description: 'Unable to generate optimized copy', link: 'https://x.example/l' }), textless, opts)).toThrow('The ad has no text');
  });

  it('maps call-to-action texts to the platform types', () => {
    expect(callToActionType('Learn more')).toBe('LEARN_MORE');
    expect(callToActionType('View Details')).toBe('LEARN_MORE');
    expect(callToActionType('Contact Us')).toBe('CONTACT_US');
    expect(callToActionType('Something else')).toBe('LEARN_MORE');
  });
});
