/// <reference types="jest" />
import { campaignDraftFor } from './campaignDraft';
import { campaignBody, isCompleteDraft, repairDraft } from './completeDraft';
import { aListing, anAgent } from './testing';

const agent = anAgent();
const listing = aListing();

describe('the campaign draft seeded for a listing (spec 000 §3, §4)', () => {
  it('takes the ad type from the status, the default texts, the photos and the listing page as link', () => {
    const active = campaignDraftFor(agent, listing, 'Copy');
    expect(active).toMatchObject({
      agentId: 7,
      listingId: 41,
      templateType: 'just-listed',
      adFormat: 'single',
      headline: 'Amazing Property in Tampa',
      subtitle: 'Looking to buy, rent or sell?',
      callToAction: 'Learn more',
      targetAudience: 'Local Home Buyers (25-55)',
      price: '399',
      impressions: 25000,
      imageUrl: listing.imageUrl,
    });
    expect(active.link).toBe(`${window.location.origin}/listing/MLS-41`);
    const sold = campaignDraftFor(agent, aListing({ status: 'sold' }), 'Copy');
    expect(sold).toMatchObject({ templateType: 'just-sold', headline: 'Just Sold in Tampa', subtitle: 'Wondering what your home is worth?' });
  });
});

describe('repairDraft / isCompleteDraft', () => {
  it('builds the whole draft, targeting included, when nothing is stored', () => {
    const repaired = repairDraft(null, agent, listing);
    expect(isCompleteDraft(repaired)).toBe(true);
    expect(repaired?.targetingLocation).toEqual({ city: 'Tampa', state: 'FL', radius: 25 });
    expect(repaired?.campaignId).toBeNull();
  });

  it('answers null for a draft that is already complete', () => {
    const complete = repairDraft(null, agent, listing)!;
    expect(repairDraft(complete, agent, listing)).toBeNull();
  });

  it('keeps the usable fields of a stored draft and replaces the rest', () => {
    const complete = repairDraft(null, agent, listing)!;
    const damaged = { ...complete, headline: 'Mine', price: 'free', carouselImages: 'nope' } as unknown as typeof complete;
    const repaired = repairDraft(damaged, agent, listing)!;
    expect(repaired.headline).toBe('Mine');
    expect(repaired.price).toBe('399');
    expect(repaired.carouselImages).toEqual(complete.carouselImages);
    expect(isCompleteDraft(damaged)).toBe(false);
  });

  it("starts over from another listing's draft", () => {
    const other = { ...repairDraft(null, agent, aListing({ id: 99 }))!, headline: 'Other listing' };
    expect(repairDraft(other, agent, listing)?.headline).toBe('Amazing Property in Tampa');
  });
});

describe('campaignBody (POST/PATCH /api/campaigns)', () => {
  it('sends the budget and what it buys, never a placeholder, and no carousel photos for a single image', () => {
    const draft = { ...repairDraft(null, agent, listing)!, description: 'Generating optimized ad copy...', headline: '  Trimmed  ' };
    const body = campaignBody(draft, 499);
    expect(body).toMatchObject({ price: '499', impressions: 25000, impressionsRequested: 25000, status: 'draft', description: '', headline: 'Trimmed', carouselImages: [] });
    const carousel = campaignBody({ ...draft, adFormat: 'carousel' }, 99);
    expect(carousel.impressions).toBe(5000);
    expect(carousel.carouselImages).toEqual(draft.carouselImages);
  });
});
